"""The bridge robot's hand evaluation and table bidding (design.md §7.2)."""

from __future__ import annotations

import random

import pytest

from paiju.games.bridge import bidding
from paiju.games.bridge.bidding import Hand, TableError, choose, parse_table, promises_of, read_auction
from paiju.games.bridge.deal import parse_hand
from paiju.games.bridge.evaluate import hcp, long_suits, shortness, strength, suit_shortness, trump_bonus
from paiju.protocol.cards import PASS, format_call, parse_call


def h(text: str) -> bytes:
    return parse_hand(text)


def calls(text: str) -> list[int]:
    return [parse_call(t) for t in text.split()]


# ---------------------------------------------------------------------------- evaluation
def test_high_card_points() -> None:
    assert hcp(h("AKQJ.AKQJ.AKQJ.A")) == 34
    assert hcp(h("T98765432.T98.2.")) == 0


@pytest.mark.parametrize(
    ("ranks", "deduction"),
    [
        ([13], -1.0),  # singleton K
        ([12], -1.0),  # singleton Q
        ([11], -1.0),  # singleton J
        ([14], -0.5),  # singleton A
        ([13, 5], -0.5),  # doubleton with an honour
        ([14, 11], -0.5),  # the seed's doubleton AJ: the J costs half a point
        ([14, 5], 0.0),  # doubleton ace: no deduction
        ([10], 0.0),  # singleton ten: no honour
        ([13, 12, 2], 0.0),  # three cards: no deduction
    ],
)
def test_short_honours(ranks: list[int], deduction: float) -> None:
    assert suit_shortness(ranks) == deduction


def test_long_suit_bonus_is_n_over_two_minus_half() -> None:
    assert long_suits(h("2.32.432.AJ98765")) == 3.0  # seven clubs headed by AJ
    assert long_suits(h("32.32.432.AJ9876")) == 2.5  # the seed's AJ-sixth
    assert long_suits(h("32.32.432.A98765")) == 0.0  # one honour: not a good suit
    assert long_suits(h("AK432.QJ432.32.2")) == 4.0  # two good five-card suits


def test_the_seeds_worked_example() -> None:
    # 14 HCP (3 J, 1 K, 2 A); singleton J -1, doubleton K -0.5; AJ-sixth of clubs +2.5;
    # clubs trumps, the hand's strongest suit, +2. (The seed's own hand cannot hold both of its
    # doubletons beside a six-card suit and two singletons in thirteen cards; this one keeps each step.)
    hand = h("J.K2.AJ32.AJ5432")
    assert (hcp(hand), shortness(hand), long_suits(hand)) == (14, -1.5, 2.5)
    assert strength(hand) == 15.0
    assert trump_bonus(hand, 0) == 2.0 and strength(hand, trump=0) == 17.0
    assert trump_bonus(hand, 1) == 1.0  # diamonds: the second strongest suit
    assert trump_bonus(hand, 3) == 0.0 and trump_bonus(hand, None) == 0.0


# ---------------------------------------------------------------------------- the tables
@pytest.mark.parametrize(
    ("hand", "auction", "call"),
    [
        # openings, among them the seed's two rows
        ("AQ32.KJ32.5.K432", "", "2D"),  # 13, 4-4-1-4 short in diamonds
        ("AQ32.KJ32..K5432", "", "2D"),  # 4-4-0-5
        ("432.K32.432.AKQ2", "P", "1C"),  # 12 HCP, 4-3-3-3, three club honours (the seed's 1C row)
        ("AKQ2.AK2.K32.Q32", "", "1C"),  # 21: strong club
        ("KQ2.K32.A432.Q32", "", "1NT"),  # 14 balanced
        ("AQJ32.K32.32.K32", "", "1S"),  # five spades
        ("32.AKJ32.K32.Q32", "", "1H"),
        ("32.A2.Q32.KQJ432", "", "2C"),  # six clubs
        ("A32.32.KQ32.K432", "", "1D"),
        ("KQJ932.32.32.432", "", "2S"),  # weak two
        ("32.2.KQJ9432.432", "", "3D"),  # pre-empt
        ("32.32.Q5432.K432", "", "P"),
        # responses
        ("K32.Q2.5432.J432", "1C P", "1D"),  # negative
        ("KQ432.Q2.A32.432", "1C P", "1S"),  # positive
        ("K32.KQ32.32.J432", "1NT P", "2C"),  # Stayman
        ("32.KJ432.32.5432", "1NT P", "2D"),  # transfer to hearts
        ("KQ432.32.32.5432", "1NT P", "2H"),  # transfer to spades
        ("K32.Q32.KJ32.Q32", "1NT P", "3NT"),
        ("K32.Q32.KJ32.Q32", "1S P", "3S"),  # limit raise with three
        ("K32.Q32.K32.5432", "1S P", "2S"),
        ("2.Q32.K432.J5432", "1S P", "1NT"),
        # rebids
        ("KQ2.K32.A432.Q32", "1NT P 2C P", "2D"),
        ("KQ32.K32.A42.Q32", "1NT P 2C P", "2S"),
        ("KQ2.K32.A432.Q32", "1NT P 2D P", "2H"),  # completes the transfer
        ("AKJ32.K32.32.Q32", "1S P 3S P", "4S"),  # accepts the invitation
        ("K432.Q32.J32.432", "1C P 1D P 1NT P", "2C"),  # Stayman opposite the 16-18 rebid
        ("AQ2.KJ32.AQ2.K32", "1C P 1D P 1NT P 2C P", "2H"),
        ("K432.QJ32.32.432", "1C P 1D P 1NT P 2C P 2H P", "3H"),  # invitation in the fit
        ("AQ2.KJ32.AQ2.K32", "1C P 1D P 1NT P 2C P 2H P 3H P", "4H"),  # 17: accepts
        ("AQ52.KJ32.AQ.K32", "1C P 1D P 1NT P 2C P 2H P 2NT P", "4S"),  # the spade fit
        ("KJ432.Q432.32.32", "1D P 1S P 2C P", "2H"),  # four hearts beside five spades
        ("2.AK32.KJ32.QJ32", "1D P 1S P 2C P 2H P", "4H"),  # 15: game in the heart fit
        ("2.K932.KJ32.QJ32", "1D P 1S P 2C P 2H P", "3H"),  # 11: invitation
        ("AKJ32.KQ2.32.Q32", "1S P 3S P", "4H"),  # 29 together: a control bid, slam interest
        # competition
        ("32.AKJ32.K32.432", "1S", "2H"),  # two-level overcall
        ("2.KJ32.AQ32.K432", "1S", "X"),  # take-out double
        ("2.KQJ32.A32.5432", "1C", "1H"),  # one-level overcall
        ("AKJ32.AQ2.32.AK2", "1C 1D P 2D", "2S"),  # the strong club acts over their raise
        ("AQ2.KQ2.KJ2.AJ32", "1C 1D P 2D", "2NT"),  # 19, balanced, a diamond stopper
        ("J32.K432.32.5432", "1C 1D P 2D X P", "2H"),  # answers the strong double
    ],
)
def test_rows_on_constructed_hands(hand: str, auction: str, call: str) -> None:
    got, row = choose(h(hand), calls(auction), dealer=0)
    assert format_call(got) == call, row


def test_the_seeds_two_diamond_row_reads_back() -> None:
    [p] = promises_of(calls("2D"), 0, 0)
    s = p.summary()
    assert (s.lo, s.hi) == (11, 15)
    assert s.len_lo[3] == 4 and s.len_lo[2] == 4 and s.len_hi[1] == 1 and s.len_lo[0] == 4
    assert p.holds(Hand.of(h("AQ32.KJ32.5.K432")))
    assert not p.holds(Hand.of(h("AQ32.KJ32.53.K32")))  # two diamonds
    assert not p.holds(Hand.of(h("A432.J432.5.5432")))  # 6 points


def test_the_seeds_club_row_reads_back() -> None:
    [p] = promises_of(calls("1C"), 0, 0)
    assert p.summary().lo == 12  # the seed's 12-15 row or the strong 16+
    assert p.holds(Hand.of(h("432.K32.432.AKQ2")))
    assert p.holds(Hand.of(h("AKQ2.AK2.K32.Q32")))
    assert not p.holds(Hand.of(h("432.K32.A32.KQ32")))  # 12-15 but two club honours only


def test_partner_promises_feed_the_later_calls() -> None:
    # 1NT (13-15) - 2H transfer - 2S: responder with six spades and 11 points bids game
    got, _ = choose(h("KQ5432.K2.A2.432"), calls("1NT P 2H P 2S P"), dealer=0)
    assert format_call(got) == "4S"
    summaries = bidding.summaries_before(tuple(calls("1NT P")))
    assert (summaries[2].lo, summaries[2].hi) == (13, 15)  # partner, seen from the next bidder


def test_every_call_of_self_play_holds_its_promise() -> None:
    """The inference from a call back to its promise: the hand that made each call satisfies
    what the tables read back from it, over many random auctions."""
    rng = random.Random(3)
    deck = [s << 4 | r for s in range(4) for r in range(2, 15)]
    checked = 0
    for _ in range(60):
        rng.shuffle(deck)
        hands = [sorted(deck[13 * i : 13 * i + 13]) for i in range(4)]
        dealer = rng.randrange(4)
        auction: list[int] = []
        while not (len(auction) >= 4 and auction[-3:] == [PASS] * 3 and (len(auction) == 4 or any(auction))):
            seat = (dealer + len(auction)) % 4
            auction.append(choose(hands[seat], auction, dealer)[0])
            assert len(auction) < 60
        for p in read_auction(tuple(auction), dealer):
            assert p.holds(Hand.of(hands[p.seat])), (auction, p.index, p.rows)
            checked += 1
    assert checked > 250


def test_a_bad_row_is_named() -> None:
    with pytest.raises(TableError, match=r"t.txt:2: unknown condition 'S5\*'"):
        parse_table("t", "# comment\n- | 1S | 11-15 | S5* | bad\n")
    with pytest.raises(TableError, match="five columns"):
        parse_table("t", "- | 1S | 11-15\n")
    assert len(bidding.system()) > 200


def test_a_half_point_stays_with_the_whole_point_below_it() -> None:
    # 16 HCP less half a point for the doubleton queen: 15.5, between "11-15" and "16+";
    # it fell between the rows and passed, now it is a 13-15 balanced hand
    hand = h("A93.AKT4.QJ74.Q7")
    assert Hand.of(hand).points == 15.5
    assert format_call(choose(hand, [], 0)[0]) == "1NT"


def test_no_hand_of_eleven_points_or_more_passes_as_dealer() -> None:
    rng = random.Random(5)
    deck = [s << 4 | r for s in range(4) for r in range(2, 15)]
    opened = 0
    for _ in range(4000):
        rng.shuffle(deck)
        hand = sorted(deck[:13])
        if Hand.of(hand).points >= 11:
            assert choose(hand, [], 0)[0] != PASS, hand
            opened += 1
    assert opened > 1500


def test_the_baseline_tables_are_frozen() -> None:
    # `hybrid-v1` is the yardstick of `hybrid`: its tables must not move as the system grows
    import hashlib
    from importlib import resources

    folder = resources.files("paiju.games.bridge") / "tables" / "v1"
    names = [name for name in bidding.TABLES if name not in ("slam", "controls")]  # v1 has neither
    text = "".join((folder / f"{name}.txt").read_text(encoding="utf-8") for name in names)
    assert hashlib.sha256(text.encode()).hexdigest()[:16] == "59aa85c6df8e7db1"
    assert len(bidding.system(bidding.FROZEN_V1)) > 200


def test_a_pass_in_any_seat_before_an_opening_denies_one() -> None:
    [p] = promises_of(calls("P"), 0, 0)
    assert (p.summary().lo, p.summary().hi) == (0, 10)
    assert not p.holds(Hand.of(h("AQ32.KJ32.5.K432")))  # 13 points: would have opened
