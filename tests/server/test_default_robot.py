"""Rooms seat each game's strongest registered robot when none is named (paiju/core/config.py's
PREFERRED_ROBOTS, ordered by the arena's figures in docs/robots.md), skipping a name the
game has not registered; every robot has a one-line description for the lobby's menu."""

from __future__ import annotations

from typing import Any

import pytest

from paiju import games
from paiju.bots import registry
from paiju.core.config import PREFERRED_ROBOTS, Limits
from paiju.core.lobby import Lobby
from paiju.protocol import ListRooms, QuickPlay, RoomList

from .lobbykit import Kit

# the strongest robot each game has today (docs/robots.md, "Default robots")
STRONGEST = {"mahjong": "bdi-hudist", "tricks": "perfect"}


def chosen(known: list[str]) -> str | None:
    lobby: Lobby[Any] = Lobby(Limits(), secret=b"k", robots=lambda game: known)
    return lobby.robot_for("any", None)


@pytest.mark.parametrize("game", games.names())
def test_the_default_is_the_first_preferred_robot_the_game_has(game: str) -> None:
    known = registry.names(game)
    first = next(r for r in PREFERRED_ROBOTS if r in known)
    assert chosen(known) == first
    if game in STRONGEST:
        assert first == STRONGEST[game]


def test_a_preferred_robot_that_is_not_registered_is_skipped() -> None:
    assert chosen(["random", "hybrid"]) == "hybrid"  # bridge once its robot lands
    assert chosen(["automaton", "random"]) == "automaton"  # Niujiu likewise
    assert chosen(["random"]) == "random"  # neither registered: the baseline
    assert chosen(["greedy", "bdi-rearrange", "random"]) == "bdi-rearrange"  # bdi-hudist missing
    assert PREFERRED_ROBOTS[-1] == "random"


@pytest.mark.parametrize("game", games.names())
def test_every_robot_has_a_one_line_description(game: str) -> None:
    described = registry.describe(game)
    assert [n for n, _ in described] == registry.names(game)
    for name, text in described:
        assert text and "\n" not in text and len(text) <= 100, (name, text)


def test_quick_play_seats_the_strongest_robot() -> None:
    k = Kit(robots=registry.names)  # the robots paiju serve offers (the lobby's core, in-process)
    k.hello(1, "ann")
    k.send(1, QuickPlay("mahjong"))
    k.tick(k.limits.quickplay_wait + 0.1)  # nobody else came: robots fill the seats
    (listed,) = k.send(1, ListRooms("mahjong"))
    assert isinstance(listed, RoomList)
    assert listed.rooms[0].seats.count("bdi-hudist (robot)") == 3, listed.rooms[0].seats
