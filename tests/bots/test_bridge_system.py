"""The bridge system's later rows: positive answers to 1C, quantitative notrump, the key-card
ask, and on many random auctions: every promise kept, no forcing call passed."""

from __future__ import annotations

import functools
import random

from paiju.games.bridge.bidding import Hand, choose, explain, is_cue, key_cards, read_auction
from paiju.games.bridge.deal import parse_hand
from paiju.protocol.cards import PASS, format_call, parse_call

AUCTIONS = 600  # random deals bid by the tables: some 550 forcing calls, 5,700 promises


def bid(hand: str, auction: str) -> str:
    return format_call(choose(parse_hand(hand), [parse_call(t) for t in auction.split()], 0)[0])


def test_an_eight_count_answers_the_strong_club_positively() -> None:
    # 8 high-card points (7.5 by the evaluation, the doubleton queen counting less): positive
    assert bid("Q8532.T42.Q4.AT8", "1C P") == "1S"
    assert bid("Q853.T42.Q4.AT82", "1C P") == "1NT"  # no five-card suit
    assert bid("Q853.T42.J4.QT82", "1C P") == "1D"  # 5 high-card points: negative
    assert bid("AQ53.K42.KJ4.QT8", "1C P") == "2NT"  # 16 balanced


def test_the_strong_club_continuations() -> None:
    assert bid("AK2.KQ2.AQ32.K32", "1C P 1D P") == "2NT"  # 21 balanced
    assert bid("AK2.Q32.A432.K32", "1C P 1D P") == "1NT"  # 16 balanced
    assert bid("K32.Q32.J432.432", "1C P 1D P 1NT P") == "2NT"  # 6: invitation
    assert bid("AK2.KQ2.AQ32.Q32", "1C P 1D P 1NT P 2NT P") == "3NT"  # maximum: accepts
    assert bid("K32.J32.5432.432", "1C P 1D P 2NT P") == "3NT"  # 4 opposite 19-21


def test_stayman_over_the_positive_1nt_answer_to_the_strong_club() -> None:
    opener = "AKQ3.K42.KJ4.QT8"  # 18, four spades
    assert bid(opener, "1C P 1NT P") == "2C"  # asks for a four-card major
    assert bid("AK2.K2.A2.QJ8432", "1C P 1NT P") == "3C"  # five clubs: natural at three
    assert bid("KJ42.Q53.A42.K53", "1C P 1NT P 2C P") == "2S"  # four spades
    assert bid("KQ2.Q53.A42.K532", "1C P 1NT P 2C P") == "2D"  # no four-card major
    assert bid(opener, "1C P 1NT P 2C P 2S P") == "4S"  # the fit: game
    assert bid(opener, "1C P 1NT P 2C P 2D P") == "3NT"  # no fit
    assert bid(opener, "1C P 1NT P 2C P 2H P") == "2S"  # four spades, not four hearts: forcing
    assert bid("KJ42.QJ53.A4.K53", "1C P 1NT P 2C P 2H P 2S P") == "4S"
    assert bid("Q32.KJ53.A4.K532", "1C P 1NT P 2C P 2H P 2S P") == "3NT"


def test_game_in_a_major_fit_counts_the_short_suits_opposite_a_limited_hand() -> None:
    # 1C - 1D (0-7) - 1S - 3S (5-7, three spades): 17 with a singleton and five spades bids game
    assert bid("AKT62.Q873.A.A63", "1C P 1D P 1S P 3S P") == "4S"
    # accepting an invitation: 12 with a singleton opposite 11-12 (the plain row asks for 13)
    assert bid("AQ32.2.K9854.K32", "1D P 1S P 2S P 3S P") == "4S"
    assert bid("AQ32.32.K985.K32", "1D P 1S P 2S P 3S P") == "P"  # no short suit: declines
    assert bid("QT62.Q98743..K65", "1S P 2S P 3S P") == "4S"  # 7 and a void accepts the game try
    assert bid("QT62.Q98743.9.K65", "1S P 2S P 3S P") == "P"


def test_the_notrump_invitations_accepted_with_the_top_of_the_range() -> None:
    # after Stayman, 2NT or three of the major invites: the 1NT opener accepts with 14-15
    assert bid("KQ32.AJ32.KJ2.32", "1NT P 2C P 2H P 2NT P") == "4S"  # 14 and four spades
    assert bid("KQ32.AJ32.QJ2.32", "1NT P 2C P 2H P 2NT P") == "3S"  # 13: declines in the fit
    assert bid("K32.AJ2.KJ32.Q32", "1NT P 2C P 2D P 2NT P") == "3NT"
    assert bid("K32.AJ2.QJ32.Q32", "1NT P 2C P 2D P 2NT P") == "P"
    assert bid("K32.AJ32.KJ2.Q32", "1NT P 2C P 2H P 3H P") == "4H"
    assert bid("K32.AJ32.QJ2.Q32", "1NT P 2C P 2H P 3H P") == "P"
    # 1D - 2NT (11-12): 13 accepts
    assert bid("A.KJ32.KJ32.Q432", "1D P 2NT P") == "3NT"
    assert bid("A.KJ32.QJ32.Q432", "1D P 2NT P") == "P"


def test_a_five_card_major_opposite_the_strong_clubs_notrump_rebid() -> None:
    # 1C - 1D (0-7) - 1NT (16-18) or 2NT (19-21): a five-card major at three, forcing
    assert bid("KQJ52.432.32.432", "1C P 1D P 1NT P") == "3S"  # 8 counting the long suit
    assert bid("QJ852.432.32.432", "1C P 1D P 2NT P") == "3S"
    assert bid("AK3.KQ2.A432.Q32", "1C P 1D P 1NT P 3S P") == "4S"  # three spades: the fit
    assert bid("AK.KQ2.A432.Q432", "1C P 1D P 1NT P 3S P") == "3NT"
    assert bid("AK3.KQ2.AJ32.K32", "1C P 1D P 2NT P 3S P") == "4S"
    assert bid("AK.KQ2.AJ32.QJ32", "1C P 1D P 2NT P 3S P") == "3NT"


def test_quantitative_notrump() -> None:
    assert bid("KQ2.AQ2.K432.K32", "1NT P") == "4NT"  # 17 balanced opposite 13-15
    assert bid("AQ2.AQ2.A432.K32", "1NT P") == "6NT"  # 19
    assert bid("KQ2.KJ2.A432.K32", "1NT P 4NT P") == "6NT"  # 15: the top of 13-15
    assert bid("Q32.KJ2.A432.K32", "1NT P 4NT P") == "P"  # 13: declines
    # 1C - 2NT (14+ balanced) - 4NT (quantitative, read as 15-16): 17 makes 32 together, accepts
    assert bid("Q983.Q63.AQ4.AK5", "1C P 2NT P 4NT P") == "6NT"
    assert bid("Q983.Q63.KQ4.KQ5", "1C P 2NT P 4NT P") == "P"  # 15: declines


def test_key_card_ask_answers_and_decision() -> None:
    # 1C (16+) - 1S (positive) - 3S (spades agreed): the responder with slam values asks
    asker = "AKQ32.KQ32.K32.2"  # two key cards (the spade ace and king), the queen, every side suit controlled
    assert bid(asker, "1C P 1S P 3S P") == "4NT"
    # the answers (1430), spades agreed: the four aces and the spade king
    assert bid("J54.KQ2.AQ3.KQ43", "1C P 1S P 3S P 4NT P") == "5C"  # one
    assert bid("K54.AK2.AQ3.K432", "1C P 1S P 3S P 4NT P") == "5D"  # three
    assert bid("J54.AK2.AQ3.K432", "1C P 1S P 3S P 4NT P") == "5H"  # two, no trump queen
    assert bid("Q54.AK2.AQ3.K432", "1C P 1S P 3S P 4NT P") == "5S"  # two and the queen
    # the asker: two missing -> signs off in five; one missing -> six; none, the queen, 36+ -> seven
    assert bid(asker, "1C P 1S P 3S P 4NT P 5C P") == "5S"
    assert bid(asker, "1C P 1S P 3S P 4NT P 5H P") == "6S"
    assert bid(asker, "1C P 1S P 3S P 4NT P 5D P") == "7S"
    # the answerer passes the sign-off and the slam
    assert bid("J54.KQ2.AQ3.KQ43", "1C P 1S P 3S P 4NT P 5C P 5S P") == "P"
    assert bid("J54.AK2.AQ3.K432", "1C P 1S P 3S P 4NT P 5H P 6S P") == "P"


def test_grand_slam_with_every_key_card_and_partners_trump_queen() -> None:
    asker = "AK432.KQ32.A32.2"  # three key cards, not the queen
    assert bid(asker, "1C P 1S P 3S P") == "4NT"
    assert bid(asker, "1C P 1S P 3S P 4NT P 5S P") == "7S"  # two and the queen: none missing
    assert bid(asker, "1C P 1S P 3S P 4NT P 5H P") == "6S"  # two, no queen
    assert bid(asker, "1C P 1S P 3S P 4NT P 5D P") == "5S"  # none (three would make six)
    assert bid("QJ4.AK2.AQ3.K432", "1C P 1S P 3S P 4NT P 5S P 7S P") == "P"


def test_small_slam_in_a_fit_counts_the_short_suits_above_the_ask() -> None:
    # 1C - 2D (positive, five diamonds) - ... - 5D: too high to ask; 19 and a singleton club
    # with five diamonds make 33 together counting it: six
    assert bid("AK743.KQ.AQJ93.3", "1C P 2D P 2S P 3NT P 4D P 5D P") == "6D"


def test_key_cards_are_the_aces_and_the_trump_king() -> None:
    hand = Hand.of(parse_hand("AK2.K32.A32.5432"))
    assert key_cards(hand, 3) == 3 and key_cards(hand, 2) == 3 and key_cards(hand, 1) == 2


@functools.cache
def random_auctions() -> list[tuple[list[list[int]], int, tuple[int, ...], list[bool]]]:
    """``AUCTIONS`` deals bid by the tables in all four seats: hands, dealer, calls, forcing flags."""
    rng = random.Random(36)
    deck = [s << 4 | r for s in range(4) for r in range(2, 15)]
    out = []
    for _ in range(AUCTIONS):
        rng.shuffle(deck)
        hands = [sorted(deck[13 * i : 13 * i + 13]) for i in range(4)]
        dealer = rng.randrange(4)
        auction: list[int] = []
        forcing: list[bool] = []
        while not (len(auction) >= 4 and auction[-3:] == [PASS] * 3):
            call, row = choose(hands[(dealer + len(auction)) % 4], auction, dealer)
            auction.append(call)
            forcing.append(row is not None and row.forcing)
            assert len(auction) < 60
        out.append((hands, dealer, tuple(auction), forcing))
    return out


def test_a_forcing_call_is_never_passed() -> None:
    seen = 0
    for _, _, auction, forcing in random_auctions():
        for i, f in enumerate(forcing):
            if f and i + 2 < len(auction) and auction[i + 1] == PASS:
                assert auction[i + 2] != PASS, [format_call(c) for c in auction[: i + 3]]
                seen += 1
    assert seen > 450


def test_every_call_keeps_the_promise_read_back_on_many_auctions() -> None:
    checked = 0
    for hands, dealer, auction, _ in random_auctions():
        for p in read_auction(auction, dealer):
            assert p.holds(Hand.of(hands[p.seat])), ([format_call(c) for c in auction], p.index, p.rows)
            checked += 1
    assert checked > 4_500


def test_free_advance_and_the_doublers_strong_rebid() -> None:
    # 1D X 1S: advancer with 8 points and five hearts bids them (it passed before)
    assert bid("J4.KQ853.T42.Q82", "1D X 1S") == "2H"
    assert bid("J4.K853.T42.Q832", "1D X 1S") == "P"  # four hearts, weak: pass
    # the doubler with 18 does not pass partner's silence out: balanced with stoppers 1NT
    assert bid("AQ2.KQ32.QJ3.A32", "1D X 1S P P") == "1NT"  # 18
    assert bid("A2.AKQ32.KJ3.A32", "1D X 1S P P") == "2H"  # 21, five hearts: natural
    # partner advanced 1H: the doubler raises by strength
    assert bid("KQ2.AQ32.32.AQ43", "1D X P 1H P") == "3H"  # 17
    assert bid("KQ2.AQ32.3.AK432", "1D X P 1H P") == "4H"  # 20


def test_competition_strong_doubles_and_the_opener_after_a_double() -> None:
    assert bid("AQ32.KQ2.AK3.Q32", "2S") == "X"  # 20 with four of their spades: doubles anyway
    # partner's negative double is not passed: opener shows the other major, or rebids
    assert bid("A.KQ32.AJ432.432", "1D 1S X P") == "2H"
    assert bid("A2.KQ32.AJ32.432", "1D 1S X P") == "1NT"  # balanced, the spade ace
    assert bid("A2.K32.AQJ432.32", "1D 1S X P") == "2D"
    # 1D X 1S: opener raises partner's free 1S with four
    assert bid("KJ32.A2.AQ32.432", "1D X 1S P") == "3S"  # 14: invitational
    assert bid("KJ32.A2.KQ32.432", "1D X 1S P") == "2S"  # 13


def test_every_call_is_explained_from_its_rows() -> None:
    def explained(auction: str) -> str:
        return explain(read_auction(tuple(parse_call(t) for t in auction.split()))[-1])

    assert explained("1NT").startswith("balanced, no five-card major; 13-15 points")
    assert explained("1C P 1D") == "negative, artificial: 0-7 high-card points, forcing; 0-9 points"
    assert explained("1C P 1S").startswith("positive, five or more, game forcing; ")
    assert "5+ spades" in explained("1C P 1S")
    assert explained("1NT P 2C").endswith("forcing; 9+ points")
    assert explained("1S P 3S P 4NT P 5C") == "ask answered: one or four key cards"


def test_a_promise_stops_at_the_rows_written_for_the_auction() -> None:
    # 1D P 1S: the responses take every hand, so the placement table's rows (no length) are
    # not read back: partner counts on four spades
    p = read_auction((parse_call("1D"), PASS, parse_call("1S")))[2]
    assert [r.where for r, _ in p.rows] == ["responses.txt:35"]
    assert p.summary().len_lo[3] == 4


def test_slam_try_key_card_ask_and_slam_in_a_fit_found_late() -> None:
    # 1H - 2C - 2S: responder (four hearts, a singleton) has slam values once the fit counts
    responder, opener = "J5.A652.9.AKQJ95", "A982.KT974.AKJ.7"
    assert bid(responder, "1H P 2C P 2S P") == "3H"  # agrees hearts below game, forcing
    assert bid(opener, "1H P 2C P 2S P 3H P") == "4H"  # minimum as shown: game
    assert bid(responder, "1H P 2C P 2S P 3H P 4H P") == "4NT"  # the ask
    assert bid(opener, "1H P 2C P 2S P 3H P 4H P 4NT P") == "5D"  # three key cards
    assert bid(responder, "1H P 2C P 2S P 3H P 4H P 4NT P 5D P") == "6H"


def test_key_card_ask_in_a_minor_and_the_sign_off_below_slam() -> None:
    # 1C - 2C - 3C (19+ high-card points, three clubs): responder asks
    assert bid("AK4.3.KQ5.AQJ762", "1C P 2C P") == "3C"
    assert bid("KQ4.32.A5.KQJ862", "1C P 2C P 3C P") == "4NT"
    # two key cards missing: five of the suit when it is above the answer, else 5NT, or pass
    # an answer in the suit itself
    assert bid("KQ4.32.Q5.KQJ862", "1C P 2C P 3C P 4NT P 5H P") == "5NT"  # one key card and two
    assert bid("KQ4.32.Q5.KQJ862", "1C P 2C P 3C P 4NT P 5C P") == "P"  # one and one (of 1 or 4)
    assert bid("KQ4.32.A5.KQJ862", "1C P 2C P 3C P 4NT P 5H P") == "6C"  # two and two: one missing


def test_balancing_fourth_hand_and_reopening() -> None:
    assert bid("AQ2.KQ32.KJ3.A32", "1D P P") == "X"  # 19 in the balancing seat: not a pass
    assert bid("KQ32.AJ3.Q32.KJ2", "1D P P X P") == "3NT"  # the advance with 15 and a diamond stopper
    assert bid("J432.K32.Q432.32", "1D P P X P") == "1S"
    assert bid("AQ32.32.KQ432.A2", "1C P 1H") == "X"  # fourth hand: take-out of both their suits
    assert bid("K2.AQ532.AJ32.2", "1H 2C P P") == "X"  # opener reopens, short in their suit
    assert bid("3.Q2.5432.QJT932", "1H 2C P P X P") == "P"  # trumps: converts to penalty
    assert bid("AJ32.Q2.5432.Q32", "1H 2C P P X P") == "2S"
    assert bid("J4.KQ853.T42.Q82", "1D X 2D") == "2H"  # a free bid over their raise


def test_game_invitation_in_a_major_fit() -> None:
    # 1D - 1S - 2S (11-13): responder invites with 11-12, opener accepts with 13
    assert bid("KJ32.K32.Q432.K2", "1D P 1S P 2S P") == "3S"
    assert bid("KJ32.K32.Q432.A2", "1D P 1S P 2S P") == "4S"  # 13
    assert bid("AQ32.K32.KJ32.32", "1D P 1S P 2S P 3S P") == "4S"
    assert bid("AJ32.Q32.KJ32.32", "1D P 1S P 2S P 3S P") == "P"
    # 1H - 2H (6-9): opener's game try with 14-15, responder accepts with 8-9
    assert bid("A2.KQ532.Q32.J32", "1H P 2H P") == "3H"
    assert bid("432.K32.K432.Q32", "1H P 2H P 3H P") == "4H"
    assert bid("432.Q32.J432.Q32", "1H P 2H P 3H P") == "P"


def test_stayman_with_diamonds_is_not_a_major_fit() -> None:
    assert bid("A2.KJ2.AQJ432.32", "1NT P 2C P 2D P") != "4D"


def test_slam_values_opposite_a_notrump_or_stayman_answer() -> None:
    assert bid("AQ2.AQ2.KQ32.KQ2", "1C P 1NT P") == "4NT"  # 22 balanced opposite a positive
    assert bid("KQ3.K32.J432.K32", "1C P 1NT P 4NT P") == "6NT"  # 12: accepts
    assert bid("K32.Q32.J432.K32", "1C P 1NT P 4NT P") == "P"  # 9: declines
    assert bid("AQ32.A2.KQ32.A32", "1NT P 2C P 2S P") == "4NT"  # 19 and the spade fit: the ask
    assert bid("AQ32.A2.K432.532", "1NT P 2C P 2S P") == "4S"  # 13: game


def test_advancing_a_double_of_a_weak_two() -> None:
    assert bid("Q32.K5432.A2.K32", "2S X P") == "4H"
    assert bid("Q32.K5432.32.432", "2S X P") == "3H"  # partner's take-out double is not passed
    assert bid("32.32.5432.KQJ32", "2S X P") == "3C"


def test_five_of_a_minor_with_a_short_suit() -> None:
    # 1D - 2C - 3C: a club fit, a singleton and the values: five clubs, not 3NT
    assert bid("A32.2.K432.AQ432", "1D P 2C P 3C P") == "5C"
    assert bid("A32.Q82.K43.AQ432", "1D P 2C P 3C P") == "3NT"  # no short suit, every suit stopped
    assert bid("A32.82.K43.AQ432", "1D P 2C P 3C P") == "5C"  # hearts stopped nowhere: not 3NT


def test_game_forcing_minor_raise_and_a_seven_card_major() -> None:
    assert bid("AJ752.J8.K2.KQT4", "1C P 1S P 2C P") == "3C"  # four clubs: the fit, forcing
    assert bid("K.AKQ6.74.AJ8532", "1C P 1S P 2C P 3C P") == "5C"  # a singleton: not 3NT
    assert bid("2.KQJ9752.K3.Q32", "1C P 1H P 1S P") == "4H"  # seven hearts: not 3NT


def test_balancing_over_a_weak_two() -> None:
    assert bid("AQ32.2.KQ32.A432", "2H P P") == "X"
    assert bid("Q32.K5432.32.432", "2S P P X P") == "3H"  # the balancing double is not passed


def test_splinter_raise_and_the_key_card_ask_over_it() -> None:
    # 1S - 4C: four spades, a singleton club, game values (a double jump in a new suit)
    assert bid("KJ32.A2.KQ432.2", "1S P") == "4C"
    assert bid("KJ32.A2.2.KQ432", "1H P") != "3S"  # two hearts: no splinter
    assert bid("K2.AJ32.KQ432.2", "1H P") == "4C"
    # opener: slam interest with nothing wasted in the short suit, else the sign-off in game
    assert bid("AQ654.K32.A32.32", "1S P 4C P") == "4NT"
    assert bid("AQ654.Q32.J32.K2", "1S P 4C P") == "4S"
    assert bid("KJ32.A2.KQ432.2", "1S P 4C P 4S P") == "P"
    assert bid("KJ32.A2.KQ432.2", "1S P 4C P 4NT P") == "5H"  # two key cards, no queen


def test_quantitative_slam_tries_over_the_strong_clubs_3nt() -> None:
    # 1C - 2C (positive) - 3NT (16-19): responder's 16 go to six, 14-16 invite with 4NT
    assert bid("AQ.KJ8.Q7.KJ5432", "1C P 2C P 3NT P") == "6NT"
    assert bid("A2.KJ8.Q7.KJ5432", "1C P 2C P 3NT P") == "4NT"
    assert bid("62.AQT5.AK542.Q8", "1C P 2C P 3NT P 4NT P") == "P"  # 16: declines
    assert bid("K2.AQT5.AK542.Q8", "1C P 2C P 3NT P 4NT P") == "6NT"  # 19: accepts
    assert bid("K2.AJT5.Q76.KQJ2", "1C P 1NT P 3NT P") == "4NT"  # 1C - 1NT - 3NT: the same


def test_controls_and_stoppers_of_a_hand() -> None:
    # by suit C D H S: controls 1 the ace or a void, 2 the king or a singleton; stoppers A, Kx, Qxx, Jxxx
    hand = Hand.of(parse_hand("A2.K.QJ32.T98765"))
    assert hand.controls == (0, 0, 2, 1)
    assert hand.stoppers == (False, True, False, True)


def test_control_bids_after_a_fit_with_slam_values() -> None:
    # 1C - 1S - 3S: the responder with slam values and no club control shows the cheapest
    # control (the diamond king), forcing; with every side suit controlled it asks at once
    assert bid("AKQ32.KQ2.K32.32", "1C P 1S P 3S P") == "4D"
    assert bid("AKQ32.KQ32.K32.2", "1C P 1S P 3S P") == "4NT"
    cue = read_auction(tuple(parse_call(t) for t in ("1C", "P", "1S", "P", "3S", "P", "4D")))[-1]
    assert is_cue(cue) and explain(cue).startswith("control bid: slam interest, forcing")
    # the opener: every side suit controlled with partner's diamonds: the ask (29 together,
    # counting partner's control bid); extras, a control but none in clubs: a control bid
    # back; a minimum: the sign-off in game
    assert bid("J54.AQ2.AQ3.AKQ4", "1C P 1S P 3S P 4D P") == "4NT"
    assert bid("K54.AQ2.KQ3.KQJ4", "1C P 1S P 3S P 4D P") == "4NT"
    assert bid("K54.AQJ.AQ3.QJ54", "1C P 1S P 3S P 4D P") == "4H"
    assert bid("J54.AQ2.KQ3.KJ43", "1C P 1S P 3S P 4D P") == "4S"
    # after the control bid back: clubs still uncontrolled -> sign-off; controlled -> the ask
    assert bid("AKQ32.KQ2.K32.32", "1C P 1S P 3S P 4D P 4H P") == "4S"
    assert bid("AKQ32.KQ2.K32.A2", "1C P 1S P 3S P 4D P 4H P") == "4NT"
    assert bid("Q54.AQ2.KQ3.KJ43", "1C P 1S P 3S P 4D P 4H P 4S P") == "P"


def test_notrump_games_need_stoppers() -> None:
    # 1C - 2C (positive, five clubs): hearts stopped nowhere in the opener's 16-19: the club fit
    assert bid("AK4.32.K52.AQ72", "1C P 2C P") == "4C"
    assert bid("AK4.Q32.K52.AQ72", "1C P 2C P") == "3NT"
    # the advance of a balancing double: 3NT with a stopper in their suit (A, Kx, Qxx, Jxxx)
    assert bid("KQ32.AJ3.Q32.KJ2", "1D P P X P") == "3NT"
    assert bid("KQ32.AJ3.Q2.KJ32", "1D P P X P") != "3NT"  # Qx is no stopper
