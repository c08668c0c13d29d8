"""A match of each game, every seat a robot, through one `paiju serve --redis` and two
`paiju bots` workers: each match reaches its final RESULT with no default action (every
request answered in time), and the work is shared between the two workers."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from paiju import games
from paiju.protocol import RoomEvent
from paiju.testing.launch import Child

from .conftest import RedisServer, answered, start_bots, start_serve, watch_robots


@pytest.fixture
def cluster(redis_server: RedisServer) -> Iterator[tuple[str, Child, Child, Child]]:
    server = start_serve(redis_server.url)
    a = start_bots(redis_server.url, "worker-a", "--concurrency", "4")
    b = start_bots(redis_server.url, "worker-b", "--concurrency", "4")
    try:
        yield server.url, server, a, b
    finally:
        for p in (a, b, server):
            p.stop()


async def test_every_game_through_two_workers(cluster: tuple[str, Child, Child, Child]) -> None:
    url, server, a, b = cluster
    logs = await asyncio.gather(*(watch_robots(url, g) for g in games.names()))
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
    assert sum(share_a.values()) >= 0.2 * sum(total.values()) and sum(share_b.values()) >= 0.2 * sum(total.values())
    for g in games.names():
        if total[g] >= 20:  # enough requests that both workers must have served some
            assert share_a.get(g, 0) > 0 and share_b.get(g, 0) > 0, (g, share_a, share_b)
