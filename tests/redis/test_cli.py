"""`paiju bots` and `paiju serve --redis` refuse an unreachable or malformed Redis URL at
start-up with one clear line and a non-zero exit, never a traceback."""

from __future__ import annotations

import subprocess
import sys

import pytest

from paiju.testing.launch import ROOT, free_port

BAD = {
    "malformed": ("http://127.0.0.1:6379", 2, "malformed Redis URL"),
    "bad port": ("redis://127.0.0.1:notaport/0", 2, "malformed Redis URL"),
    "bad db": ("redis://127.0.0.1:6379/zero", 2, "malformed Redis URL"),
    "unreachable": (f"redis://127.0.0.1:{free_port()}/0", 1, "cannot reach Redis"),
}


@pytest.mark.parametrize("command", [["bots"], ["serve", "--port", "0"]])
@pytest.mark.parametrize("case", list(BAD))
def test_bad_redis_url_is_a_clear_error(command: list[str], case: str) -> None:
    url, code, message = BAD[case]
    p = subprocess.run(
        [sys.executable, "-m", "paiju", *command, "--redis", url],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert p.returncode == code, (p.returncode, p.stdout, p.stderr)
    assert "Traceback" not in p.stdout + p.stderr
    assert f"paiju {command[0]}: {message}" in p.stderr, p.stderr
    print(f"paiju {command[0]} --redis {url} -> exit {p.returncode}: {p.stderr.strip().splitlines()[-1]}")
