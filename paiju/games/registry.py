"""Games by name. Each game's subpackage registers its class when imported."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from paiju.games.base import Game, Rules

# name -> module that defines and registers it; imported on first use
MODULES = {
    "tricks": "paiju.games.tricks",
    "mahjong": "paiju.games.mahjong",
    "niujiu": "paiju.games.niujiu",
    "bridge": "paiju.games.bridge",
}
_GAMES: dict[str, type[Game[Any]]] = {}
_DETAILS: dict[str, list[Callable[[Any], dict[str, Any]]]] = {}
_SHAPES: dict[tuple[str, str | None], tuple[int, Rules]] = {}


def register(cls: type[Game[Any]]) -> type[Game[Any]]:
    _GAMES[cls.name] = cls
    return cls


def add_detail(name: str, detail: Callable[[Any], dict[str, Any]]) -> None:
    """Have :func:`details` give ``detail(game)`` to the outcome of game ``name`` (a game's
    package registers what is written from a game, such as bridge's PBN file, so that the game
    itself need not import its writers). The details of one game merge; adding the same one
    again changes nothing. A detail must be quick: the server's rooms make it on their event
    loop (what is slow, such as bridge's par, is worked out elsewhere: paiju/server/room.py)."""
    if detail not in _DETAILS.setdefault(name, []):
        _DETAILS[name].append(detail)


def details(game: Game[Any]) -> dict[str, Any]:
    """What a RESULT adds to the outcome's detail of an ended hand: its package's details."""
    out: dict[str, Any] = {}
    for detail in _DETAILS.get(game.name, ()):
        out.update(detail(game))
    return out


def names() -> list[str]:
    """Every game paiju knows."""
    return list(MODULES)


def get(name: str) -> type[Game[Any]]:
    """The class of the game ``name``; KeyError (naming the known games) if there is none."""
    if name not in _GAMES and name in MODULES:
        importlib.import_module(MODULES[name])
    if name not in _GAMES:
        raise KeyError(f"no game {name!r}; known: {', '.join(MODULES)}")
    return _GAMES[name]


def create(
    name: str, seed: int, ruleset: str | Rules | None = None, *, hand: int = 0, dealer: int | None = None
) -> Game[Any]:
    """A new hand of the game ``name``: ``create("mahjong", 7, "classic")``."""
    return get(name)(seed, ruleset, hand=hand, dealer=dealer)


def shape(name: str, ruleset: str | None = None) -> tuple[int, Rules]:
    """``(seats, rules)`` of game ``name`` with ``ruleset`` (KeyError: no such game or
    ruleset), without dealing a hand each time: what a room about to be created checks.

    >>> shape("tricks")[0], shape("mahjong", "classic")[1].name
    (2, 'classic')
    """
    key = (name, ruleset)
    got = _SHAPES.get(key)
    if got is None:
        probe = create(name, 0, ruleset)
        got = _SHAPES[key] = (probe.num_seats, probe.rules)
    return got
