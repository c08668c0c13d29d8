"""Clocks: a seat that never answers gets the game's default action at each deadline, a
robot takes the seat over after repeated timeouts, and the hand completes."""

from __future__ import annotations

import pytest

import games
from paiju.client import Client
from protocol import Event, Prompt, RoomEvent

from .conftest import Served


@pytest.mark.parametrize("game", games.names())
async def test_silent_seat_gets_default_actions(served: Served, game: str) -> None:
    n = games.create(game, 0).num_seats
    c = await Client.connect(served.url, "sleepy", record=True)
    try:
        # three hands: a seat may have a single decision in a hand (a bridge board passed out
        # at once), and the robot takes over after two timeouts in a row
        await c.create(game, bots=list(range(1, n)), clock_ms=150, seed=21, hands=3)
        await c.until_match_end(timeout=60)
    finally:
        await c.close()
    ev = [f for f in c.log if isinstance(f, Event)]
    # (a robot seat may time out too when the machine is loaded: only the silent seat's count here)
    timeouts = [e for e in ev if e.code == RoomEvent.TIMEOUT and e.seat == 0]
    prompts = [f for f in c.log if isinstance(f, Prompt) and f.mask]
    assert prompts, "the seat was asked"
    assert timeouts
    # every TIMEOUT names a prompt this client was sent, and an echo of the default follows
    assert {e.arg for e in timeouts} <= {p.prompt_id for p in prompts}
    # the default action is applied: its echo follows the TIMEOUT, except for a pass in a
    # mahjong claim window, which is private (the window then resolves and play goes on)
    followers = [next(e for e in ev if e.seq > t.seq) for t in timeouts]
    assert all(
        f.seat == t.seat and f.code >= 0x20 for t, f in zip(timeouts, followers, strict=True) if f.seat == t.seat
    )
    assert any(f.seat == t.seat and f.code >= 0x20 for t, f in zip(timeouts, followers, strict=True))
    robot = [e for e in ev if e.code == RoomEvent.ROBOT and e.seat == 0]
    assert [e.arg for e in robot][:1] == [1], "after repeated timeouts a robot plays the seat"
    print(f"{game}: {len(timeouts)} timeouts, then a robot; hand completed")
