"""``bdi-hudist`` playing for points on hand-picked positions: the deal-in
estimate, folding with a far hand against a declared-ready opponent, pushing with a ready
hand of high value, the discard of higher fan when the speeds are equal, claiming for speed,
and the ablations (``dama_below``, ``fold_ready``, ``claim_wider``)."""

from __future__ import annotations

from paiju.bots.mahjong.defence import Danger, loss
from paiju.bots.mahjong.memory import Meld, Memory
from paiju.bots.mahjong.rulebase import RuleBase
from paiju.bots.mahjong.strategies import HuDist
from paiju.bots.mahjong.value import all_pungs_distance, forms, value
from paiju.protocol.cards import format_tiles as f
from paiju.protocol.cards import parse_tiles as t
from paiju.protocol.mahjong import ActCode

RB = RuleBase(seven_pairs=True, honours=False)


def table(hand: str, *, ready: bool = True, theirs: str = "", others: str = "") -> Memory:
    """Seat 0 holds ``hand`` after a draw; seat 1 (declared ready or not) threw ``theirs``,
    seat 2 threw ``others``; 30 tiles left in the wall."""
    m = Memory(seat=0, hand=t(hand), honours=False)
    m.ready = [False, ready, False, False]
    m.discards = [b"", t(theirs) if theirs else b"", t(others) if others else b"", b""]
    for d in m.discards:
        m.note_seen(d)
    m.wall = 30
    return m


def choice(strategy: HuDist, m: Memory) -> str:
    return f(bytes([strategy.options(m, RB, m.hand, 0)[0].tile]))


def test_deal_in_estimate_reads_the_table() -> None:
    m = table("123m 456m 789m 1234s 9p", ready=False)
    quiet = Danger.of(m)
    m.ready[1] = True
    d = Danger.of(m)
    five, one = t("5p")[0], t("1p")[0]
    before = d.deal_in(five)  # (a Danger reads the memory it was made from: keep the figure)
    assert before > quiet.deal_in(five)  # a declaration raises every tile's danger
    assert before > d.deal_in(one) > 0  # middle tiles complete more waits than terminals
    m.discards[1] = t("5p")
    assert Danger.of(m).deal_in(five) < before  # the seat threw 5p itself
    # holding or seeing every other 4p and 6p leaves fewer shapes waiting on 5p (the "wall")
    walled = table("123m 456m 789m 1234s 9p")
    walled.note_seen(t("4p 4p 4p 4p 6p 6p 6p 6p"))
    assert Danger.of(walled).deal_in(five) < before
    # a seat whose melds are all of one suit threatens a flush: dealing in costs more
    m.melds[1] = [Meld("pong", t("222s")), Meld("chow", t("345s"))]
    assert loss(m, 1, RB) > loss(table("1m", ready=True), 1, RB)


def test_folds_against_a_declared_ready_opponent_with_a_far_hand() -> None:
    # four from a win, every tile in a two-tile partial; seat 1 declared ready and threw 6m 7p 1s
    m = table("24m 68m 35p 79p 13s 57s 5m 9s", theirs="6m 7p 1s")
    fast = HuDist(push=None)  # speed (and a little safety) only
    assert RB.distance(m.hand) == 4
    assert choice(fast, m) not in ("1s", "6m", "7p")
    danger = Danger.of(m)
    pick = choice(HuDist(), m)
    assert pick == "1s"  # the safest tile: thrown by the ready seat, and a terminal
    assert danger.deal_in(t(pick)[0]) == min(danger.deal_in(x) for x in set(m.hand))
    # not declared: nobody is known to be ready, the robot plays for speed
    m.ready[1] = False
    assert choice(HuDist(), m) == choice(fast, m)


def test_pushes_with_a_ready_hand_of_high_value() -> None:
    # a full flush of 万 one tile from a win once the 5p goes; seat 1 declared ready and has
    # not thrown a 5p (a middle tile: among the most dangerous), 1m and 9p are safe
    m = table("1112345678999m 5p", theirs="1m 9p 1s 2s")
    danger = Danger.of(m)
    five = t("5p")[0]
    assert danger.deal_in(five) > danger.deal_in(t("1m")[0])
    assert choice(HuDist(), m) == "5p"
    opts = HuDist().options(m, RB, m.hand, 0)
    assert opts[0].distance == 1
    # the same hand four from a win would fold: its 5p is no safer
    assert choice(HuDist(), table("13579m 2468p 1379s 5p", theirs="1m 9p 1s 2s")) != "5p"


def test_prefers_the_discard_of_higher_fan_when_speeds_are_equal() -> None:
    # 111m 222p 333s 55m 66p + 7p: throwing 7p waits on 5m or 6p (all pungs, 2 fan),
    # throwing 6p waits on 5p or 8p (basic, 1 fan); two of each of 5p 8p are seen, so both
    # waits keep four tiles: the same distance and the same P_Q
    m = table("111m 222p 333s 55m 66p 7p", ready=False, others="5p 5p 8p 8p")
    speed = {f(bytes([o.tile])): o for o in HuDist(value=False).options(m, RB, m.hand, 0)}
    assert speed["7p"].distance == speed["6p"].distance == 1
    assert speed["7p"].p_q == speed["6p"].p_q
    assert choice(HuDist(), m) == "7p"
    assert forms(m, RB, t("111m 222p 333s 55m 66p"), 0)["all pungs"] == 1
    assert value(m, RB, t("111m 222p 333s 55m 66p"), 0, 1) > value(m, RB, t("111m 222p 333s 55m 67p"), 0, 1)
    # seven pairs (4 fan) against a basic hand at the same distance
    seven = table("1122m 3344p 5566s 7s 9p", ready=False)
    sp = forms(seven, RB, t("1122m 3344p 5566s 7s"), 0)["seven pairs"]
    assert sp == 1 and all_pungs_distance(t("1122m 3344p 5566s 7s"), 4, seven.unseen) > 1


def test_tiles_passed_after_a_declaration_are_safe_and_their_suji_safer() -> None:
    m = table("123m 456m 789m 1234s 9p", theirs="2m")
    before = Danger.of(m)
    four, one, seven, two = (t(x)[0] for x in ("4p", "1p", "7p", "2m"))
    m.passed[1] = frozenset({four})  # a 4p went by after seat 1 declared, and it did not win
    d = Danger.of(m)
    assert d.deal_in(four) == 0.0 < before.deal_in(four)
    # the two-sided shapes 23p and 56p would have won on that 4p: 1p and 7p keep only the others
    assert d.deal_in(one) / d.deal_in(t("1s")[0]) < before.deal_in(one) / before.deal_in(t("1s")[0])
    assert d.deal_in(seven) < d.deal_in(t("6p")[0])
    # the danger shed by the safe tiles goes to the rest; a tile it threw before declaring
    # keeps a part of its weight
    assert d.deal_in(t("5s")[0]) > before.deal_in(t("5s")[0])
    assert 0 < d.deal_in(two) < d.deal_in(t("3m")[0])


def test_folds_with_a_tile_that_went_by_after_the_declaration() -> None:
    # four from a win; seat 1 declared ready, after which seat 2 threw a 5p (and seat 1 did
    # not win on it): folding, the robot throws its 5p, a middle tile it would not risk blind
    m = table("24m 68m 35p 79p 13s 57s 5m 9s", others="5p")
    blind = choice(HuDist(), m)
    assert blind != "5p"
    m.passed[1] = frozenset(t("5p"))
    assert choice(HuDist(), m) == "5p"
    assert Danger.of(m).chance(1, t("5p")[0]) == 0.0  # (seat 2, not declared, keeps a small threat)


def test_claims_for_speed_where_the_claim_costs_value() -> None:
    # three pairs, four tiles from a win: the value counts seven pairs (4 fan) as near as the
    # standard form, so a pong of 1m "keeps" too little of it; the robot (claim_keep=0, the
    # measured best) pongs anyway, HuDist(claim_keep=0.5) lets the tile go
    m = table("11448m 2679s 1299p", ready=False)
    m.offer, m.offer_from = t("1m")[0], 2
    assert RB.distance(m.hand) == 4
    assert HuDist().decompose(0, m, RB, None).ranked[0].code == ActCode.PONG  # type: ignore[arg-type]
    assert HuDist(claim_keep=0.5).decompose(0, m, RB, None).ranked[0].code == ActCode.PASS  # type: ignore[arg-type]


def test_dama_below_keeps_a_thin_wait_undeclared_while_an_opponent_has_declared() -> None:
    # throwing 9s leaves 123m 456m 789m 23p 55s waiting on 1p or 4p; seat 1 threw three 4p
    # and a 1p, seat 2 two 1p: two winning tiles left unseen, a thin wait
    m = table("123m 456m 789m 23p 55s 9s", theirs="4p 4p 4p 1p", others="1p 1p")
    assert sum(m.unseen[w] for w in RB.waits(t("123m 456m 789m 23p 55s"))) == 2
    assert HuDist().ready_min(m) == 1
    assert HuDist(dama_below=3).ready_min(m) == 3
    assert HuDist().decompose(0, m, RB, None).ranked[0].code == ActCode.READY  # type: ignore[arg-type]
    assert HuDist(dama_below=3).decompose(0, m, RB, None).ranked[0].code == ActCode.DISCARD  # type: ignore[arg-type]
    m.ready[1] = False  # nobody declared: the same wait is declared
    assert HuDist(dama_below=3).ready_min(m) == 1


def test_fold_ready_lets_a_hand_step_back_from_a_dangerous_ready_discard() -> None:
    # seat 1 declared ready; throwing 6s leaves the hand ready but is a likely winning tile of
    # seat 1's, throwing 8p goes back to two from a win with a safer tile
    m = table("23456788m 6s 23468p", theirs="7p 3s 2p 3p 6m 9p")
    d = Danger.of(m)
    six, eight = t("6s")[0], t("8p")[0]
    assert RB.distance(t("23456788m 23468p")) == 1 and RB.distance(t("23456788m 6s 2346p")) == 2
    assert d.deal_in(six) > 2 * d.deal_in(eight)
    assert choice(HuDist(), m) == "6s"  # by default a hand one tile from a win always pushes
    assert choice(HuDist(fold_ready=True), m) == "8p"


def test_claim_wider_takes_a_chow_that_keeps_the_distance_and_widens_the_hand() -> None:
    # 56m 34666789s 456p with 6p offered by the seat on the left: chowing 45p+6p leaves the
    # distance as it is, but what is left (56m 34666789s 6p after the best discard) waits on more
    m = table("56m 34666789s 456p", ready=False, theirs="1p 4m 5p 8m 1s 9m")
    m.offer, m.offer_from = t("6p")[0], 3
    now = RB.distance(m.hand)
    part = bytes(sorted(t("56m 34666789s 6p")))
    assert min(RB.distance(bytes(sorted(part[:i] + part[i + 1 :])), 1) for i in range(len(part))) == now
    assert HuDist().decompose(0, m, RB, None).ranked[0].code == ActCode.PASS  # type: ignore[arg-type]
    top = HuDist(claim_wider=1.0).decompose(0, m, RB, None).ranked[0]  # type: ignore[arg-type]
    assert (top.code, f(top.tiles)) == (ActCode.CHOW, "45p")
