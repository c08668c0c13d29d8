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

from typing import Any

from protocol.cards import tricks_number

from .solver import solve


def deal_value(game: Any) -> dict[str, Any]:
    """``{"value": v, "leader": s}``: the value of the deal as dealt (the first leader's
    tricks minus the other's, both playing perfectly) and that leader's seat."""
    leader = game.dealer
    hands = [[tricks_number(b) for b in game.dealt[s]] for s in (leader, 1 - leader)]
    return {"value": solve(hands[0], hands[1]), "leader": leader}
