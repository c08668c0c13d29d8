"""The solved value of a finished deal, for the RESULT a player reads: how the hand could
have gone with perfect play on both sides, next to how it went.

>>> import games
>>> g = games.create("tricks", 3)
>>> while g.to_act():
...     s = g.to_act()[0]
...     _ = g.apply(s, g.default_action(s))
>>> r = deal_value(g)
>>> sorted(r), r["leader"] == g.dealer, -g.rules.n <= r["value"] <= g.rules.n
(['leader', 'value'], True, True)
"""

from __future__ import annotations

from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

from protocol.cards import tricks_number

from ..pool import process_pool
from .solver import solve

_pool: ProcessPoolExecutor | None = None  # started with the first deal: one solve at a time


def deal_value(game: Any) -> dict[str, Any]:
    """``{"value": v, "leader": s}``: the value of the deal as dealt (the first leader's
    tricks minus the other's, both playing perfectly) and that leader's seat."""
    leader = game.dealer
    hands = [[tricks_number(b) for b in game.dealt[s]] for s in (leader, 1 - leader)]
    return _value(hands, leader)


def start() -> ProcessPoolExecutor:
    """The solver's process, started (and its modules loaded) ahead of the first deal."""
    global _pool
    if _pool is None:
        _pool = process_pool()  # ended with the server, even killed outright
        _pool.submit(_loaded)  # (its unpickling imports this module, and the solver)
    return _pool


def value_future(game: Any) -> Future[dict[str, Any]]:
    """:func:`deal_value` of ``game`` (a deal just dealt), worked out in a background process."""
    leader = game.dealer
    hands = [[tricks_number(b) for b in game.dealt[s]] for s in (leader, 1 - leader)]
    return start().submit(_value, hands, leader)


def _value(hands: list[list[int]], leader: int) -> dict[str, Any]:
    return {"value": solve(hands[0], hands[1]), "leader": leader}


def _loaded() -> None:
    pass
