"""Design.md §7.5: the rearrangement R: A -> (Ar, p), the pair variant (Ar', p'), the
comparison of out/in pairs, pwin and the goal the filter picks -- on hand-picked suits."""

from __future__ import annotations

from paiju.bots.mahjong.goals import suits_of
from paiju.bots.mahjong.memory import Memory
from paiju.bots.mahjong.rulebase import RuleBase
from paiju.bots.mahjong.stateset import MAX, pair_variant, rearrange, smaller, state_set, weight
from paiju.bots.mahjong.strategies import Rearrange
from paiju.protocol.cards import format_tiles as f
from paiju.protocol.cards import parse_tiles as t

LIVE = [4] * 9


def counts(text: str) -> list[int]:
    c = [0] * 9
    for b in t(text):
        c[(b & 0xF) - 1] += 1
    return c


def test_step2_runs_without_spare_copies_come_first() -> None:
    # 123 and 789 have no spare copies: placed first, in order; nothing to throw or get
    r = rearrange(0, counts("123789m"), LIVE)
    assert f(r.ar) == "123789m" and r.p == (0, 0)


def test_step3_pungs_then_step4_runs_with_spare_copies() -> None:
    # 2223 4: no spare-free run at 2 (three 2s); pung 222 (step 3), then the run 234 (step 4)
    r = rearrange(0, counts("222234m"), LIVE)
    assert f(r.ar) == "222234m" and r.p == (0, 0)
    # 112233: each rank twice -> step 4 takes 123 twice
    r = rearrange(1, counts("112233s"), LIVE)
    assert f(r.ar) == "123123s" and r.p == (0, 0)


def test_steps5_6_live_pairs_want_a_tile_dead_pairs_are_thrown() -> None:
    avail = list(LIVE)
    avail[4] = 0  # every other 5 is already seen
    r = rearrange(2, counts("1155p"), avail)
    assert f(r.ar) == "1155p"  # the live pair (step 5) before the dead one (step 6)
    assert r.p == (2, 1) and f(r.wants) == "1p"
    assert f(r.outs) == "55p"  # the last `out` tiles of Ar


def test_step7_singles_most_obtainable_first_so_the_scarce_one_goes_first() -> None:
    avail = [4, 4, 4, 4, 4, 4, 1, 4, 4]
    r = rearrange(0, counts("159m 7m"), avail)
    assert r.p == (4, 0)
    assert r.outs[0] == t("7m")[0]  # only one 7m left to draw: thrown first
    assert f(bytes([r.ar[-1]])) == "7m"


def test_honours_steps() -> None:
    # EEE (pung) NN (live pair) WW (dead pair) C (single)
    avail = [1, 4, 0, 2, 3, 4, 4]
    r = rearrange(3, [3, 0, 2, 2, 1, 0, 0], avail)
    assert f(r.ar) == "EEEWWNNC"[:0] + f(r.ar)  # formatting round trip
    assert r.ar[:3] == t("EEE") and r.ar[3:5] == t("NN") and r.ar[5:7] == t("WW") and r.ar[7:] == t("C")
    assert r.p == (3, 1) and f(r.wants) == "N"


def test_seed_comparison_counts_a_tile_to_get_as_two_to_throw() -> None:
    assert weight((1, 1)) == 3 and weight((0, 2)) == 4
    assert smaller((2, 0), (0, 2)) and not smaller((2, 1), (4, 0))


def test_pair_variant_steps_of_4_2() -> None:
    # 23345 bamboo (design.md §7.4's example) around a pair: best is one 2 kept for the pair
    # (cost (m, n + 1) of step 4) with 345 + a 3 to throw: (1, 1)
    avail = [4, 3, 2, 3, 3, 4, 4, 4, 4]
    r = pair_variant(1, counts("23345s"), avail)
    assert r.p == (1, 1) and f(r.ar) == "23453s" and f(r.outs) == "3s"
    # step 3: a single that cannot be paired is skipped; step 6: two copies set aside
    avail = [0, 4, 4, 4, 4, 4, 4, 4, 4]
    r = pair_variant(0, counts("1m 55m 678m"), avail)
    assert r.p == (1, 0) and r.ar[:2] == t("55m") and f(r.outs) == "1m"
    # an empty suit: a pair must be drawn (paiju's reading, docs/robots.md)
    assert pair_variant(2, [0] * 9, LIVE).p == (0, 2)
    assert pair_variant(2, [0] * 9, [0] * 9).p == MAX


def test_pwin_and_the_goal_the_filter_keeps() -> None:
    hand = t("123m 456m 789m 23345s")
    mem = Memory(seat=0, hand=hand, honours=False)
    s = state_set(hand, mem.unseen, honours=False)
    assert s.padd == (2, 0)
    assert s.pwin(1) == (1, 1)  # the pair in 条: throw one, get one
    assert s.pwin(3) == MAX  # no honours in the championship set
    strat = Rearrange(partials=False)
    rb = RuleBase(seven_pairs=False, honours=False)
    goals = strat.goals(mem, rb, s)
    assert suits_of(goals) == [0, 1, 2]
    goal = strat.filter(goals, mem, rb, s)
    assert goal == 0b0010  # 条 holds the pair
    order, wants = strat.outs(goal, mem, s)
    assert order[0] == t("3s")[0] and t("2s")[0] in wants


def test_claims_the_seed_way_and_checked_by_the_rule_base() -> None:
    # 378m 3789s 334456p, 9m from the left neighbour. The intentions want 6m (the `in` tile
    # of the 78m block), not 9m: the seed's matcher passes. The rule base finds that the
    # chow 789m and a discard leave the hand one tile nearer a win: "checked" chows.
    from paiju.bots.mahjong.robots import BDIRobot
    from paiju.protocol import Option
    from paiju.protocol.mahjong import ActCode

    rb = RuleBase(seven_pairs=False, honours=False)
    hand = t("378m 3789s 334456p")

    def memory() -> Memory:
        m = Memory(seat=0, hand=hand, honours=False)
        m.offer, m.offer_from = t("9m")[0], 3
        m.note_seen(t("9m"))
        return m

    opts = [Option.exactly(ActCode.CHOW, t("78m")), Option.exactly(ActCode.PASS)]
    mask = 1 << ActCode.CHOW | 1 << ActCode.PASS
    seed = BDIRobot(Rearrange(claims="seed")).think_memory(memory(), rb, mask, opts)
    assert f(seed.intentions.wants) == "6m" and seed.action.code == ActCode.PASS
    checked = BDIRobot(Rearrange()).think_memory(memory(), rb, mask, opts)
    assert rb.distance(hand) == 3
    assert checked.action.code == ActCode.CHOW and checked.action.cards == t("78m")
