"""A match of each game, every seat a robot, through one `paiju serve --redis` node (in this
process) and two `paiju bots` workers: each match reaches its final RESULT with no default action (every
request answered in time), and the work is shared between the two workers. The robots are
each game's quick ones (their decisions on the worker's loop): a cpu-heavy robot's way through
a worker's pool is tests/bots/test_bridge_room.py's and test_failover.py's, and with mahjong's
and bridge's heaviest robots in every seat a busy machine starved the workers past the
clocks (niujiu and bridge not done in 200 s at load 19)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from paiju import games
from paiju.protocol import RoomEvent
from paiju.testing.inprocess import InProcess
from paiju.testing.launch import Child, all_started

from .conftest import RedisServer, answered, start_bots, start_node, watch_robots

QUICK = {"tricks": "perfect", "mahjong": "greedy", "niujiu": "automaton", "bridge": "basic"}
# A move's time far over any answer's: a TIMEOUT is then a request that was lost, not one a
# loaded machine answered late (with mahjong's 5 s, at load 12, one was: the first mahjong
# move then computed the hu-distance tables, 0.6 s of CPU, in the process that played it;
# they are read from tables.bin now). An answered match takes no longer for it.
CLOCK_MS = 120_000


@pytest.fixture
def cluster(redis_server: RedisServer) -> Iterator[tuple[str, InProcess, Child, Child]]:
    server = start_node(redis_server.url)
    a = start_bots(redis_server.url, "worker-a", "--concurrency", "4", wait=False)
    b = start_bots(redis_server.url, "worker-b", "--concurrency", "4", wait=False)
    all_started(a, b)  # (side by side)
    try:
        yield server.url, server, a, b
    finally:
        for p in (a, b, server):
            p.stop()


async def test_every_game_through_two_workers(cluster: tuple[str, InProcess, Child, Child]) -> None:
    url, server, a, b = cluster
    logs = await asyncio.gather(*(watch_robots(url, g, robot=QUICK[g], clock_ms=CLOCK_MS) for g in games.names()))
    for game, events in zip(games.names(), logs, strict=True):
        codes = [e.code for e in events]
        assert codes.count(RoomEvent.HAND_END) == 2 and RoomEvent.MATCH_END in codes, game
        assert RoomEvent.TIMEOUT not in codes, f"{game}: a request went unanswered"
    share_a, share_b = answered(a.stop()), answered(b.stop())
    out = server.stop()
    assert "Traceback" not in out, out[-3000:]
    total = {g: share_a.get(g, 0) + share_b.get(g, 0) for g in games.names()}
    shares = ", ".join(f"{g} {share_a.get(g, 0)}+{share_b.get(g, 0)}" for g in games.names())
    print(f"decisions per game (worker a + worker b): {shares}")
    assert all(total[g] > 0 for g in games.names())
    # the work is shared: each worker answered a fifth of it at least (which worker takes a
    # given game's requests is the streams' first come, first served: at a load of 8 one
    # worker once took all 116 of bridge's while the other took most of the rest)
    assert sum(share_a.values()) >= 0.2 * sum(total.values()) and sum(share_b.values()) >= 0.2 * sum(total.values())
