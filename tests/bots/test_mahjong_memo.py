"""The mahjong robot's memos stay out of the garbage collector's way (bots/memo.py): after
a full collection, nothing they keep is tracked, so the collections that stall a server's
event loop do not walk them (docs/performance.md)."""

from __future__ import annotations

import gc

import pytest

from bots.arena import play
from bots.mahjong import rulebase, stateset, strategies
from bots.memo import Bounded

MEMOS = [rulebase._distance, rulebase._planning, rulebase._pair_distances, stateset._suit_state, strategies._useful]


@pytest.mark.parametrize("ruleset", ["championship", "classic"])
def test_the_robots_memos_hold_nothing_the_collector_tracks(ruleset: str) -> None:
    play("mahjong", ["bdi-hudist", "ukeire", "bdi-hudist", "bdi-rearrange"], 2, 7, ruleset)
    for _ in range(3):  # a pass untracks a tuple whose items are untracked: nested ones take a few
        gc.collect()
    for memo in MEMOS:
        assert isinstance(memo, Bounded)
        assert memo.memo, memo  # the robots used it
        tracked = [k for k, v in memo.memo.items() if gc.is_tracked(k) or gc.is_tracked(v)]
        assert not tracked, (memo, tracked[:3])
        assert not gc.is_tracked(memo.memo), memo


def test_a_full_memo_starts_again_empty() -> None:
    memo = Bounded(lambda x: (x, bytes([x])), 3)
    for x in range(3):
        memo(x)
    assert len(memo.memo) == 3
    assert memo(1) == (1, b"\x01") and len(memo.memo) == 3  # a hit changes nothing
    memo(9)
    assert list(memo.memo) == [(9,)]
