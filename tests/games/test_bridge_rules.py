"""The bridge engine: boards, the auction, the play, claims, refusals and what each seat sees."""

from __future__ import annotations

from typing import Any

import pytest

from paiju.games.base import GameAction, GameError
from paiju.games.bridge import BoardSpec, Bridge, BridgeRules, score, trick_winner
from paiju.games.registry import create
from paiju.protocol import ErrorCode, RoomEvent, echo
from paiju.protocol.bridge import ActCode, Error, EventCode
from paiju.protocol.cards import parse_call, parse_card

# Every seat holds every suit: N AKQJ spades, T98 hearts ...; E T98 spades ...
DEAL = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
N, E, S, W = range(4)


def game(board: str = f"1 N None {DEAL}", rules: str = "standard") -> Bridge:
    return Bridge(0, Bridge.ruleset(rules, deals=(board,)))


def card(text: str) -> GameAction:
    return GameAction(ActCode.PLAY, parse_card(text))


def bid(text: str) -> GameAction:
    return GameAction(ActCode.BID, bytes([parse_call(text)]))


def calls(g: Bridge, *texts: str) -> None:
    for t in texts:
        g.call(g.turn, t)


def snapshot(g: Bridge) -> Any:
    return (list(g.log), list(g.events), g.to_act(), [g.view(s) for s in (0, 1, 2, 3, None)], g.phase)


def refused(g: Bridge, seat: int, action: GameAction, code: int) -> None:
    before = snapshot(g)
    with pytest.raises(GameError) as e:
        g.apply(seat, action)
    assert e.value.code == code, e.value
    assert e.value.reason
    assert snapshot(g) == before


# ------------------------------------------------------------------ boards
def test_registered() -> None:
    g = create("bridge", 5, hand=3)
    assert isinstance(g, Bridge) and g.num_seats == 4


def test_dealer_and_vulnerability_follow_the_duplicate_rotation() -> None:
    # boards 1..16 as printed on duplicate boards (Laws, the vulnerability schedule)
    expected = (
        "N None, E NS, S EW, W All, N NS, E EW, S All, W None, N EW, E All, S None, W NS, N All, E None, S NS, W EW"
    )
    for hand, (dealer, vul) in enumerate(x.split() for x in expected.split(", ")):
        for h in (hand, hand + 16):
            g = Bridge(3, hand=h)
            assert (g.board, "NESW"[g.dealer], g.vulnerable) == (h + 1, dealer, vul)


def test_random_deal_is_one_pack_and_depends_on_seed_and_hand() -> None:
    g = Bridge(11, hand=2)
    cards = b"".join(g.dealt)
    assert len(cards) == 52 and len(set(cards)) == 52 and all(len(h) == 13 for h in g.dealt)
    assert Bridge(11, hand=2).dealt == g.dealt
    assert Bridge(12, hand=2).dealt != g.dealt and Bridge(11, hand=3).dealt != g.dealt


def test_deals_from_the_rules() -> None:
    g = game(f"7 S All {DEAL}")
    assert (g.board, g.dealer, g.vulnerable, g.turn) == (7, S, "All", S)
    assert g.dealt[N] == BoardSpec.parse(f"1 N None {DEAL}").hands[N]
    bare = Bridge(0, BridgeRules(deals=(DEAL, f"9 W NS {DEAL}")), hand=2)  # hand 2 plays deals[0] as board 3
    assert (bare.board, bare.dealer, bare.vulnerable) == (3, S, "EW")
    assert Bridge(0, BridgeRules(deals=(DEAL, f"9 W NS {DEAL}")), hand=1).board == 9
    moved = Bridge(0, BridgeRules(deals=(f"7 S All {DEAL}",)), dealer=E)  # dealer overridden, vulnerability kept
    assert (moved.dealer, moved.vulnerable, moved.turn) == (E, "All", E)
    with pytest.raises(ValueError, match="deals\\[0\\]"):
        BridgeRules(deals=("N:AKQJ.T98.765.432 - - -",))
    with pytest.raises(ValueError, match="twice"):
        BridgeRules(deals=("N:AKQJ.T98.765.432 AKQJ.T98.765.432 AKQJ.T98.765.432 AKQJ.T98.765.432",))


def test_deal_events_are_private() -> None:
    g = game()
    deals = [e for e in g.events if e.code == RoomEvent.DEAL]
    assert [e.seat for e in deals] == [N, E, S, W]
    assert [e.seen_by(s).cards for s, e in enumerate(deals)] == list(g.dealt)
    assert all(set(e.seen_by((s + 1) % 4).cards) == {0} for s, e in enumerate(deals))
    assert all(set(e.seen_by(None).cards) == {0} for e in deals)


# ------------------------------------------------------------------ the auction
def test_opening_calls() -> None:
    g = game()
    legal = g.legal(N)
    assert {o.code for o in legal.options} == {ActCode.BID, ActCode.PASS}
    assert len(next(o for o in legal.options if o.code == ActCode.BID).cards) == 35
    assert all(not g.legal(s) for s in (E, S, W))


def test_insufficient_bid_and_bids_in_order() -> None:
    g = game()
    calls(g, "1NT")
    refused(g, E, bid("1S"), Error.INSUFFICIENT_BID)
    refused(g, E, bid("1NT"), Error.INSUFFICIENT_BID)
    g.apply(E, bid("2C"))
    calls(g, "7NT")
    assert {o.code for o in g.legal(W).options} == {ActCode.PASS, ActCode.DOUBLE}  # nothing above 7NT


def test_double_only_of_an_opponents_last_bid() -> None:
    g = game()
    refused(g, N, GameAction(ActCode.DOUBLE), Error.DOUBLE_NOT_ALLOWED)  # nothing to double
    calls(g, "1H", "P")
    refused(g, S, GameAction(ActCode.DOUBLE), Error.DOUBLE_NOT_ALLOWED)  # partner's bid
    calls(g, "P")
    g.apply(W, GameAction(ActCode.DOUBLE))  # balancing double of North's bid, two passes later
    refused(g, N, GameAction(ActCode.DOUBLE), Error.DOUBLE_NOT_ALLOWED)  # already doubled
    refused(g, E, GameAction(ActCode.REDOUBLE), ErrorCode.NOT_YOUR_TURN)


def test_redouble_only_of_a_double_against_ones_side() -> None:
    g = game()
    refused(g, N, GameAction(ActCode.REDOUBLE), Error.REDOUBLE_NOT_ALLOWED)
    calls(g, "1S", "X")
    g.apply(S, GameAction(ActCode.REDOUBLE))
    refused(g, W, GameAction(ActCode.REDOUBLE), Error.REDOUBLE_NOT_ALLOWED)  # already redoubled
    refused(g, W, GameAction(ActCode.DOUBLE), Error.DOUBLE_NOT_ALLOWED)
    g2 = game()
    calls(g2, "1S", "X", "P")
    refused(g2, W, GameAction(ActCode.REDOUBLE), Error.REDOUBLE_NOT_ALLOWED)  # the doubling side
    calls(g2, "P")
    g2.apply(N, GameAction(ActCode.REDOUBLE))  # the doubled side, even after passes
    calls(g2, "P", "P", "P")
    assert g2.contract is not None and str(g2.contract) == "1SXX" and g2.declarer == N


def test_a_new_bid_cancels_the_double() -> None:
    g = game()
    calls(g, "1S", "X", "2H", "P", "P", "P")
    assert str(g.contract) == "2H" and g.declarer == S


def test_declarer_is_first_of_the_side_to_name_the_strain() -> None:
    g = game()
    calls(g, "1C", "P", "1H", "P", "2H", "P", "P", "P")
    assert (str(g.contract), g.declarer, g.dummy) == ("2H", S, N)
    g = game()
    calls(g, "1H", "2C", "2H", "3C", "P", "4C", "P", "P", "P")  # West raises, East named clubs first
    assert (str(g.contract), g.declarer, g.dummy) == ("4C", E, W)
    ev = [e for e in g.events if e.code == EventCode.CONTRACT]
    assert len(ev) == 1 and ev[0].seat == E and ev[0].arg == parse_call("4C")


def test_passed_out_board() -> None:
    g = game()
    calls(g, "P", "P", "P")
    assert not g.is_over
    calls(g, "P")
    assert g.is_over and g.to_act() == ()
    assert any(e.code == EventCode.PASSED_OUT for e in g.events)
    assert g.outcome().scores == (0, 0, 0, 0) and g.outcome().detail["contract"] == "Pass"
    assert g.view(None)["hands"] == list(g.dealt)  # the hands are shown at the end
    refused(g, N, bid("1C"), ErrorCode.GAME_OVER)


def test_three_passes_then_an_opening() -> None:
    g = game()
    calls(g, "P", "P", "P", "1S", "P", "P")
    assert g.phase == "auction"
    calls(g, "P")
    assert (str(g.contract), g.declarer) == ("1S", W)


def test_calls_out_of_turn_are_refused() -> None:
    g = game()
    refused(g, E, GameAction(ActCode.PASS), ErrorCode.NOT_YOUR_TURN)
    refused(g, S, bid("1C"), ErrorCode.NOT_YOUR_TURN)
    refused(g, N, card("SA"), ErrorCode.ILLEGAL_ACTION)
    refused(g, N, GameAction(ActCode.CLAIM), ErrorCode.ILLEGAL_ACTION)
    refused(g, N, GameAction(ActCode.BID, bytes([0x75])), ErrorCode.ILLEGAL_CARDS)  # not a bid
    refused(g, N, GameAction(ActCode.BID, bytes([0x10, 0x11])), ErrorCode.ILLEGAL_CARDS)
    refused(g, N, GameAction(9), ErrorCode.ILLEGAL_ACTION)


# ------------------------------------------------------------------ the play
def four_spades_by_south() -> Bridge:
    g = game()
    calls(g, "P", "P", "1S", "P", "2S", "P", "4S", "P", "P", "P")  # N deals; S opens
    assert (str(g.contract), g.declarer, g.dummy, g.to_act()) == ("4S", S, N, (W,))
    return g


def test_opening_lead_then_dummy_is_exposed() -> None:
    g = four_spades_by_south()
    assert g.view(W)["hands"] == [b"", b"", b"", g.dealt[W]]  # before the lead dummy is hidden
    assert g.view(None)["hands"] == [b"", b"", b"", b""]
    assert g.controller(N) == S and g.controller(E) == E
    refused(g, N, card("SA"), ErrorCode.NOT_YOUR_TURN)
    evs = g.apply(W, card("HA"))
    dummy = [e for e in evs if e.code == EventCode.DUMMY]
    assert len(dummy) == 1 and dummy[0].seat == N and dummy[0].cards == g.dealt[N] and dummy[0].visible_to is None
    assert g.to_act() == (N,)  # dummy's card, decided by the declarer
    for seat in (E, W, None):
        hands = g.view(seat)["hands"]
        assert hands[N] == g.dealt[N] and hands[S] == b""
    assert g.view(S)["hands"][E] == b"" and g.view(S)["hands"][W] == b""
    assert g.view(N)["hands"][S] == b""  # dummy does not see declarer's hand either


def test_following_suit_and_refusals_in_the_play() -> None:
    g = four_spades_by_south()
    refused(g, W, card("SA"), Error.WRONG_HAND)  # North's card
    refused(g, E, card("HA"), ErrorCode.NOT_YOUR_TURN)
    g.apply(W, card("HA"))
    refused(g, S, card("H4"), Error.WRONG_HAND)  # declarer sends a card for dummy's turn
    refused(g, N, card("S5"), Error.WRONG_HAND)  # a card from declarer's hand as dummy
    refused(g, N, card("SA"), Error.REVOKE)  # dummy holds hearts
    refused(g, N, bid("5S"), Error.AUCTION_OVER)
    refused(g, N, GameAction(ActCode.PASS), Error.AUCTION_OVER)
    assert set(g.legal(N).options[0].cards) == set(parse_card(c)[0] for c in ("HT", "H9", "H8"))
    g.apply(N, card("H8"))
    refused(g, E, card("C2"), Error.WRONG_HAND)  # not East's card at all
    refused(g, E, card("CA"), Error.REVOKE)
    g.apply(E, card("H7"))
    g.apply(S, card("H4"))
    assert g.winners == [W] and g.won == [0, 1] and g.to_act() == (W,)
    trick = [e for e in g.events if e.code == EventCode.TRICK]
    assert trick[-1].seat == W and trick[-1].arg == 0  # declarer's side has no trick yet


def test_play_from_the_wrong_hand_when_declarer_leads() -> None:
    g = four_spades_by_south()
    # W leads a club, E wins, E leads a diamond, S wins
    for seat, c in ((W, "C5"), (N, "C2"), (E, "CA"), (S, "C8"), (E, "D2"), (S, "DA"), (W, "D8"), (N, "D5")):
        g.apply(seat, card(c))
    assert g.to_act() == (S,)
    refused(g, S, card("SA"), Error.WRONG_HAND)  # the lead is in declarer's hand, SA is dummy's
    refused(g, N, card("SA"), Error.WRONG_HAND)  # dummy's seat may not lead now


def test_trick_winners_with_and_without_trumps() -> None:
    h = {x: parse_card(x)[0] for x in ("HQ", "HA", "C2", "HK", "SA", "D2", "DA")}
    no_trump = bytes([h["HQ"], h["HA"], h["C2"], h["HK"]])
    assert trick_winner(no_trump, W, None) == N  # highest of the suit led
    assert trick_winner(no_trump, W, 3) == N  # spades are trumps, nobody ruffs
    assert trick_winner(no_trump, W, 0) == E  # clubs are trumps: the two of clubs wins
    assert trick_winner(bytes([h["D2"], h["SA"], h["DA"], h["HK"]]), N, None) == S  # a discard never wins
    assert trick_winner(bytes([h["D2"], h["C2"], h["DA"], h["HA"]]), N, 1) == S


def test_a_whole_board_scores_like_the_score_function() -> None:
    g = four_spades_by_south()
    while not g.is_over:
        seat = g.to_act()[0]
        g.apply(seat, g.default_action(seat))
    out = g.outcome()
    tricks = g.won[S % 2]
    assert len(g.tricks) == 13 and sum(g.won) == 13 and out.detail["tricks"] == tricks
    assert out.scores == (score("4S", False, tricks), -score("4S", False, tricks)) * 2
    assert out.hands == g.dealt
    again = Bridge.replay(0, g.rules, g.log)
    assert again.events == g.events and again.outcome() == out


def test_default_actions() -> None:
    g = game()
    assert g.default_action(N) == GameAction(ActCode.PASS)
    g = four_spades_by_south()
    assert g.default_action(W) == card("S2")  # West's lowest card
    g.apply(W, card("HA"))
    assert g.default_action(N) == card("H8")  # lowest heart, following suit


# ------------------------------------------------------------------ claims
def declarer_on_lead() -> Bridge:
    g = four_spades_by_south()
    for trick in (("HA", "H8", "H5", "H2"), ("HK", "H9", "H6", "H3"), ("HQ", "HT", "H7", "H4")):
        for seat, c in zip((W, N, E, S), trick, strict=True):
            g.apply(seat, card(c))
    for seat, c in ((W, "D8"), (N, "D5"), (E, "D2"), (S, "DA")):
        g.apply(seat, card(c))
    assert g.to_act() == (S,) and g.won == [1, 3]
    return g


def test_claim_accepted_by_both_defenders() -> None:
    g = declarer_on_lead()
    assert ActCode.CLAIM in {o.code for o in g.legal(S).options}
    evs = g.apply(S, GameAction(ActCode.CLAIM))
    assert evs[0].code == echo(ActCode.CLAIM) and evs[0].arg == 9
    assert set(g.to_act()) == {E, W} and g.view(E)["claim"] == 9
    refused(g, S, card("S5"), ErrorCode.NOT_YOUR_TURN)
    refused(g, E, card("CA"), ErrorCode.ILLEGAL_ACTION)
    g.apply(W, GameAction(ActCode.ACCEPT))
    assert g.to_act() == (E,)
    g.apply(E, GameAction(ActCode.ACCEPT))
    assert g.is_over and g.won == [10, 3] and g.outcome().detail["claimed"] == 9
    assert g.outcome().scores[S] == score("4S", False, 10) == 420
    reveals = [e for e in g.events if e.code == EventCode.REVEAL]
    assert [e.seat for e in reveals] == [N, E, S, W] and all(e.visible_to is None for e in reveals)


def test_claim_rejected_play_goes_on() -> None:
    g = declarer_on_lead()
    g.apply(S, GameAction(ActCode.CLAIM))
    g.apply(E, GameAction(ActCode.REJECT))
    assert g.to_act() == (S,) and g.phase == "play"
    refused(g, S, GameAction(ActCode.CLAIM), Error.NO_CLAIM)  # not twice at one trick
    refused(g, W, GameAction(ActCode.ACCEPT), ErrorCode.NOT_YOUR_TURN)
    assert g.default_action(S).code == ActCode.PLAY


def test_claims_only_for_declarer_on_lead_and_when_the_rules_allow() -> None:
    g = four_spades_by_south()
    refused(g, W, GameAction(ActCode.CLAIM), Error.NO_CLAIM)  # a defender on lead
    g = declarer_on_lead()
    g.apply(S, card("S5"))
    refused(g, W, GameAction(ActCode.CLAIM), Error.NO_CLAIM)
    g = game(rules="no-claims")
    calls(g, "1NT", "P", "P", "P")
    refused(g, E, GameAction(ActCode.CLAIM), Error.NO_CLAIM)
    for _ in range(4):
        g.apply(g.turn, g.default_action(g.turn))
    if g.turn in (g.declarer, g.dummy):
        assert ActCode.CLAIM not in {o.code for o in g.legal(g.turn).options}


def test_default_answer_to_a_claim_is_reject() -> None:
    g = declarer_on_lead()
    g.apply(S, GameAction(ActCode.CLAIM))
    assert g.default_action(W) == GameAction(ActCode.REJECT)


# ------------------------------------------------------------------ hidden information
def test_no_seat_ever_sees_a_hidden_hand() -> None:
    g = Bridge(21, hand=5)
    seen_by: dict[int | None, set[int]] = {}
    while not g.is_over:
        for seat in (0, 1, 2, 3, None):
            view = g.view(seat)
            for s, cards in enumerate(view["hands"]):
                if cards and s != seat:
                    assert s == g.dummy and g.exposed, (seat, s)
            seen_by.setdefault(seat, set()).update(b"".join(view["hands"]))
        seat = g.to_act()[0]
        g.apply(seat, g.default_action(seat))
    assert g.view(None)["hands"] == [bytes(h) for h in g.hands]


def test_views_hold_only_cards_in_bytes() -> None:
    g = declarer_on_lead()
    v = g.view(E)
    assert isinstance(v["auction"], list) and all(isinstance(c, int) for c in v["auction"])
    assert isinstance(v["played"], bytes) and len(v["played"]) == 16
    assert v["won"] == [1, 3] and v["leaders"] == [W, W, W, W] and v["winners"] == [W, W, W, S]
