"""Clocks: a seat that never answers gets the game's default action at each deadline, a
robot takes the seat over after repeated timeouts, and the hand completes."""

from __future__ import annotations

import asyncio

import pytest

import games
from paiju.client import Client
from protocol import Event, Prompt, Result, RoomEvent

from .conftest import Served


@pytest.mark.parametrize("game", games.names())
async def test_silent_seat_gets_default_actions(served: Served, game: str) -> None:
    n = games.create(game, 0).num_seats
    c = await Client.connect(served.url, "sleepy", record=True)
    try:
        await c.create(game, bots=list(range(1, n)), clock_ms=150, seed=21)
        async with asyncio.timeout(60):
            async for f in c:
                if isinstance(f, Result) and f.final:
                    break
    finally:
        await c.close()
    ev = [f for f in c.log if isinstance(f, Event)]
    timeouts = [e for e in ev if e.code == RoomEvent.TIMEOUT]
    prompts = [f for f in c.log if isinstance(f, Prompt) and f.mask]
    assert prompts, "the seat was asked"
    assert timeouts and all(e.seat is not None for e in timeouts)
    # every TIMEOUT names a prompt this client was sent, and an echo of the default follows
    assert {e.arg for e in timeouts} <= {p.prompt_id for p in prompts}
    for t in timeouts:
        nxt = next(e for e in ev if e.seq > t.seq)
        assert nxt.seat == t.seat and nxt.code >= 0x20, "the default action is applied and echoed"
    robot = [e for e in ev if e.code == RoomEvent.ROBOT and e.seat == 0]
    assert [e.arg for e in robot][:1] == [1], "after repeated timeouts a robot plays the seat"
    print(f"{game}: {len(timeouts)} timeouts, then a robot; hand completed")
