"""A real `paiju serve` subprocess on a free loopback port (started by paiju/testing/launch.py),
shared by the server tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from paiju.testing import launch
from paiju.testing.launch import Child

Served = Child  # a `paiju serve` child: .url, .http, .proc, .output(), .stop()


def start_server(*extra: str, new_session: bool = False) -> Served:
    """`paiju serve --port 0 ...`, once it listens. Robots play at full speed (``--robot-pace
    0``, unless ``extra`` says otherwise): the pace is checked in
    tests/server/test_table_clocks.py, and would only make these tests slower. With
    ``new_session`` the server leads a process group of its own (as in a terminal, where a
    Ctrl-C reaches the whole group)."""
    return launch.serve("--robot-pace", "0", *extra, timeout=30, new_session=new_session)


def stop_server(s: Served) -> str:
    """SIGTERM (SIGKILL after 10 s); the server's whole output."""
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
