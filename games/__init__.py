"""The rules, sans-I/O: one subpackage per game, pure and deterministic from a seed.

>>> import games
>>> g = games.create("tricks", seed=1)
>>> g.to_act()
(0,)
"""

import protocol  # noqa: F401 - first: protocol.build picks the compiled or the pure modules

from .base import ActionSet, Game, GameAction, GameError, GameEvent, HandNotOver, Outcome, Rules
from .registry import add_record, create, get, names, records, register, shape
from .request import decision_request

__all__ = [
    "ActionSet",
    "Game",
    "GameAction",
    "GameError",
    "GameEvent",
    "HandNotOver",
    "Outcome",
    "Rules",
    "add_record",
    "create",
    "decision_request",
    "get",
    "names",
    "records",
    "register",
    "shape",
]
