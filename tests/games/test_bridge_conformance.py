"""The conformance kit over 2,000 random bridge boards (random legal calls, cards and claim
answers), plus boards without claims so that more of them are played to the thirteenth trick."""

from __future__ import annotations

import pytest

from paiju.games.testing import check_game
from paiju.protocol import ErrorCode
from paiju.protocol.bridge import Error


@pytest.mark.slow
def test_conformance_2000_random_boards() -> None:
    # views and events are checked for hidden cards after every third action (and at the deal);
    # every legal option and a sample of illegal actions are tried at every ninth
    report = check_game("bridge", "standard", seeds=range(2000), hidden_every=3, sample_every=9)
    assert report.games == 2000
    assert report.steps > 2000 * 30
    assert report.options_tried > 50_000 and report.illegal_refused > 20_000
    for code in (ErrorCode.NOT_YOUR_TURN, Error.WRONG_HAND, Error.REVOKE, Error.INSUFFICIENT_BID, Error.NO_CLAIM):
        assert report.refusal_codes[code] > 0, code


def test_conformance_without_claims() -> None:
    report = check_game("bridge", "no-claims", seeds=range(2000, 2300), hidden_every=2, sample_every=9)
    assert report.games == 300 and report.max_steps_seen >= 52 + 4
