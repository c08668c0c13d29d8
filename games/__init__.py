"""The rules, sans-I/O: one subpackage per game, pure and deterministic from a seed.

>>> import games
>>> g = games.create("tricks", seed=1)
>>> g.to_act()
(0,)
"""

from .base import Action, ActionSet, Event, Game, GameError, Outcome, Rules
from .registry import create, get, names, register

__all__ = [
    "Action",
    "ActionSet",
    "Event",
    "Game",
    "GameError",
    "Outcome",
    "Rules",
    "create",
    "get",
    "names",
    "register",
]
