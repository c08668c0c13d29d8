"""Defenders' signals: given by `hybrid`'s defenders, read by the samplers as weights."""

from __future__ import annotations

import random

import pytest

from paiju.bots.bridge import signals
from paiju.bots.bridge.montecarlo import sample_deals
from paiju.bots.bridge.table import Known
from paiju.games import GameAction
from paiju.games.bridge import Bridge, BridgeRules
from paiju.protocol.bridge import ActCode

# South plays 3NT; West leads the club ace; East holds Q94 of clubs
DEAL = "N:AKQ2.KQ32.KQ2.32 J54.J54.J543.Q94 T987.T98.T98.876 63.A76.A76.AKJT5"
CLUB_ACE, CLUB_TWO, CLUB_SIX = 0x0E, 0x02, 0x06
CLUB_NINE, CLUB_FOUR = 0x09, 0x04


def board(*cards: int) -> Bridge:
    game = Bridge(0, BridgeRules("x", deals=("1 S None " + DEAL,)))
    for call in ("3NT", "P", "P", "P"):
        game.call(game.to_act()[0], call)
    for card in cards:
        game.apply(game.to_act()[0], GameAction(ActCode.PLAY, bytes([card])))
    return game


def test_east_encourages_with_an_honour() -> None:
    game = board(CLUB_ACE, CLUB_TWO)  # West leads, dummy plays low: East to play
    k = Known.of(game.view(1), 1)
    assert signals.signal_card(k, [CLUB_NINE, CLUB_FOUR]) == CLUB_NINE  # holds the queen: high
    assert signals.rule_signal(k, CLUB_FOUR) == CLUB_NINE  # the rules' low card made a signal
    k.hands[1] = [c for c in k.hands[1] if c != 0x0C] + [0x03]  # without the queen: low
    assert signals.signal_card(k, [CLUB_NINE, CLUB_FOUR]) == CLUB_FOUR


def test_count_on_declarers_lead() -> None:
    # West switches to a spade, dummy wins and leads the diamond king: East to play
    game = board(CLUB_ACE, CLUB_TWO, CLUB_NINE, CLUB_SIX, 0x36, 0x3E, 0x34, 0x37, 0x1D)
    k = Known.of(game.view(1), 1)
    # East holds J543 of diamonds: four, an even number: high
    assert signals.signal_card(k, [0x13, 0x14]) == 0x14


def honour_share(k: Known) -> tuple[float, float]:
    """Among sampled deals: the share in which East holds a club honour, plain and weighted."""
    deals = sample_deals(k, 300, random.Random(7)).deals
    plain = weighted = total = 0.0
    for d in deals:
        honour = signals.holds_honour(k.original(1, d[1]), 0)
        w = signals.weigh(k, d)
        plain += honour
        weighted += w * honour
        total += w
    return plain / len(deals), weighted / total


def test_a_signal_moves_the_weight_of_the_deals_that_agree_with_it(monkeypatch: pytest.MonkeyPatch) -> None:
    # East's nine on partner's ace: encouraging; declarer's sampler weighs the deals where
    # East holds the king or the queen of clubs more (the lead's own reading set aside)
    monkeypatch.setattr(signals, "LEAD_AGREE", 1.0)
    k = Known.of(board(CLUB_ACE, CLUB_TWO, CLUB_NINE, CLUB_SIX).view(2), 2)
    assert signals.signals_given(k) == [(1, 0, CLUB_NINE, "attitude")]
    plain, weighted = honour_share(k)
    assert weighted > plain + 0.1
    # East's four: discouraging; the same deals now weigh less
    k = Known.of(board(CLUB_ACE, CLUB_TWO, CLUB_FOUR, CLUB_SIX).view(2), 2)
    k.without = [set(), set(), set(), set()]  # a signaller's low card says nothing of lower ones
    plain, weighted = honour_share(k)
    assert weighted < plain - 0.1


def test_a_high_spot_card_is_not_read_as_the_lowest() -> None:
    # East's nine on partner's ace: a signal; East may hold lower clubs. East's four: it holds no
    # lower club (the two and three are seen or played)
    k = Known.of(board(CLUB_ACE, CLUB_TWO, CLUB_NINE, CLUB_SIX).view(2), 2)
    assert 0x05 in k.without[1]  # Known reads every non-winning follow as the lowest
    signals.low_readings_only(k)
    assert k.without[1] == set()
    k = Known.of(board(CLUB_ACE, CLUB_TWO, CLUB_FOUR, CLUB_SIX).view(2), 2)
    signals.low_readings_only(k)
    assert k.without[1] == {0x02, 0x03}


def test_the_opening_lead_moves_the_weight_of_the_deals_that_agree_with_it() -> None:
    # West leads the club ace against 3NT: from the ace-king (top of touching honours) or a
    # short suit; declarer's sampler weighs the deals in which West holds the king more
    k = Known.of(board(CLUB_ACE).view(2), 2)
    deals = sample_deals(k, 300, random.Random(7)).deals
    plain = weighted = total = 0.0
    for d in deals:
        king = 0x0D in d[3]
        assert signals.lead_agrees(k, d) == (king or sum(c >> 4 == 0 for c in d[3]) <= 1)
        w = signals.weigh(k, d)
        plain += king
        weighted += w * king
        total += w
    assert weighted / total > plain / len(deals) + 0.1
