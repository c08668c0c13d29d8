"""Robots by game and name. The baseline ``random`` robot exists for every game."""

from __future__ import annotations

import importlib

from paiju import games
from paiju.bots.base import RandomRobot, Robot

# modules that register robots when imported (a game's robots live in paiju/bots/<game>/)
MODULES: list[str] = ["paiju.bots.bridge", "paiju.bots.mahjong", "paiju.bots.niujiu", "paiju.bots.tricks"]
_ROBOTS: dict[tuple[str, str], type[Robot]] = {}
_loaded = False


def register(cls: type[Robot]) -> type[Robot]:
    _ROBOTS[(cls.game, cls.name)] = cls
    return cls


def unregister(game: str, name: str) -> None:
    """Forget robot ``name`` of ``game`` (a variant registered for one run, as the tuning
    command does)."""
    _ROBOTS.pop((game, name), None)


def _load() -> None:
    global _loaded
    if not _loaded:
        _loaded = True
        for game in games.names():
            if (game, "random") not in _ROBOTS:
                register(type(f"Random_{game}", (RandomRobot,), {"game": game}))
        for m in MODULES:
            importlib.import_module(m)


def names(game: str) -> list[str]:
    """The robots that play ``game``."""
    _load()
    return sorted(n for g, n in _ROBOTS if g == game)


def describe(game: str) -> list[tuple[str, str]]:
    """``(name, one-line description)`` of the robots that play ``game``, by name.

    >>> dict(describe("tricks"))["random"]
    'plays a legal move at random: the baseline'
    """
    _load()
    out = []
    for n in names(game):
        cls = _ROBOTS[(game, n)]
        text = cls.description or (cls.__doc__ or "").strip().split("\n", 1)[0]
        out.append((n, text))
    return out


def get(game: str, name: str) -> Robot:
    """A new robot ``name`` for ``game``; KeyError naming the known robots if there is none."""
    _load()
    if (game, name) not in _ROBOTS:
        raise KeyError(f"no robot {name!r} for {game}; known: {', '.join(names(game)) or 'none'}")
    return _ROBOTS[(game, name)]()


def label(game: str, name: str) -> str:
    """The robot's account name, ``NAME@VERSION`` (KeyError if there is no such robot)."""
    _load()
    if (game, name) not in _ROBOTS:
        raise KeyError(f"no robot {name!r} for {game}")
    return f"{name}@{_ROBOTS[(game, name)].version}"
