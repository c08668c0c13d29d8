"""A client creates a room of each game with the other seats bots and plays whole hands
with random legal moves until the final RESULT; a spectator watches a robots-only match."""

from __future__ import annotations

import asyncio
import random

import pytest

import games
from client import Client
from protocol import Event, Prompt, Result, RoomEvent

from .conftest import Served


@pytest.mark.parametrize("game", games.names())
async def test_play_against_bots_until_result(served: Served, game: str) -> None:
    n = games.create(game, 0).num_seats
    c = await Client.connect(served.url, "ann", record=True)
    try:
        st = await c.create(game, bots=list(range(1, n)), hands=2, clock_ms=5000, seed=11)
        assert st.seat == 0 and st.game == game and len(st.seats) == n
        results = await c.play(random.Random(5), timeout=60)
    finally:
        await c.close()
    assert [r.hand for r in results] == [0, 1] and results[-1].final
    assert results[-1].totals == [a + b for a, b in zip(results[0].scores, results[1].scores, strict=True)]
    events = [f for f in c.log if isinstance(f, Event)]
    assert [e.seq for e in events] == list(range(events[0].seq, events[0].seq + len(events)))
    starts = [e for e in events if e.code == RoomEvent.HAND_START]
    assert [e.arg for e in starts] == [0, 1]
    assert starts[0].seat != starts[1].seat  # the dealer rotates
    assert any(e.code == RoomEvent.MATCH_END for e in events)
    assert any(isinstance(f, Prompt) for f in c.log)


@pytest.mark.parametrize("game", games.names())
async def test_spectator_watches_robots(served: Served, game: str) -> None:
    n = games.create(game, 0).num_seats
    c = await Client.connect(served.url, "watcher", record=True)
    try:
        st = await c.create(game, bots=list(range(n)), hands=1, seed=3)
        assert st.seat is None  # every seat is a robot's: the creator watches
        results = []
        async with asyncio.timeout(60):
            async for f in c:
                if isinstance(f, Result):
                    results.append(f)
                    if f.final:
                        break
    finally:
        await c.close()
    assert len(results) == 1 and results[0].final
    assert not any(isinstance(f, Prompt) for f in c.log)
