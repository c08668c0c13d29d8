"""`python -m paiju.bench.connmem`: what a held idle connection keeps, by owner, from a real server."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_a_held_connection_keeps_no_handshake_headers() -> None:
    p = subprocess.run(
        [sys.executable, "-m", "paiju.bench.connmem", "--idle", "60", "--ramp", "1", "--settle", "1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert p.returncode == 0, p.stderr[-3000:]
    lines = p.stdout.splitlines()
    assert lines[0].startswith("60 idle connections held by one process: RSS "), p.stdout
    traced = re.search(r"traced \(tracemalloc\): ([\d.]+) KiB a connection", p.stdout)
    assert traced is not None and 2 < float(traced.group(1)) < 20, p.stdout
    owners = {name: float(kib) for kib, name in re.findall(r"^ +([\d.]+) KiB  (.+)$", p.stdout, re.M)}
    assert owners["websockets' connection and protocol objects"] > 1, p.stdout
    # the opening handshake's headers are let go once it is done (kept, they were some 3.9 KiB)
    assert owners.get("handshake request and response (headers)", 0.0) < 1.0, p.stdout
