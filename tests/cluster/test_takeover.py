"""A node killed with SIGKILL mid-hand, and a node drained with SIGTERM, of two nodes
with rooms of every game (a small `paiju bench cluster`): its rooms go on at the other node
from their logs, every client resumes through it, every match completes with
the results of a replay of its log, and no action is lost or applied twice."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from paiju.bench import cluster as bench_cluster
from tests.redis.conftest import RedisServer

from .conftest import redis_server

__all__ = ["redis_server"]

LEASE = 3.0


def options(redis: RedisServer, kill: str) -> argparse.Namespace:
    p = argparse.ArgumentParser()
    bench_cluster.add_arguments(p)
    # four rooms (one of each game) of two hands, random robots: seconds, not minutes; the
    # node that holds the most rooms in play goes 0.3 s into the first hand (how long the
    # takeover takes is `paiju bench cluster`'s figure, not a check here)
    small = ["--nodes", "2", "--workers", "1", "--rooms", "4", "--hands", "2", "--robot", "random"]
    timing = ["--lease", str(LEASE), "--kill-after", "0.3", "--timeout", "120"]
    return p.parse_args([*small, *timing, "--kill", kill, "--redis", redis.url])


@pytest.mark.parametrize("kill", ["sigkill", "sigterm"])
async def test_a_node_dies_or_drains_mid_hand(redis_server: RedisServer, tmp_path: Path, kill: str) -> None:
    report = await bench_cluster.cluster(options(redis_server, kill), tmp_path)
    print("\n".join(report.lines()))
    assert report.victim_rooms >= 1, "the node held rooms when it went"
    assert report.completed == report.rooms == report.equal_to_replay == 4
    assert report.actions > 0 and report.lost == 0 and report.duplicated == 0
    assert report.gaps == report.duplicate_events == report.snapshots == 0
    assert report.resumes >= 1 and report.lobby_consistent and not report.problems
    assert report.takeover_s is not None  # every room of the node owned by a live one before the deadline
    if kill == "sigkill":  # its lease ran out: the other node took its rooms
        assert report.taken_over >= report.victim_rooms
    else:  # it handed its rooms over as it drained, before its lease could run out
        assert report.handed_over >= report.victim_rooms and report.taken_over == 0
        assert report.errors == {}, "a drain is seen by no client as an error"
