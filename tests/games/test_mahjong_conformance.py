"""The conformance kit over random hands of each ruleset (tile conservation, replay
determinism, hidden information, termination, illegal actions refused). The long form,
2,000 hands a ruleset: ``paiju bench conformance --game mahjong --hands 2000``."""

from __future__ import annotations

import pytest

from paiju.games.testing import check_game

HANDS = 60


@pytest.mark.parametrize("ruleset", ["championship", "classic"])
def test_conformance(ruleset: str) -> None:
    # every 50th step tries every option and a sample of illegal actions; every 20th
    # checks the views and events of all seats and a spectator (the deal always is)
    report = check_game("mahjong", ruleset, seeds=range(HANDS), sample_every=50, hidden_every=20)
    assert report.games == HANDS
    assert report.illegal_refused > 0 and report.options_tried > 0
