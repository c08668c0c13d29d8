"""Design.md §7.4 on hand-picked positions: the hu distance, the information set {Q : D} of the
23345 bamboo example, the expected value of each discard, and the claim test."""

from __future__ import annotations

from paiju.bots.mahjong.goals import SEVEN_PAIRS
from paiju.bots.mahjong.memory import Meld, Memory
from paiju.bots.mahjong.robots import BDIHuDist
from paiju.bots.mahjong.rulebase import RuleBase
from paiju.bots.mahjong.strategies import HuDist, Policies, useful
from paiju.games import GameAction
from paiju.games.mahjong import information_set
from paiju.protocol import Option
from paiju.protocol.cards import format_tiles as f
from paiju.protocol.cards import parse_tiles as t
from paiju.protocol.mahjong import ActCode

RB = RuleBase(seven_pairs=False, honours=False)


def memory_23345(offer: str = "", offer_from: int | None = None) -> Memory:
    """23345 bamboo with three sets already down (the seed's 5-tile example)."""
    m = Memory(seat=0, hand=t("23345s"), honours=False)
    m.melds[0] = [Meld("pong", t("111m")), Meld("pong", t("999p")), Meld("pong", t("555m"))]
    for meld in m.melds[0]:
        m.note_seen(meld.tiles)
    if offer:
        m.offer = t(offer)[0]
        m.offer_from = offer_from
        m.note_seen(t(offer))
    return m


def test_information_set_of_23345() -> None:
    # the seed: five routes at d = 1; Q1 = {3B, 6B} with D = {2B}, Q2 = {2B, 5B} with D = {3B}
    s = information_set(t("23345s"), melds=3, seven_pairs=False)
    assert s.distance == 1
    routes = sorted((f(i.needed), f(i.discardable)) for i in s.items)
    assert routes == [("2s", "3s"), ("3s", "2s"), ("3s", "5s"), ("5s", "3s"), ("6s", "2s")]
    # the strategy's per-discard view of it: for each D tile, the union of the Q tiles
    m = memory_23345()
    opts = {o.tile: o for o in HuDist().options(m, RB, m.hand, 3)}
    assert {f(bytes([x])) for x in opts} == {"2s", "3s", "5s"}  # exactly the D tiles of the set
    for x, o in opts.items():
        q = {n for i in s.items if i.discardable == bytes([x]) for n in i.needed}
        assert set(o.needed) == q
    assert f(opts[t("2s")[0]].needed) == "36s" and f(opts[t("3s")[0]].needed) == "25s"


def test_expected_value_prefers_more_unseen_needed_tiles() -> None:
    m = memory_23345()
    best = HuDist(alpha=0.0).options(m, RB, m.hand, 3)
    # throwing 5s waits on 3s only (two unseen); 2s and 3s each wait on two ranks
    assert f(bytes([best[-1].tile])) == "5s"
    m.note_seen(t("6s 6s 6s 6s"))  # all 6s gone: throwing 2s now needs 3s only
    best = HuDist(alpha=0.0).options(m, RB, m.hand, 3)
    assert f(bytes([best[0].tile])) == "3s"


def test_useful_draws_are_the_union_of_needed_tiles() -> None:
    d, good = useful(RB, t("123m 456m 789m 1235p"), 0, tuple(sorted(t("123456789m 123456789p 123456789s"))))
    assert d == 1 and f(good) == "5p"  # 123p + 5p waiting for its pair; 4p makes 12345p, no pair


def test_claim_is_taken_when_it_brings_the_hand_nearer() -> None:
    # three sets down, 2335s in hand (two from a win); 4s from the left neighbour: chow 345s
    # (or 234s) and one discard leave a single tile waiting for its pair (one from a win)
    robot = BDIHuDist()
    m = memory_for_claim("2335s", "4s", 3)
    assert RB.distance(m.hand, 3) == 2
    opts = [
        Option.exactly(ActCode.CHOW, t("35s")),
        Option.exactly(ActCode.CHOW, t("23s")),
        Option.exactly(ActCode.PASS),
    ]
    trace = robot.think_memory(m, RB, 1 << ActCode.CHOW | 1 << ActCode.PASS, opts)
    assert trace.action.code == ActCode.CHOW
    # from across the table a chow is not offered, and nothing else helps: pass
    m = memory_for_claim("2335s", "4s", 2)
    trace = robot.think_memory(m, RB, 1 << ActCode.PASS, [Option.exactly(ActCode.PASS)])
    assert trace.action.code == ActCode.PASS


def memory_for_claim(hand: str, offer: str, offer_from: int) -> Memory:
    m = Memory(seat=0, hand=t(hand), honours=False)
    m.melds[0] = [Meld("pong", t("111m")), Meld("pong", t("999p")), Meld("pong", t("555m"))]
    m.hand = t(hand)
    m.offer = t(offer)[0]
    m.offer_from = offer_from
    m.note_seen(t(offer))
    return m


def test_pass_when_the_best_discard_after_the_claim_is_the_claimed_tile() -> None:
    # design.md §7.4's test: take the offered tile into the hand; if the best discard is then the
    # tile itself, pass. 123m 456m 789m 55p 78s is ready; a 1p from the left could be chowed
    # with nothing, and with 1p in hand the best discard is 1p: pass
    strategy = HuDist()
    robot = BDIHuDist(strategy)
    m = Memory(seat=0, hand=t("123m 456m 789m 23p 78s"), honours=False)
    m.offer, m.offer_from = t("9s")[0], 3
    assert strategy.options(m, RB, m.hand + t("9s"), 0)[0].tile != t("9s")[0]  # 9s would be kept
    assert not strategy.best_discard_is(m, RB, m.hand + t("9s"), t("9s")[0], 0)
    m.offer = t("1s")[0]
    assert strategy.options(m, RB, m.hand + t("1s"), 0)[0].tile == t("1s")[0]
    assert strategy.best_discard_is(m, RB, m.hand + t("1s"), t("1s")[0], 0)
    trace = robot.think_memory(m, RB, 1 << ActCode.PASS, [Option.exactly(ActCode.PASS)])
    assert trace.action.code == ActCode.PASS
    # a hand one tile away takes the win at once
    m = memory_for_claim("5s", "5s", 2)
    m.melds[0].append(Meld("pong", t("222p")))
    opts = [Option.exactly(ActCode.HU), Option.exactly(ActCode.PASS)]
    trace = robot.think_memory(m, RB, 1 << ActCode.HU | 1 << ActCode.PASS, opts)
    assert trace.action.code == ActCode.HU


def test_pong_passed_when_it_does_not_lower_the_distance() -> None:
    robot = BDIHuDist()
    # 123m 456m 789m 55p 78s: ready (waits 6s 9s); ponging 5p loses the pair: not nearer
    m = Memory(seat=0, hand=t("123m 456m 789m 55p 78s"), honours=False)
    m.offer = t("5p")[0]
    m.offer_from = 2
    m.note_seen(t("5p"))
    opts = [Option.exactly(ActCode.PONG, t("55p")), Option.exactly(ActCode.PASS)]
    trace = robot.think_memory(m, RB, 1 << ActCode.PONG | 1 << ActCode.PASS, opts)
    assert trace.action.code == ActCode.PASS


def test_seven_pairs_is_planned_one_tile_further_while_two_away() -> None:
    # 33m 22s 22p 44p 55p + 3s 4s 5s 9s: seven pairs is 2 from a win, the standard form 3
    rb = RuleBase(seven_pairs=True, honours=False)
    hand = t("33m 223459s 224455p")
    assert rb.pair_distances(hand) == (3, 3, 3, 99, 2)
    opts = [Option(ActCode.DISCARD, bytes(sorted(set(hand))), 1)]
    exact = BDIHuDist(HuDist(seven_pairs_penalty=0)).think_memory(Memory(0, hand, honours=False), rb, 1, opts)
    assert exact.goal == 1 << SEVEN_PAIRS and f(exact.action.cards) == "3s"  # a single of seven pairs
    # counted 3 (it can make no chow or pong), seven pairs ties the standard form: both are
    # kept, and the discard keeps 2345s for the standard form as well
    planned = BDIHuDist().think_memory(Memory(0, hand, honours=False), rb, 1, opts)
    assert planned.goal == 0b10111 and f(planned.action.cards) == "9s"
    # one from a win a seven-pairs wait is as good as any: no penalty
    ready = t("33m 22s 22p 44p 55p 77s 9s")
    assert RuleBase(seven_pairs=True, seven_pairs_penalty=1).distance(ready) == rb.distance(ready) == 1


def test_ready_is_declared_only_with_a_wide_enough_wait() -> None:
    opts = [Option(ActCode.DISCARD, t("9s"), 1), Option(ActCode.READY, t("9s"), 1)]
    mask = 1 << ActCode.DISCARD | 1 << ActCode.READY
    strict = BDIHuDist(HuDist(ready_min=5))
    # throwing 9s waits on 5s alone (3 unseen): under 5, not worth locking the hand
    thin = Memory(seat=0, hand=t("123m 456m 789m 123p 5s 9s"), honours=False)
    assert strict.think_memory(thin, RB, mask, opts).action == GameAction(ActCode.DISCARD, t("9s"))
    # waiting on 3s or 6s (8 unseen): declare ready with the discard
    wide = Memory(seat=0, hand=t("123m 456m 789m 11p 45s 9s"), honours=False)
    assert strict.think_memory(wide, RB, mask, opts).action == GameAction(ActCode.READY, t("9s"))
    # playing for points, hudist declares with any wait (the bonus is worth the lock,
    # docs/robots.md); rearrange keeps the shared default, 3
    assert BDIHuDist().think_memory(wide, RB, mask, opts).action == GameAction(ActCode.READY, t("9s"))
    assert HuDist().policies.ready_min == 1 and Policies().ready_min == 3


def test_draw_ahead_is_off_and_breaks_a_tie_by_the_next_draw() -> None:
    # two from a win; throwing 3m or 8m leaves the same needed tiles, so the one-ply E ties
    # (and the lower tile goes); looking a draw ahead keeps 3345m, which more draws widen
    rb = RuleBase(seven_pairs=False, honours=False)
    m = Memory(seat=0, hand=t("33458m 2366s 24678p"), honours=False)
    one = HuDist().options(m, rb, m.hand, 0)
    assert HuDist().draw_ahead is None
    assert f(bytes([one[0].tile])) == "3m" and one[0].value == one[1].value
    ahead = HuDist(draw_ahead=1.0).options(m, rb, m.hand, 0)
    assert f(bytes([ahead[0].tile])) == "8m"
    # the look-ahead reads only this seat's view: the unseen counts weigh every draw
    part = bytes(sorted(m.hand.replace(t("8m"), b"", 1)))
    gain = HuDist().draw_gain(m, rb, part, 0, 2, one[0].p_q)
    m.note_seen(t("1s 1s 1s 4s 4s 4s 3p 3p 3p"))  # most of the needed tiles seen elsewhere
    assert HuDist().draw_gain(m, rb, part, 0, 2, one[0].p_q) < gain
