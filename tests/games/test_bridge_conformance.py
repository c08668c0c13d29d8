"""The conformance kit over 40 random bridge boards (random legal calls, cards and claim
answers: every kind of refusal comes up in them), plus boards without claims, played to the
thirteenth trick. The long form, 2,000 boards a ruleset: ``paiju bench conformance --game
bridge --hands 2000``."""

from __future__ import annotations

from paiju.games.testing import check_game
from paiju.protocol import ErrorCode
from paiju.protocol.bridge import Error

BOARDS = 40


def test_conformance_random_boards() -> None:
    # views and events are checked for hidden cards after every third action (and at the deal);
    # every legal option and a sample of illegal actions are tried at every ninth
    report = check_game("bridge", "standard", seeds=range(BOARDS), hidden_every=3, sample_every=9)
    assert report.games == BOARDS
    assert report.steps > BOARDS * 30
    assert report.options_tried > BOARDS * 25 and report.illegal_refused > BOARDS * 10
    # the rarest, an insufficient bid, is refused twice over these boards (a bid below the
    # last one is seldom among the sampled illegal actions): the seeds are fixed, it is always seen
    for code in (ErrorCode.NOT_YOUR_TURN, Error.WRONG_HAND, Error.REVOKE, Error.INSUFFICIENT_BID, Error.NO_CLAIM):
        assert report.refusal_codes[code] > 0, code


def test_conformance_without_claims() -> None:
    report = check_game("bridge", "no-claims", seeds=range(2000, 2020), hidden_every=2, sample_every=9)
    assert report.games == 20 and report.max_steps_seen >= 52 + 4
