"""The solved value of a finished deal, for the RESULT a player reads: how the hand could
have gone with perfect play on both sides, next to how it went.

>>> from paiju import games
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
from collections import OrderedDict
from typing import Any

from paiju import games
from paiju.bots.pool import CallPool
from paiju.bots.tricks.solver import DEFAULT_ORDER, solve
from paiju.protocol.cards import tricks_number

AHEAD = 64  # the hands of a match one call solves at most (a deal of its first, the next ones)
KEPT = 4096  # values worked out ahead and kept for their hands (the oldest go first)


def deal_value(game: Any) -> dict[str, Any]:
    """``{"value": v, "leader": s}``: the value of the deal as dealt (the first leader's
    tricks minus the other's, both playing perfectly) and that leader's seat."""
    return _value(*_deal(game))


def pool() -> CallPool:
    """The solver's process (one solve at a time), started by the first deal's value: a
    server that deals no trick game never starts it."""
    return CallPool(1, name="paiju-tricks-value")


def value_future(pool: CallPool, game: Any) -> asyncio.Future[dict[str, Any]]:
    """:func:`deal_value` of ``game`` (a deal just dealt), worked out in ``pool``'s process."""
    return pool.submit(_value, *_deal(game))


class Values:
    """``values(game, hands)``: the future of :func:`deal_value` of ``game``, the deal just
    dealt of a match of ``hands`` hands, worked out in ``pool``'s process. A small deal (the
    solver's table holds its value: a lookup) is sent with the rest of its match (dealt there
    from the seed as the table deals them, up to :data:`AHEAD` hands in all), whose values
    wait here for their deals: one round trip to the process a match, not one a hand (the
    round trips had cost more than the solving). A larger deal goes alone (its solve is the
    long part).
    """

    def __init__(self, pool: CallPool) -> None:
        self.pool = pool
        self.ready: OrderedDict[tuple[Any, ...], asyncio.Future[dict[str, Any]]] = OrderedDict()

    def __call__(self, game: Any, hands: int) -> asyncio.Future[dict[str, Any]]:
        ready = self.ready.pop((game.seed, game.rules, game.hand, game.dealer), None)
        if ready is not None:
            return ready
        later = list(range(game.hand + 1, min(hands, game.hand + AHEAD)))
        if not later or game.rules.n > DEFAULT_ORDER:
            return value_future(self.pool, game)
        loop = asyncio.get_running_loop()
        futures = [loop.create_future() for _ in range(1 + len(later))]
        for hand, future in zip(later, futures[1:], strict=True):  # (the table's dealer of each)
            self.ready[(game.seed, game.rules, hand, game.default_dealer(hand))] = future
        while len(self.ready) > KEPT:
            self.ready.popitem(last=False)
        batch = self.pool.submit(_values, *_deal(game), game.seed, game.rules, later)

        def spread(b: asyncio.Future[list[dict[str, Any]]]) -> None:
            error = None if b.cancelled() else b.exception()
            for i, f in enumerate(futures):
                if f.done():
                    continue
                if b.cancelled():
                    f.cancel()
                elif error is not None:
                    f.set_exception(error)
                else:
                    f.set_result(b.result()[i])

        batch.add_done_callback(spread)
        return futures[0]


def _values(hands: list[list[int]], leader: int, seed: int, rules: Any, later: list[int]) -> list[dict[str, Any]]:
    """:func:`_value` of a deal, then of the deals of hands ``later`` of its match."""
    return [_value(hands, leader), *(_value(*_deal(games.create("tricks", seed, rules, hand=h))) for h in later)]


def _deal(game: Any) -> tuple[list[list[int]], int]:
    leader = game.dealer
    return [[tricks_number(b) for b in game.dealt[s]] for s in (leader, 1 - leader)], leader


def _value(hands: list[list[int]], leader: int) -> dict[str, Any]:
    return {"value": solve(hands[0], hands[1]), "leader": leader}
