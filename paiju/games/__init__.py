"""The rules, sans-I/O: one subpackage per game, pure and deterministic from a seed.

>>> from paiju import games
>>> g = games.create("tricks", seed=1)
>>> g.to_act()
(0,)
"""

from paiju.games.base import ActionSet, Game, GameAction, GameError, GameEvent, HandNotOver, Outcome, Rules
from paiju.games.registry import add_detail, create, details, get, names, register, shape
from paiju.games.request import decision_request

__all__ = [
    "ActionSet",
    "Game",
    "GameAction",
    "GameError",
    "GameEvent",
    "HandNotOver",
    "Outcome",
    "Rules",
    "add_detail",
    "create",
    "decision_request",
    "details",
    "get",
    "names",
    "register",
    "shape",
]
