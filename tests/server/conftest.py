"""A real `paiju serve` subprocess on a free loopback port, shared by the server tests,
and helpers to play through the client library."""

from __future__ import annotations

import os
import re
import select
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Served:
    proc: subprocess.Popen[str]
    port: int

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"


def start_server(*extra: str, new_session: bool = False) -> Served:
    """Start `paiju serve --port 0 ...` and wait for the line that names its port. Robots play
    at full speed (``--robot-pace 0``, unless ``extra`` says otherwise): the pace is checked in
    tests/server/test_table_clocks.py, and would only make these tests slower. With
    ``new_session`` the server leads a process group of its own (as in a terminal, where a
    Ctrl-C reaches the whole group)."""
    cmd = [sys.executable, "-m", "paiju", "serve", "--port", "0", "--robot-pace", "0", *extra]
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    out = subprocess.PIPE
    proc = subprocess.Popen(
        cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, text=True, start_new_session=new_session
    )
    assert proc.stdout is not None
    deadline = time.monotonic() + 30
    seen = []
    while time.monotonic() < deadline:
        ready, _, _ = select.select([proc.stdout], [], [], 0.5)
        if ready:
            line = proc.stdout.readline()
            if not line:
                break
            seen.append(line)
            m = re.search(r"paiju serving on http://127\.0\.0\.1:(\d+)/", line)
            if m:
                os.set_blocking(proc.stdout.fileno(), False)
                return Served(proc, int(m.group(1)))
    proc.kill()
    raise RuntimeError("paiju serve did not start:\n" + "".join(seen))


def stop_server(s: Served) -> str:
    s.proc.terminate()
    try:
        out, _ = s.proc.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        s.proc.kill()
        out, _ = s.proc.communicate()
    return out or ""


def serving(*extra: str) -> Iterator[Served]:
    """A module's own server (yield from it in a fixture); it must not log a traceback."""
    s = start_server(*extra)
    try:
        yield s
    finally:
        out = stop_server(s)
        assert "Traceback" not in out, out[-4000:]


# Fast settings for tests: no pause between hands, short grace and quick-play wait, a rate
# limit that a fast test client stays under but a flood does not; no bound on the rooms one
# address creates (every test client comes from 127.0.0.1: test_address_limits.py checks them).
TEST_OPTIONS = (
    *("--hand-pause", "0", "--grace", "4", "--quickplay-wait", "0.5", "--rate", "300", "--burst", "300"),
    *("--address-rooms", "0", "--address-rooms-per-minute", "0"),
)


@pytest.fixture(scope="session")
def served() -> Iterator[Served]:
    yield from serving(*TEST_OPTIONS)  # no traceback logged during the whole session
