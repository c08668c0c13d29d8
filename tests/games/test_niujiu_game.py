"""The Niujiu engine (docs/rules/niujiu.md §1, §5–§9): deal, head, trick, occupancy, the end,
scoring, timeouts, refusals and views.

Test names cite the rule they exercise (test_rule_5_2_... exercises R5.2).
"""

from __future__ import annotations

import copy
import random
from collections import Counter

import pytest

from paiju.games.base import GameAction, GameError, GameEvent
from paiju.games.niujiu import ENOUGH, Niujiu, patterns
from paiju.games.registry import create
from paiju.games.testing import play_random
from paiju.protocol import HIDDEN, ErrorCode, RoomEvent
from paiju.protocol.cards import NIUJIU_CARDS, parse_cards
from paiju.protocol.niujiu import ActCode, Error, EventCode, Kind


def c(text: str) -> bytes:
    return parse_cards(text, ace=1)


def rig(h0: str, h1: str, h2: str, *, head: int = 0, ruleset: str | None = None, fill: bool = True) -> Niujiu:
    """A hand whose seats hold the given cards; with ``fill`` each is completed to 16 from the rest of the deck."""
    g = Niujiu(0, ruleset, dealer=head)
    hands = [sorted(c(h)) for h in (h0, h1, h2)]
    used = [b for h in hands for b in h]
    assert len(used) == len(set(used))
    if fill:
        rest = sorted(NIUJIU_CARDS - set(used), reverse=True)
        for h in hands:
            while len(h) < 16:
                h.append(rest.pop())
            h.sort()
    assert len({len(h) for h in hands}) == 1
    g.hands = hands
    g._legal.clear()
    return g


def act(g: Niujiu, seat: int, code: ActCode, text: str) -> list[GameEvent]:
    return list(g.apply(seat, GameAction(code, c(text))))


def finish(g: Niujiu, seed: int) -> Niujiu:
    """Play ``g`` to its end with random legal actions."""
    play_random(g, random.Random(seed))
    return g


def fingerprint(g: Niujiu) -> object:
    return (
        len(g.log),
        len(g.events),
        g.to_act(),
        [g.view(s) for s in range(3)],
        g.view(None),
        [g.legal(s) for s in range(3)],
        g.public(),
        [g.concealed(s) for s in range(3)],
    )


# ---------------------------------------------------------------------------------- §1
def test_rule_1_3_three_seats_16_cards_each_dealt_from_the_seed() -> None:
    g = Niujiu(42)
    assert g.num_seats == 3
    hands = [g.concealed(s) for s in range(3)]
    assert [len(h) for h in hands] == [16, 16, 16]
    assert Counter(b"".join(hands)) == Counter(bytes(sorted(NIUJIU_CARDS)))
    assert [Niujiu(42).concealed(s) for s in range(3)] == hands
    assert [Niujiu(43).concealed(s) for s in range(3)] != hands
    deals = [e for e in g.events if e.code == RoomEvent.DEAL]
    assert [e.seat for e in deals] == [0, 1, 2]
    for e in deals:
        assert e.seat is not None
        assert e.seen_by(e.seat).cards == hands[e.seat]
        assert e.seen_by((e.seat + 1) % 3).cards == bytes(16) and e.seen_by(None).cards == bytes(16)


def test_rule_1_4_the_head_leads_the_first_trick() -> None:
    for hand in range(6):
        g = Niujiu(7, hand=hand)
        assert g.to_act() == (g.head,) and g.leader == g.head
        assert g.events[0].code == RoomEvent.HAND_START and g.events[0].seat == g.head
        assert g.legal(g.head).mask == 1 << ActCode.LEAD


def test_rule_1_5_the_head_rotates_with_the_hand_number() -> None:
    assert [Niujiu(1, hand=h).head for h in range(7)] == [0, 1, 2, 0, 1, 2, 0]
    assert Niujiu(1, hand=0, dealer=2).head == 2  # a room may name the head
    assert create("niujiu", 1, hand=4).dealer == 1


def test_rule_1_6_answers_go_in_seat_order_after_the_leader() -> None:
    g = rig("H7", "H8", "H9", head=2)
    assert g.to_act() == (2,)
    act(g, 2, ActCode.LEAD, "H9")
    assert g.to_act() == (0,)
    g.apply(0, g.default_action(0))
    assert g.to_act() == (1,)


# ---------------------------------------------------------------------------------- §5
def test_rule_5_1_the_leader_may_lead_exactly_the_patterns_of_its_hand() -> None:
    g = Niujiu(3)
    opts = g.legal(0).options
    assert all(o.code == ActCode.LEAD and o.pick == len(o.cards) for o in opts)
    assert sorted(o.cards for o in opts) == sorted(patterns(g.concealed(0)))
    lead = max(opts, key=lambda o: len(o.cards)).cards
    g.apply(0, GameAction(ActCode.LEAD, lead))
    assert g.k == len(lead) and g.view(1)["k"] == len(lead)


def test_rule_5_2_answer_by_eating_the_best_so_far_or_covering_any_k_cards() -> None:
    g = rig("C7 S7 CA DA", "C8 S8 H2 D2", "H9 S9 D8 H8", fill=False)
    act(g, 0, ActCode.LEAD, "C7 S7")
    legal = g.legal(1)
    eats = sorted(o.cards for o in legal.options if o.code == ActCode.EAT)
    assert eats == [c("C8 S8")]  # 22 does not beat 77
    cover = [o for o in legal.options if o.code == ActCode.COVER]
    assert len(cover) == 1 and cover[0].pick == 2 and cover[0].cards == g.concealed(1)
    act(g, 1, ActCode.EAT, "C8 S8")
    eats2 = sorted(o.cards for o in g.legal(2).options if o.code == ActCode.EAT)
    assert eats2 == [bytes(sorted(c("H9 S9")))]  # 二牛; D8 H8 would beat 77 but only ties 88
    act(g, 2, ActCode.COVER, "H9 D8")  # covering is allowed even when eating is possible
    assert g.occupied[1] == sorted(c("C8 S8")) and g.covered[2] == sorted(c("H9 D8"))


def test_rule_5_2_second_answer_must_beat_the_eat_not_the_lead() -> None:
    g = rig("C7 S7", "CJ DJ", "C8 S8", fill=True)
    act(g, 0, ActCode.LEAD, "C7 S7")
    act(g, 1, ActCode.EAT, "CJ DJ")
    assert all(o.cards != c("C8 S8") for o in g.legal(2).options)
    with pytest.raises(GameError) as e:
        act(g, 2, ActCode.EAT, "C8 S8")
    assert e.value.code == Error.DOES_NOT_BEAT


def test_rule_5_3_the_best_pattern_is_occupied_and_its_owner_leads() -> None:
    g = rig("C7", "C8", "C9 CA")
    act(g, 0, ActCode.LEAD, "C7")
    act(g, 1, ActCode.EAT, "C8")
    events = act(g, 2, ActCode.COVER, "CA")
    occ = [e for e in events if e.code == EventCode.OCCUPY]
    assert len(occ) == 1 and occ[0].seat == 1 and occ[0].cards == c("C8") and occ[0].arg == 1
    assert g.leader == 1 and g.to_act() == (1,) and g.view(0)["occupied"][1] == c("C8")


def test_rule_5_4_beaten_plays_are_public_covered_cards_are_hidden_for_good() -> None:
    g = rig("C7", "C8", "C9 CA")
    act(g, 0, ActCode.LEAD, "C7")
    act(g, 1, ActCode.EAT, "C8")
    covered = act(g, 2, ActCode.COVER, "CA")[0]
    assert covered.code == EventCode.COVERED
    assert covered.seen_by(2).cards == c("CA") and covered.seen_by(0).cards == bytes([HIDDEN])
    assert covered.seen_by(None).cards == bytes([HIDDEN])
    assert c("C7")[0] in g.view(None)["beaten"]
    for seat in (0, 1, None):
        v = g.view(seat)
        assert c("CA")[0] not in b"".join(x for x in _bytes_of(v))
        assert v["covered_count"] == [0, 0, 1]
    assert g.view(2)["my_covered"] == c("CA")
    # to the end of the hand: the covered card is in no outcome, view or event anyone else receives
    play_random(g, random.Random(1))
    out = g.outcome()
    assert c("CA")[0] not in b"".join(out.hands)
    assert all(c("CA")[0] not in e.seen_by(0).cards for e in g.events)


def _bytes_of(v: object) -> list[bytes]:
    if isinstance(v, bytes):
        return [v]
    if isinstance(v, dict):
        return [b for x in v.values() for b in _bytes_of(x)]
    if isinstance(v, list):
        return [b for x in v for b in _bytes_of(x)]
    return []


def test_rule_5_5_one_third_is_occupied_exactly_16_when_every_card_is_played() -> None:
    for seed in range(60):
        g = finish(Niujiu(seed, "play-out"), seed)
        assert sum(len(o) for o in g.occupied) == 16
        assert sum(len(x) for x in g.covered) + len(g.beaten) == 32
        g2 = finish(Niujiu(seed), seed)
        assert sum(len(o) for o in g2.occupied) <= 16


# ---------------------------------------------------------------------------------- refusals
def test_rule_5_6_a_non_pattern_lead_is_refused_unchanged() -> None:
    g = rig("C7 S8", "H8", "H9")
    before = fingerprint(g)
    with pytest.raises(GameError) as e:
        act(g, 0, ActCode.LEAD, "C7 S8")
    assert e.value.code == Error.NOT_A_PATTERN and fingerprint(g) == before


def test_rule_5_6_an_eat_that_does_not_beat_is_refused_unchanged() -> None:
    g = rig("C8", "C7 D7", "H9")
    act(g, 0, ActCode.LEAD, "C8")
    before = fingerprint(g)
    with pytest.raises(GameError) as e:
        act(g, 1, ActCode.EAT, "C7")
    assert e.value.code == Error.DOES_NOT_BEAT and fingerprint(g) == before
    with pytest.raises(GameError) as e:
        act(g, 1, ActCode.EAT, "C7 D7")  # a pair cannot answer a single
    assert e.value.code == Error.WRONG_COUNT and fingerprint(g) == before


def test_rule_5_6_the_wrong_number_of_cards_is_refused_unchanged() -> None:
    g = rig("C8 D8", "C7 D7 H7", "H9")
    act(g, 0, ActCode.LEAD, "C8 D8")
    before = fingerprint(g)
    for cards in ("C7", "C7 D7 H7", ""):
        with pytest.raises(GameError) as e:
            act(g, 1, ActCode.COVER, cards)
        assert e.value.code == Error.WRONG_COUNT and fingerprint(g) == before


def test_rule_5_6_cards_not_in_hand_are_refused_unchanged() -> None:
    g = rig("C8 D8", "C7 D7", "H9")
    before = fingerprint(g)
    with pytest.raises(GameError) as e:
        act(g, 0, ActCode.LEAD, "H9")
    assert e.value.code == Error.CARD_NOT_IN_HAND and fingerprint(g) == before
    with pytest.raises(GameError) as e:
        g.apply(0, GameAction(ActCode.LEAD, c("C8 C8")))  # one card twice
    assert e.value.code == Error.CARD_NOT_IN_HAND and fingerprint(g) == before
    act(g, 0, ActCode.LEAD, "C8 D8")
    before = fingerprint(g)
    with pytest.raises(GameError) as e:
        act(g, 1, ActCode.COVER, "C7 H9")
    assert e.value.code == Error.CARD_NOT_IN_HAND and fingerprint(g) == before


def test_rule_5_6_acting_out_of_turn_or_with_an_action_not_offered_is_refused_unchanged() -> None:
    g = rig("C8", "C7", "H9")
    before = fingerprint(g)
    with pytest.raises(GameError) as e:
        act(g, 1, ActCode.LEAD, "C7")
    assert e.value.code == ErrorCode.NOT_YOUR_TURN and fingerprint(g) == before
    with pytest.raises(GameError) as e:
        act(g, 0, ActCode.EAT, "C8")  # the leader leads
    assert e.value.code == ErrorCode.ILLEGAL_ACTION and fingerprint(g) == before
    with pytest.raises(GameError) as e:
        g.apply(0, GameAction(9, c("C8")))
    assert e.value.code == ErrorCode.ILLEGAL_ACTION and fingerprint(g) == before
    play_random(g, random.Random(0))
    with pytest.raises(GameError) as e:
        act(g, g.leader, ActCode.LEAD, "C8")
    assert e.value.code == ErrorCode.GAME_OVER


# ---------------------------------------------------------------------------------- §6, §7
TWO_ENOUGH = ("CK DK HK SK H9 S9 CA", "CQ DQ HQ SQ H5 S5 D7", "")


def cover_but(g: Niujiu, seat: int, keep: str) -> None:
    """Cover the k lowest-byte cards of ``seat`` other than ``keep``."""
    spare = [x for x in g.hands[seat] if x not in c(keep)]
    g.apply(seat, GameAction(ActCode.COVER, bytes(spare[: g.k])))


def play_two_enough(ruleset: str | None = None) -> Niujiu:
    """Seat 0 occupies KKKK and 二牛 (6), seat 1 a single, QQQQ and 二喜 (7): 13 occupied, 3 cards left."""
    g = rig(*TWO_ENOUGH, ruleset=ruleset)
    act(g, 0, ActCode.LEAD, "CK DK HK SK")
    cover_but(g, 1, TWO_ENOUGH[1])
    g.apply(2, g.default_action(2))
    act(g, 0, ActCode.LEAD, "H9 S9")
    cover_but(g, 1, TWO_ENOUGH[1])
    g.apply(2, g.default_action(2))
    assert g.view(None)["enough"] == [True, False, False]
    act(g, 0, ActCode.LEAD, "CA")
    act(g, 1, ActCode.EAT, "D7")
    g.apply(2, g.default_action(2))
    act(g, 1, ActCode.LEAD, "CQ DQ HQ SQ")
    g.apply(2, g.default_action(2))
    g.apply(0, g.default_action(0))
    act(g, 1, ActCode.LEAD, "H5 S5")
    g.apply(2, g.default_action(2))
    g.apply(0, g.default_action(0))
    return g


def test_rule_6_1_six_occupied_cards_are_enough_and_say_so() -> None:
    g = rig(*TWO_ENOUGH)
    act(g, 0, ActCode.LEAD, "CK DK HK SK")
    g.apply(1, g.default_action(1))
    events = g.apply(2, g.default_action(2))
    assert not [e for e in events if e.code == EventCode.ENOUGH]
    act(g, 0, ActCode.LEAD, "H9 S9")
    g.apply(1, g.default_action(1))
    events = g.apply(2, g.default_action(2))
    enough = [e for e in events if e.code == EventCode.ENOUGH]
    assert len(enough) == 1 and enough[0].seat == 0 and enough[0].arg == ENOUGH
    assert g.view(1)["enough"] == [True, False, False]


def test_rule_6_2_the_hand_ends_when_the_enough_seats_are_settled() -> None:
    g = play_two_enough()
    assert g.is_over and g.to_act() == ()
    assert [len(o) for o in g.occupied] == [6, 7, 0]
    assert [len(r) for r in g.revealed] == [3, 3, 3]
    g2 = play_two_enough("play-out")  # the variant plays every card
    assert not g2.is_over and g2.to_act() == (1,)
    play_random(g2, random.Random(2))
    assert g2.is_over and sum(len(o) for o in g2.occupied) == 16


def test_rule_6_2_random_hands_end_at_the_first_settled_trick() -> None:
    for seed in range(150):
        g = Niujiu(seed)
        rng = random.Random(seed)
        while not g.is_over:
            seat = g.to_act()[0]
            opt = rng.choice(g.legal(seat).options)
            g.apply(seat, GameAction(opt.code, bytes(rng.sample(list(opt.cards), opt.pick))))
            if not g.is_over and not g.trick:
                assert not g.settled()
        left = len(g.revealed[0])
        assert all(len(o) >= ENOUGH or len(o) + left < ENOUGH for o in g.occupied)


def test_rule_6_3_at_least_one_seat_is_enough_at_the_end() -> None:
    for seed in range(150):
        for ruleset in ("standard", "play-out"):
            g = finish(Niujiu(seed, ruleset), seed)
            assert 1 <= sum(g.view(None)["enough"]) <= 2


def test_rule_6_4_the_cards_left_are_revealed_to_everyone() -> None:
    g = play_two_enough()
    reveals = [e for e in g.events if e.code == EventCode.REVEAL]
    assert [e.seat for e in reveals] == [0, 1, 2]
    assert all(e.visible_to is None and len(e.cards) == 3 for e in reveals)
    assert g.outcome().hands == tuple(e.cards for e in reveals)
    assert g.view(None)["revealed"] == [e.cards for e in reveals]
    assert g.view(0)["hand"] == b""


def test_rule_7_1_not_enough_seats_pay_the_stake_to_each_enough_seat() -> None:
    g = play_two_enough()
    out = g.outcome()
    assert out.detail["enough"] == [True, True, False]
    assert out.detail["liangzi"] == [1, 1, 0]
    assert out.scores == (1 - 1 + 2, 1 - 1 + 2, -2 - 1 - 1)
    g3 = rig(*TWO_ENOUGH)
    g3.rules = Niujiu.ruleset("standard", stake=3, liangzi_bonus=0)
    g3.occupied = [list(c("C2 D2 H2 S2 C3 D3")), [], list(c("CA"))]
    g3.over = True
    assert g3.scores() == (6, -3, -3)  # one seat enough wins 2 stakes


def test_rule_7_2_every_liangzi_in_an_occupied_pattern_pays_a_bonus() -> None:
    g = rig("CA DA HA SA C2 D2 H2 S2 C3 D3 H3 S3", "", "", ruleset="play-out")
    act(g, 0, ActCode.LEAD, "CA DA HA SA C2 D2 H2 S2 C3 D3 H3 S3")  # 四鱼 holds three liangzi
    g.apply(1, g.default_action(1))
    g.apply(2, g.default_action(2))
    assert g.liangzi(0) == 3
    g = rig("C7 D7 H7 S7 H5 S5 C8 D8 H8 S8 HT SK", "", "", ruleset="play-out")
    act(g, 0, ActCode.LEAD, "C7 D7 H7 S7 H5 S5")  # 喜包亮
    g.apply(1, g.default_action(1))
    g.apply(2, g.default_action(2))
    act(g, 0, ActCode.LEAD, "C8 D8 H8 S8 HT SK")  # 摆亮
    g.apply(1, g.default_action(1))
    g.apply(2, g.default_action(2))
    assert g.liangzi(0) == 2


def test_rule_7_3_four_Ks_count_as_a_liangzi_together_or_not() -> None:
    g = rig("CK DK HK SK", "", "", ruleset="play-out")
    for k in ("CK DK", "HK", "SK"):
        act(g, 0, ActCode.LEAD, k)
        g.apply(1, g.default_action(1))
        g.apply(2, g.default_action(2))
        assert g.liangzi(0) == (1 if k == "SK" else 0)


def test_rule_7_4_scores_sum_to_zero_and_the_detail_is_whole() -> None:
    for seed in range(100):
        g = finish(Niujiu(seed), seed)
        out = g.outcome()
        assert sum(out.scores) == 0 and len(out.scores) == 3
        assert out.detail["occupied_count"] == [len(o) for o in out.detail["occupied"]]
        assert out.detail["covered_count"] == [len(x) for x in g.covered]
        assert out.detail["enough"] == [n >= ENOUGH for n in out.detail["occupied_count"]]


# ---------------------------------------------------------------------------------- §8
def test_rule_8_1_a_leader_that_times_out_leads_its_lowest_single() -> None:
    g2 = rig("H5 S3 SK D7", "CA DA HA SA", "C2 D2 H2 S2", fill=False)
    assert g2.default_action(0) == GameAction(ActCode.LEAD, c("H5"))  # 5 is below 3 (R2.1)


def test_rule_8_2_an_answering_seat_that_times_out_covers_its_k_lowest_cards() -> None:
    g = rig("H7 S7 C8 CA", "SK H3 D5 C2", "HQ S9 DJ HT", fill=False)
    act(g, 0, ActCode.LEAD, "H7 S7")
    with pytest.raises(GameError):
        g.default_action(2)  # not its turn yet
    assert g.default_action(1) == GameAction(ActCode.COVER, c("C2 D5"))
    g.apply(1, g.default_action(1))
    assert g.default_action(2) == GameAction(
        ActCode.COVER, bytes(sorted(c("S9 DJ")))
    )  # DJ ties HT: the lower byte goes


# ---------------------------------------------------------------------------------- §9
def test_rule_9_views_show_own_hand_public_plays_and_only_counts_of_covers() -> None:
    g = Niujiu(11)
    rng = random.Random(11)
    for _ in range(9):
        seat = g.to_act()[0]
        opt = rng.choice(g.legal(seat).options)
        g.apply(seat, GameAction(opt.code, bytes(rng.sample(list(opt.cards), opt.pick))))
    for seat in (0, 1, 2):
        v = g.view(seat)
        assert v["hand"] == bytes(sorted(g.hands[seat]))
        assert v["hand_size"] == [len(h) for h in g.hands]
        assert v["covered_count"] == [len(x) for x in g.covered]
        assert v["my_covered"] == bytes(sorted(g.covered[seat]))
    spectator = g.view(None)
    assert spectator["hand"] == b"" and spectator["my_covered"] == b""
    assert Counter(b"".join(_bytes_of(spectator))) == Counter(g.public())


def test_rule_9_lead_and_eat_events_carry_the_pattern_kind() -> None:
    g = rig("H9 S9 C7", "C8 D8 H8", "")
    (lead,) = act(g, 0, ActCode.LEAD, "H9 S9")
    assert lead.code == 0x20 and lead.arg == Kind.NIU_PAIR
    g = rig("C7 D7", "C8 D8", "")
    act(g, 0, ActCode.LEAD, "C7 D7")
    (eat,) = act(g, 1, ActCode.EAT, "C8 D8")
    assert eat.code == 0x21 and eat.arg == Kind.PAIR


def test_copy_is_independent_and_replays_agree() -> None:
    g = Niujiu(5)
    play = copy.deepcopy(g)
    play_random(play, random.Random(5))
    assert not g.log and g.to_act() == (0,) and len(g.concealed(0)) == 16
    again = Niujiu.replay(5, None, play.log)
    assert again.events == play.events and again.outcome() == play.outcome()
