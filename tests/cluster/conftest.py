"""Several `paiju serve --redis` nodes around one real `redis-server`, with `paiju bots`
workers (tests/redis/conftest.py starts the processes): a test's own, or, for the tests that
neither stop nor kill a node, two nodes a session shares (:func:`two_nodes`)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from paiju.testing.launch import Child, all_started, free_port
from tests.redis.conftest import RedisServer, redis_server, start_bots, start_serve

__all__ = ["redis_server", "start_node"]

# A short lease (3 s: a loaded machine must not starve a live node past it); the same secret
# lets a token resume on any node.
CLUSTER_OPTIONS = ("--secret", "cluster-secret", "--lease", "3", "--no-robot-on-drop")


def start_node(redis: RedisServer, name: str, tmp: Path, *extra: str, wait: bool = True) -> Child:
    """Node ``name`` (its own records database: several processes on one SQLite file would
    wait on its lock), once it listens (without ``wait``: launch.all_started waits for it)."""
    db = f"sqlite:///{tmp / (name + '.sqlite3')}"
    return start_serve(redis.url, "--server-id", name, "--database", db, *CLUSTER_OPTIONS, *extra, wait=wait)


def start_two(redis: RedisServer, tmp: Path) -> tuple[Child, Child, Child]:
    """Nodes ``a`` and ``b`` and a robots' worker ``w``, started side by side."""
    a, b = start_node(redis, "a", tmp, wait=False), start_node(redis, "b", tmp, wait=False)
    bots = start_bots(redis.url, "w", wait=False)
    all_started(a, b, bots)
    return a, b, bots


@dataclass
class TwoNodes:
    """Nodes ``a`` and ``b`` and a robots' worker on one redis-server, for the tests that
    neither stop nor kill a node (they share it: a session's, once per pytest process)."""

    redis: RedisServer
    a: Child
    b: Child
    bots: Child

    def check(self) -> None:
        """Neither node has logged a traceback so far."""
        for node in (self.a, self.b):
            out = node.output()
            assert "Traceback" not in out, out[-3000:]


@pytest.fixture(scope="session")
def two_nodes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TwoNodes]:
    r = RedisServer(free_port())
    r.start()
    tmp = tmp_path_factory.mktemp("two-nodes")
    started: list[Child] = []
    try:
        started += start_two(r, tmp)
        nodes = TwoNodes(r, *started)
        yield nodes
    finally:
        for p in reversed(started):
            p.stop()
        r.stop()
    nodes.check()  # their shutdown too
