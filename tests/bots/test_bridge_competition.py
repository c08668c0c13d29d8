"""The bridge system's competitive rows on hand-picked hands: advancing an overcall or a
take-out double, the doubler's rebid, the notrump opener after partner's double."""

from __future__ import annotations

from paiju.games.bridge.bidding import choose
from paiju.games.bridge.deal import parse_hand
from paiju.protocol.cards import format_call, parse_call


def bid(hand: str, auction: str) -> str:
    return format_call(choose(parse_hand(hand), [parse_call(t) for t in auction.split()], 0)[0])


def test_advancing_an_overcall_with_values_or_a_suit_of_ones_own() -> None:
    # 1D 1S P: eight points and five hearts, no spade support, no diamond stopper: natural 2H
    assert bid("J4.KQ853.T42.Q82", "1D 1S P") == "2H"
    assert bid("J4.K853.T42.Q832", "1D 1S P") == "P"  # four hearts, weak
    # 1H 2C P: eleven points and four clubs, no heart stopper: a raise with values, not a pass
    assert bid("JT5.743.AK3.KT75", "1H 2C P") == "3C"
    assert bid("JT5.743.KJ3.KT75", "1H 2C P") == "3C"  # 8: the plain raise (7-10)
    assert bid("JT5.743.AK3.K975", "1S 1H P") == "3H"  # 1x 1y P: twelve with three of partner's suit


def test_the_balancing_doublers_rebid() -> None:
    assert bid("KQ2.AQ32.32.AQ43", "1D P P X P 1H P") == "3H"  # 17: invitational raise
    assert bid("KQ2.AQ32.3.AK432", "1D P P X P 1H P") == "4H"  # 20: game
    assert bid("K72.Q832.32.AQ43", "1D P P X P 1H P") == "P"  # 11: a plain balancing double
    assert bid("AQ2.KQ32.QJ3.A32", "1D P P X P 2C P") == "3NT"  # 18, the diamonds stopped


def test_take_out_double_of_a_raised_suit_and_its_advance() -> None:
    assert bid("AQJ5.4.QJT8.AQ32", "2H P 3H") == "X"  # 16, short in their hearts
    assert bid("AQJ5.42.QJT8.AQ3", "2H P 3H") == "P"  # a doubleton heart: no take-out double at three
    assert bid("AQ52.4.KJ82.Q932", "1H P 2H") == "X"  # 12, every other suit three or more
    assert bid("K642.J32.Q5.K932", "1H P 2H X P") == "2S"  # 9: the major first
    assert bid("T642.J32.Q5.K932", "1H P 2H X P") == "3C"  # 6: the cheapest of its best four-card suits


def test_a_take_out_double_of_a_natural_two_clubs_is_advanced() -> None:
    # 2C (six clubs) X P: the advancer bids, it does not pass for penalty with four small clubs
    assert bid("T632.A964.632.K7", "2C X P") == "2H"  # the major first with 8 (hearts by their honours)
    assert bid("T632.9642.632.K7", "2C X P") == "2S"  # weak: its best four-card suit, the higher of equals
    assert bid("632.964.63.KQJ72", "2C X P") == "P"  # five clubs with three honours: penalty


def test_the_notrump_opener_after_partners_double_of_an_overcall() -> None:
    assert bid("QT.KT5.AJT74.A63", "1NT 2S X P") == "3D"  # no spade stopper, five diamonds
    assert bid("Q72.743.AK.KJT86", "1NT 2S X P") == "2NT"  # Qxx: a stopper
    assert bid("QT72.K43.AK.J986", "1NT 2S X P") == "P"  # four spades: converts to penalty
    assert bid("T2.KQ43.AK5.J986", "1NT 2S X P") == "3H"  # a four-card major


def test_the_reopening_double_is_left_in_with_five_of_their_suit() -> None:
    assert bid("QT74.KJ75.T52.T7", "1C 1H P P X P") == "1NT"  # four hearts: 1NT with the stopper
    assert bid("QT7.KJ975.T52.T7", "1C 1H P P X P") == "P"  # five with two honours: penalty
