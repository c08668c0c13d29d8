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

import asyncio
from typing import Any

from protocol.cards import tricks_number

from ..pool import CallPool
from .solver import solve


def deal_value(game: Any) -> dict[str, Any]:
    """``{"value": v, "leader": s}``: the value of the deal as dealt (the first leader's
    tricks minus the other's, both playing perfectly) and that leader's seat."""
    return _value(*_deal(game))


def pool() -> CallPool:
    """The solver's process (one solve at a time), started now and its modules loaded ahead
    of the first deal (from the running event loop)."""
    p = CallPool(1, name="paiju-tricks-value")
    p.submit(_loaded)  # (its unpickling imports this module, and the solver)
    return p


def value_future(pool: CallPool, game: Any) -> asyncio.Future[dict[str, Any]]:
    """:func:`deal_value` of ``game`` (a deal just dealt), worked out in ``pool``'s process."""
    return pool.submit(_value, *_deal(game))


def _deal(game: Any) -> tuple[list[list[int]], int]:
    leader = game.dealer
    return [[tricks_number(b) for b in game.dealt[s]] for s in (leader, 1 - leader)], leader


def _value(hands: list[list[int]], leader: int) -> dict[str, Any]:
    return {"value": solve(hands[0], hands[1]), "leader": leader}


def _loaded() -> None:
    pass
