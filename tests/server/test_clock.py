"""Clocks: a seat that never answers gets the game's default action at each deadline, a
robot takes the seat over after repeated timeouts, and the hand completes."""

from __future__ import annotations

import pytest

import games
from client import Client

from .conftest import Served
from .tablekit import check_default_actions


@pytest.mark.parametrize("game", games.names())
async def test_silent_seat_gets_default_actions(served: Served, game: str) -> None:
    n = games.create(game, 0).num_seats
    c = await Client.connect(served.url, "sleepy", record=True)
    try:
        # three hands: a seat may have a single decision in a hand (a bridge board passed out
        # at once), and the robot takes over after two timeouts in a row. The other seats are
        # `random`, which answers within the 150 ms clock: a searching robot (bridge's hybrid)
        # would time out too, and as declarer its timeouts for dummy carry this seat's number
        await c.create(game, bots=list(range(1, n)), robot="random", clock_ms=150, seed=21, hands=3)
        await c.until_match_end(timeout=60)
    finally:
        await c.close()
    timeouts = check_default_actions(c.log)
    print(f"{game}: {timeouts} timeouts, then a robot; hand completed")
