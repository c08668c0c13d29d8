"""Several `paiju serve --redis` nodes around one real `redis-server`, with `paiju bots`
workers (tests/redis/conftest.py starts the processes)."""

from __future__ import annotations

from pathlib import Path

from paiju.testing.launch import Child
from tests.redis.conftest import RedisServer, redis_server, start_serve

__all__ = ["redis_server", "start_node"]

# A short lease (3 s: a loaded machine must not starve a live node past it); the same secret
# lets a token resume on any node.
CLUSTER_OPTIONS = ("--secret", "cluster-secret", "--lease", "3", "--no-robot-on-drop")


def start_node(redis: RedisServer, name: str, tmp: Path, *extra: str) -> Child:
    """Node ``name`` (its own records database: several processes on one SQLite file would
    wait on its lock)."""
    db = f"sqlite:///{tmp / (name + '.sqlite3')}"
    return start_serve(redis.url, "--server-id", name, "--database", db, *CLUSTER_OPTIONS, *extra)
