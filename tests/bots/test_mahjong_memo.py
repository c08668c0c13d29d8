"""The mahjong robot's memos stay out of the garbage collector's way and within their
sizes (paiju/bots/memo.py): after full collections nothing they keep is tracked, so the
collections that stall a server's event loop do not walk it (docs/performance.md)."""

from __future__ import annotations

import gc

import pytest

from paiju.bots import memo
from paiju.bots.arena import play
from paiju.bots.mahjong import rulebase, stateset, strategies

MEMOS = [rulebase._distance, rulebase._planning, rulebase._pair_distances, stateset._suit_state, strategies._useful]


@pytest.mark.parametrize("ruleset", ["championship", "classic"])
def test_the_robots_memos_hold_nothing_the_collector_tracks(ruleset: str) -> None:
    for m in MEMOS:  # from empty: a memo that earlier tests filled past its size may be trimmed meanwhile
        m.cache_clear()
    play("mahjong", ["bdi-hudist", "ukeire", "bdi-hudist", "bdi-rearrange"], 2, 7, ruleset)
    for _ in range(3):  # a pass untracks a tuple whose items are untracked: nested ones take a few
        gc.collect()
    # the planning distance is seven pairs' (rulebase.Rules.distance): classic has none
    used = [m for m in MEMOS if ruleset != "classic" or m is not rulebase._planning]
    for m in used:
        assert m.cache_info().currsize, m  # the robots used it
        (table,) = [d for d in gc.get_referents(m) if isinstance(d, dict) and "__wrapped__" not in d]  # its memo
        assert len(table) == m.cache_info().currsize
        tracked = [k for k, v in table.items() if gc.is_tracked(k) or gc.is_tracked(v)]
        assert not tracked, (m, tracked[:3])


def test_trim_empties_only_the_memos_past_their_size() -> None:
    @memo.bounded(3)
    def small(x: int) -> tuple[int, bytes]:
        return x, bytes([x])

    @memo.bounded(100)
    def large(x: int) -> int:
        return x

    for x in range(4):
        small(x), large(x)
    for _ in range(memo.TRIM_EVERY):  # it looks once in so many calls
        memo.trim()
    assert small.cache_info().currsize == 0
    assert large.cache_info().currsize == 4
    assert small(1) == (1, b"\x01")
