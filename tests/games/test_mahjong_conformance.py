"""The conformance kit over 2,000 random hands of each ruleset (tile conservation, replay
determinism, hidden information, termination, illegal actions refused)."""

from __future__ import annotations

import pytest

from paiju.games.testing import check_game

CHUNKS = 4
GAMES = 2000


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("ruleset", ["championship", "classic"])
def test_conformance(ruleset: str, chunk: int) -> None:
    size = GAMES // CHUNKS
    seeds = range(chunk * size, (chunk + 1) * size)
    # every 50th step tries every option and a sample of illegal actions; every 20th
    # checks the views and events of all seats and a spectator (the deal always is)
    report = check_game("mahjong", ruleset, seeds=seeds, sample_every=50, hidden_every=20)
    assert report.games == size
    assert report.illegal_refused > 0 and report.options_tried > 0
