"""A real `redis-server` on a free loopback port (no persistence), `paiju serve --redis`
and `paiju bots` subprocesses around it (started by paiju/testing/launch.py), or the node in
this process (paiju/testing/inprocess.py) where the server's own process is not under test,
and helpers to read their logs."""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from paiju import games
from paiju.client import Client
from paiju.protocol import Event
from paiju.testing import inprocess, launch
from paiju.testing.inprocess import InProcess
from paiju.testing.launch import Child, free_port

# Importing the slow robot registers it: only the subprocesses that ask for it do, and this
# process for the tests that take the slow_robot fixture.
collect_ignore = ["slowbot.py"]
# Fast settings: no pause between hands, a quick grace; a rate a test client stays under.
SERVE_OPTIONS = ("--hand-pause", "0", "--grace", "20", "--rate", "300", "--burst", "300", "--robot-pace", "0")
SLOW = "tests.redis.slowbot"  # the "slow" robot of the failover tests


@dataclass
class RedisServer:
    """A redis-server on ``port`` (no persistence), which may be stopped and started again."""

    port: int
    child: Child | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.child, _ = launch.redis(self.port)

    def stop(self) -> None:
        if self.child is not None:
            self.child.stop(timeout=10)
        self.child = None


@pytest.fixture
def redis_server() -> Iterator[RedisServer]:
    r = RedisServer(free_port())
    r.start()
    try:
        yield r
    finally:
        r.stop()


@pytest.fixture
def slow_robot() -> Iterator[str]:
    """The slow robot in this process's registry for one test, so that the node started here
    offers it (the workers load it with ``--robots-module``)."""
    from paiju.bots import registry

    registry.register(importlib.import_module(SLOW).SlowTricks)  # again after an earlier test's unregister
    yield SLOW
    registry.unregister("tricks", "slow")


# How long a child may take to say it is ready: a bound against a hang, not a timing target (a
# `paiju serve` under `nice` on a machine whose cores are all busy takes tens of seconds)
STARTUP = 120


def start_bots(url: str, name: str, *extra: str, wait: bool = True) -> Child:
    """A `paiju bots` worker, once it serves (without ``wait``: started, launch.all_started
    waits for it)."""
    return launch.bots(url, name, *extra, timeout=STARTUP, wait=wait)


def start_serve(url: str, *extra: str, wait: bool = True) -> Child:
    """`paiju serve --redis URL` on a free port, once it listens (without ``wait``: started,
    launch.all_started waits for it); its whole output is kept (rebuild lines)."""
    return launch.serve("--redis", url, *SERVE_OPTIONS, *extra, timeout=STARTUP, wait=wait)


async def watch_robots(
    url: str, game: str, *, hands: int = 2, robot: str | None = None, clock_ms: int | None = None
) -> list[Event]:
    """The events of a match of ``game`` whose every seat is a robot, watched to its end by
    the room's creator (``clock_ms``: the room's time for a move; None: the game's)."""
    n = games.create(game, 0).num_seats
    c = await Client.connect(url, "watcher", record=True)
    try:
        st = await c.create(game, bots=list(range(n)), hands=hands, robot=robot, clock_ms=clock_ms)
        assert st.seat is None
        await c.until_match_end(timeout=120)
    finally:
        await c.close()
    return [f for f in c.log if isinstance(f, Event)]


def start_node(url: str, *extra: str) -> InProcess:
    """`paiju serve --redis URL`'s node in this process (a thread of its own), once it listens:
    for the tests that kill or restart Redis or a worker, not the server."""
    return inprocess.start("--redis", url, *SERVE_OPTIONS, *extra, timeout=STARTUP)


def answered(log: str) -> dict[str, int]:
    """A worker's answers per game, from its last line."""
    m = re.search(r"stopped: answered (\d+) \(([^)]*)\)", log)
    assert m, log[-3000:]
    return {k: int(v) for k, v in (x.split("=") for x in m.group(2).split() if "=" in x)}
