"""Clocks: a seat that never answers gets the game's default action at each deadline, a
robot takes the seat over after repeated timeouts, and the hand completes. In-process: the
lobby's core and the tables, the clock an input (tests/server/lobbykit.py)."""

from __future__ import annotations

import pytest

from paiju import games
from paiju.protocol import CreateRoom, Event, RoomEvent

from .lobbykit import Kit
from .tablekit import check_default_actions


@pytest.mark.parametrize("game", games.names())
def test_silent_seat_gets_default_actions(game: str) -> None:
    n = games.create(game, 0).num_seats
    k = Kit()
    k.hello(1, "sleepy")
    # three hands: a seat may have a single decision in a hand (a bridge board passed out at
    # once), and the robot takes over after two timeouts in a row; the other seats' robots
    # (random) answer at once
    k.send(1, CreateRoom(game, bots=list(range(1, n)), robot="random", clock_ms=150, seed=21, hands=3))
    k.run_clock(lambda: any(isinstance(f, Event) and f.code == RoomEvent.MATCH_END for f in k.frames[1]))
    timeouts = check_default_actions(k.frames[1])
    print(f"{game}: {timeouts} timeouts, then a robot; hand completed")
