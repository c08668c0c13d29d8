"""The server tests' servers: the whole embedded server in this process on a free loopback
port (paiju/testing/inprocess.py), or, where a process boundary is under test (signals, a
kill, the processes a server starts), a real `paiju serve` subprocess
(paiju/testing/launch.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from paiju.testing import inprocess, launch
from paiju.testing.inprocess import InProcess
from paiju.testing.launch import Child

Served = InProcess  # the embedded server in this process: .url, .http, .port, .output(), .stop()
Launched = Child  # a `paiju serve` child: the same, and .proc


def robots_at_full_speed(extra: tuple[str, ...]) -> tuple[str, ...]:
    """Robots play at full speed (``--robot-pace 0``, unless ``extra`` says otherwise): the
    pace is checked in tests/server/test_table_clocks.py, and would only make these tests slower."""
    return ("--robot-pace", "0", *extra)


def start_server(*extra: str) -> Served:
    """`paiju serve --port 0 ...` in this process (a thread of its own), once it listens."""
    return inprocess.start(*robots_at_full_speed(extra), timeout=60)


def start_process(*extra: str, new_session: bool = False) -> Launched:
    """`paiju serve --port 0 ...` as a subprocess, once it listens. With ``new_session`` the
    server leads a process group of its own (as in a terminal, where a Ctrl-C reaches the
    whole group)."""
    return launch.serve(*robots_at_full_speed(extra), timeout=60, new_session=new_session)


def stop_server(s: Served | Launched) -> str:
    """Stop it (a subprocess: SIGTERM, SIGKILL after 10 s); the server's whole output."""
    return s.stop(timeout=10)


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
