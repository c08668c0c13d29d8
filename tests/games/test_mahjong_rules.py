"""Unit tests of the mahjong engine: claims, priorities, kongs, 报听, forms, fan, payments."""

from __future__ import annotations

import copy

import pytest

from paiju.games.base import GameAction, GameError
from paiju.games.mahjong import Mahjong, Meld
from paiju.games.registry import create
from paiju.protocol import ErrorCode
from paiju.protocol.cards import parse_tiles as t
from paiju.protocol.mahjong import ActCode, EventCode
from paiju.protocol.mahjong import Error as MjError


def rig(hands: list[str], wall: str = "9s9s9s9s", ruleset: str = "championship", turn: int = 0) -> Mahjong:
    """A game whose hands and wall are set by hand; ``turn`` holds its last tile as drawn."""
    g = Mahjong(0, ruleset, dealer=turn)
    g.hands = [sorted(t(h)) for h in hands]
    g.wall = list(t(wall))
    g.melds = [[] for _ in range(4)]
    g.rivers = [[] for _ in range(4)]
    g.turn = turn
    g.drawn = t(hands[turn])[-1]
    g._turn_cache = None
    return g


def act(g: Mahjong, seat: int, code: int, cards: str = "") -> list:
    return g.apply(seat, GameAction(code, t(cards) if cards else b""))


def refused(g: Mahjong, seat: int, code: int, cards: str = "") -> int:
    before = (copy.deepcopy(g.hands), list(g.wall), g.to_act(), [g.view(s) for s in range(4)], len(g.log))
    with pytest.raises(GameError) as e:
        act(g, seat, code, cards)
    assert (g.hands, g.wall, g.to_act(), [g.view(s) for s in range(4)], len(g.log)) == before
    return e.value.code


HAND_A = "123m 456m 789m 11p 23s 9p"  # seat 0 in turn, will discard 9p
OTHERS = "147m 258p 369s 1m4p7s 9m"


def test_deal_and_turn() -> None:
    g = create("mahjong", 5, "classic", hand=2)
    assert g.dealer == 2 and g.to_act() == (2,)
    assert [len(g.concealed(s)) for s in range(4)] == [13, 13, 14, 13]
    assert g.view(None)["wall"] == 136 - 53
    assert create("mahjong", 5).view(None)["wall"] == 108 - 53


def test_pong_claim_and_priority_over_chow() -> None:
    g = rig([HAND_A, "99p 13p 456m 789m 1s 2s 5s", "99s 13m 456p 789p 11s 5m", OTHERS])
    act(g, 0, ActCode.DISCARD, "9p")
    assert g.to_act() == (1,)  # seat 1 may pong 9p; seat 2 has nothing to claim
    assert g.legal(1).mask == (1 << ActCode.PONG | 1 << ActCode.PASS)
    ev = act(g, 1, ActCode.PONG, "9p9p")
    assert ev[0].code == 0x20 + ActCode.PONG and ev[0].cards == t("9p9p9p")
    assert g.melds[1][0].kind == Meld.PONG and g.rivers[0] == []
    assert g.to_act() == (1,) and g.drawn is None
    assert g.legal(1).mask & (1 << ActCode.HU | 1 << ActCode.KONG) == 0  # after a claim: discard only


def test_chow_only_by_the_next_seat_and_pong_beats_chow() -> None:
    g = rig([HAND_A, "78p 456m 789m 1s 2s 3s 5s 5s", "99p 13m 456p 789s 11s 5m", OTHERS])
    act(g, 0, ActCode.DISCARD, "9p")
    assert g.to_act() == (1, 2)
    assert refused(g, 2, ActCode.CHOW, "7p8p") == MjError.CHOW_WRONG_SEAT
    act(g, 1, ActCode.CHOW, "7p8p")
    assert g.to_act() == (2,)  # the chow is kept private until seat 2 answers
    act(g, 2, ActCode.PONG, "9p9p")
    assert g.melds[2] and not g.melds[1] and g.turn == 2


def test_chow_when_nobody_else_claims() -> None:
    g = rig([HAND_A, "78p 456m 789m 1s 2s 3s 5s 5s", "13m 456p 789s 11s 5m 2m 1p", OTHERS])
    act(g, 0, ActCode.DISCARD, "9p")
    ev = act(g, 1, ActCode.CHOW, "7p8p")
    assert ev[0].cards == t("789p") and ev[0].arg == 0 and g.melds[1][0].kind == Meld.CHOW


def test_win_beats_pong_and_nearest_winner_takes_it() -> None:
    ready_on_9p = "123m 456m 789m 111s 9p"  # waits on 9p (pair)
    g = rig([HAND_A, "99p 13p 456m 789m 1s 2s 5s", ready_on_9p, "123s 456m 789m 111m 9p"])
    act(g, 0, ActCode.DISCARD, "9p")
    assert g.to_act() == (1, 2, 3)
    act(g, 3, ActCode.HU)
    act(g, 1, ActCode.PONG, "9p9p")
    act(g, 2, ActCode.HU)
    assert g.is_over and g.result["winner"] == 2  # seat 2 is nearer to seat 0 than seat 3
    out = g.outcome()
    assert out.scores[0] == -out.scores[2] and sum(out.scores) == 0 and out.scores[3] == 0


def test_exposed_kong_and_replacement_from_the_wall_end() -> None:
    g = rig([HAND_A, "999p 13p 456m 789m 1s 5s", "13m 456p 789s 11s 5m 2m 1p", OTHERS], wall="1m2m3m4m")
    act(g, 0, ActCode.DISCARD, "9p")
    assert g.legal(1).mask & (1 << ActCode.KONG)
    ev = act(g, 1, ActCode.KONG, "9p9p9p")
    assert ev[0].cards == t("9999p")
    assert ev[1].code == EventCode.REPLACEMENT and ev[1].cards == t("4m") and ev[1].visible_to == frozenset({1})
    assert g.wall == list(t("1m2m3m")) and g.turn == 1 and g.drawn == t("4m")[0]
    assert ev[1].seen_by(0).cards == b"\x00"


def test_concealed_and_added_kong() -> None:
    g = rig(["1111m 234m 567m 88p 9s 9s", OTHERS, OTHERS, OTHERS], wall="5p6p")
    ev = act(g, 0, ActCode.KONG, "1111m")
    assert g.melds[0][0].kind == Meld.KONG_CONCEALED and ev[1].cards == t("6p")
    assert ev[0].seen_by(1).cards == b"\x00" * 4 and ev[0].seen_by(0).cards == t("1111m")
    assert g.view(1)["melds"][0][0]["tiles"] == b"\x00" * 4
    assert g.view(0)["melds"][0][0]["tiles"] == t("1111m")
    # an added kong after a pong
    g = rig(["234m 567m 88p 9s 1s 5p", OTHERS, OTHERS, OTHERS], wall="6p7p")
    g.hands[0] = sorted(t("234m 567m 88p 9s 1s 5p"))
    g.melds[0] = [Meld(Meld.PONG, list(t("5p5p5p")), 2)]
    g._turn_cache = None
    assert GameAction(ActCode.KONG, t("5p")) in [GameAction(o.code, o.cards) for o in g.legal(0).options]
    act(g, 0, ActCode.KONG, "5p")
    assert g.melds[0][0].kind == Meld.KONG_ADDED and g.melds[0][0].tiles == list(t("5555p"))
    assert g.drawn == t("7p")[0]


def test_no_kong_when_the_wall_is_empty() -> None:
    g = rig(["1111m 234m 567m 88p 9s 9s", OTHERS, OTHERS, OTHERS], wall="")
    assert not g.legal(0).mask & (1 << ActCode.KONG)


def test_ready_declaration_locks_the_hand() -> None:
    g = rig(["123m 456m 789m 11p 23s 9p", OTHERS, OTHERS, OTHERS], wall="5m 9s 1s 7m 7m")
    opts = {o.code: o for o in g.legal(0).options}
    assert t("9p")[0] in opts[ActCode.READY].cards and t("1m")[0] not in opts[ActCode.READY].cards
    assert refused(g, 0, ActCode.READY, "1m") == MjError.NOT_READY
    act(g, 0, ActCode.READY, "9p")
    assert g.ready[0] and g.view(2)["ready"] == [1, 0, 0, 0]
    # seats 1..3 draw and discard; seat 0 then draws 7m, which it must throw
    for seat in (1, 2, 3):
        assert g.to_act() == (seat,)
        assert g.drawn is not None
        g.apply(seat, GameAction(ActCode.DISCARD, bytes([g.drawn])))
        while g.phase == "claim":
            for s in g.to_act():
                g.apply(s, GameAction(ActCode.PASS))
    assert g.to_act() == (0,) and g.drawn == t("7m")[0]
    legal = g.legal(0)
    assert legal.mask == 1 << ActCode.DISCARD and legal.options[0].cards == t("7m")
    assert refused(g, 0, ActCode.DISCARD, "1m") == MjError.HAND_LOCKED


def test_locked_hand_may_win_and_kong_without_changing_the_wait() -> None:
    g = rig(["111m 456m 789m 11p 23s 1m", OTHERS, OTHERS, OTHERS], wall="4s")
    g.ready[0] = True
    g._turn_cache = None
    kongs = [o.cards for o in g.legal(0).options if o.code == ActCode.KONG]
    assert kongs == [t("1111m")]  # 111m was a set: the wait (1s 4s) stays
    g = rig(["123m 456m 789m 11p 23s 4s", OTHERS, OTHERS, OTHERS], wall="4s")
    g.ready[0] = True
    g._turn_cache = None
    act(g, 0, ActCode.HU)
    assert g.result["points"] == 1 + 1 + 1  # basic + ready + self-draw


def test_seven_pairs_only_in_championship() -> None:
    hand = "1199m 1199p 1199s 5s 5s"
    g = rig([hand, OTHERS, OTHERS, OTHERS])
    assert g.legal(0).mask & (1 << ActCode.HU)
    act(g, 0, ActCode.HU)
    assert g.result["form"] == "seven pairs" and g.result["fan"] == 4
    g = rig([hand, OTHERS, OTHERS, OTHERS], ruleset="classic")
    assert not g.legal(0).mask & (1 << ActCode.HU)
    assert refused(g, 0, ActCode.HU) == MjError.NOT_A_WIN


@pytest.mark.parametrize(
    "hand,form,fan",
    [
        ("123m 456m 789p 11s 23s 5s", None, None),  # not a win: checked below
        ("123m 456m 789p 11s 23s 4s", "basic", 1),
        ("111m 444p 777s 999m 5s 5s", "all pungs", 2),
        ("123m 456m 789m 234m 5m 5m", "full flush", 3),
        ("111m 333m 555m 777m 9m 9m", "full flush", 3),  # the rarer type is counted
        ("1122m 3344m 5566m 7m 7m", "seven pairs", 4),
    ],
)
def test_fan_table_and_self_draw_payment(hand: str, form: str | None, fan: int | None) -> None:
    g = rig([hand, OTHERS, OTHERS, OTHERS])
    if form is None:
        assert not g.legal(0).mask & (1 << ActCode.HU)
        return
    act(g, 0, ActCode.HU)
    assert (g.result["form"], g.result["fan"]) == (form, fan)
    points = fan + 1  # self-draw bonus
    assert g.outcome().scores == (3 * points, -points, -points, -points)


def test_discard_win_is_paid_by_the_discarder() -> None:
    g = rig([HAND_A, "123m 456m 789m 111s 9p", "13m 456p 789s 11s 5m 2m 1p", OTHERS])
    act(g, 0, ActCode.DISCARD, "9p")
    act(g, 1, ActCode.HU)
    assert g.outcome().scores == (-1, 1, 0, 0)
    assert g.result["self_draw"] == 0 and g.result["from"] == 0
    assert g.outcome().hands[1] == t("123m 456m 789m 111s 99p")


def test_drawn_hand_when_the_wall_runs_out() -> None:
    g = rig([HAND_A, "13m 456p 789s 11s 5m 2m 7s", "13m 456p 789s 11s 5m 2m 8s", OTHERS], wall="")
    ev = act(g, 0, ActCode.DISCARD, "2s")
    assert g.is_over and ev[0].code == 0x20 + ActCode.DISCARD and ev[1].code == EventCode.DRAWN_HAND
    assert g.outcome().scores == (0, 0, 0, 0)
    assert [e.code for e in ev[2:]] == [EventCode.REVEAL] * 4


def test_illegal_actions_are_refused_and_change_nothing() -> None:
    g = rig([HAND_A, "78p 456m 789m 1s 2s 3s 5s 5s", "99p 13m 456p 789s 11s 5m", OTHERS])
    assert refused(g, 0, ActCode.DISCARD, "5p") == MjError.TILE_NOT_IN_HAND
    assert refused(g, 1, ActCode.DISCARD, "7p") == ErrorCode.NOT_YOUR_TURN
    assert refused(g, 1, ActCode.PONG, "7p7p") == MjError.WINDOW_CLOSED  # no window is open
    act(g, 0, ActCode.DISCARD, "9p")
    assert refused(g, 3, ActCode.PASS) == MjError.WINDOW_CLOSED  # seat 3 was never asked
    act(g, 1, ActCode.PASS)
    assert refused(g, 1, ActCode.CHOW, "7p8p") == MjError.WINDOW_CLOSED  # already answered
    act(g, 2, ActCode.PASS)
    assert refused(g, 2, ActCode.PONG, "9p9p") == MjError.WINDOW_CLOSED  # the window closed
    assert refused(g, 1, ActCode.HU) in (MjError.NOT_A_WIN, ErrorCode.ILLEGAL_ACTION)


def test_claims_do_not_leak_before_resolution() -> None:
    g = rig([HAND_A, "78p 456m 789m 1s 2s 3s 5s 5s", "99p 13m 456p 789s 11s 5m", OTHERS])
    act(g, 0, ActCode.DISCARD, "9p")
    before = [g.view(s) for s in (0, 2, 3, None)]
    n = len(g.events)
    assert act(g, 1, ActCode.CHOW, "7p8p") == []
    assert len(g.events) == n and [g.view(s) for s in (0, 2, 3, None)] == before


def test_views_hide_other_hands() -> None:
    g = create("mahjong", 9, "classic")
    v = g.view(1)
    assert v["hand"] == bytes(sorted(g.hands[1])) and v["drawn"] == b""
    assert v["counts"] == [14, 13, 13, 13]
    assert g.view(None)["hand"] == b""
    d = g.view(0)
    assert len(d["hand"]) == 13 and len(d["drawn"]) == 1


def test_default_actions() -> None:
    g = rig([HAND_A, "99p 13p 456m 789m 1s 2s 5s", "99s 13m 456p 789p 11s 5m", OTHERS])
    assert g.default_action(0) == GameAction(ActCode.DISCARD, t("9p"))
    act(g, 0, ActCode.DISCARD, "9p")
    assert g.default_action(1) == GameAction(ActCode.PASS)
