"""Rooms seat each game's strongest registered robot when none is named (server/config.py's
PREFERRED_ROBOTS, ordered by the arena's figures in docs/robots.md), skipping a name the
game has not registered; every robot has a one-line description for the lobby's menu."""

from __future__ import annotations

import pytest

import games
from bots import registry
from client import Client
from protocol import Prompt
from server.app import Server
from server.config import PREFERRED_ROBOTS

from .conftest import Served

# the strongest robot each game has today (docs/robots.md, "Default robots")
STRONGEST = {"mahjong": "bdi-hudist", "tricks": "perfect"}


def chosen(known: list[str]) -> str | None:
    s = Server.__new__(Server)
    s.robots = lambda game: known
    return s._robot_for("any", None)


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


async def test_quick_play_seats_the_strongest_robot(served: Served) -> None:
    async with await Client.connect(served.url, "ann") as c:
        state = await c.quickplay("mahjong")
        while not isinstance(await c.recv(timeout=30), Prompt):
            pass  # the match has started: the robots are seated
        rooms = [r for r in await c.list_rooms("mahjong") if r.room == state.room]
        assert rooms[0].seats.count("bdi-hudist (robot)") == 3, rooms[0].seats
