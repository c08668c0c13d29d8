"""paiju/bots/tricks/analysis.py: the solved values of a match's deals, a small deal's match solved in
one call to the solver's process (a real process)."""

from __future__ import annotations

import asyncio

from paiju import games
from paiju.bots.tricks import analysis


async def test_a_match_of_small_deals_is_solved_in_one_call_with_each_deal_its_value() -> None:
    pool = analysis.pool()
    try:
        values = analysis.Values(pool)
        seed, hands = 11, 20  # a long match: still one call
        first = games.create("tricks", seed)
        got = [await values(first, hands)]
        assert len(values.ready) == hands - 1  # the next hands' values wait for their deals
        for hand in range(1, hands):
            game = games.create("tricks", seed, hand=hand)
            future = values(game, hands)
            assert future.done()  # no second call
            got.append(future.result())
        assert values.ready == {}
        want = [analysis.deal_value(games.create("tricks", seed, hand=h)) for h in range(hands)]
        assert got == want and {v["leader"] for v in got} == {0, 1}

        # a match of one hand, and a deal larger than the solver's table: one call each
        assert await values(games.create("tricks", 5), 1) == analysis.deal_value(games.create("tricks", 5))
        big = games.create("tricks", 5, games.get("tricks").ruleset(n=11), hand=1)
        assert await asyncio.wait_for(values(big, 4), 60) == analysis.deal_value(big)
        assert values.ready == {}
    finally:
        pool.close()
