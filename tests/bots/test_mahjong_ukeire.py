"""The strong baseline ``ukeire`` on hand-picked positions: its counts, its discard, its
claims, its declarations; and the arena's mahjong figures from a short real match."""

from __future__ import annotations

import pytest

from paiju.bots import arena, arena_mahjong
from paiju.bots.mahjong.memory import Memory
from paiju.bots.mahjong.robots import rules_of
from paiju.bots.mahjong.rulebase import RuleBase
from paiju.bots.mahjong.ukeire import UkeireRobot, discards, ukeire
from paiju.games import GameAction
from paiju.protocol import Option
from paiju.protocol.cards import format_tiles as f
from paiju.protocol.cards import parse_tiles as t
from paiju.protocol.mahjong import ActCode

RB = RuleBase(seven_pairs=False, honours=False)


def test_ukeire_counts_the_unseen_copies_of_the_improving_tiles() -> None:
    m = Memory(seat=0, hand=t("123m 456m 789m 2345s"), honours=False)
    # 2345s waits on 2s or 5s (the pair): three of each unseen
    assert ukeire(m, RB, m.hand, 0) == 6
    m.note_seen(t("5s 5s"))
    assert ukeire(m, RB, m.hand, 0) == 4
    # two from a win: the count is every tile whose draw lowers the distance, tried one by one
    far = Memory(seat=0, hand=t("123m 456m 789m 24s 79p"), honours=False)
    d = RB.distance(far.hand)
    brute = sum(far.unseen[x] for x in far.tiles() if far.unseen[x] and RB.distance(far.hand + bytes([x])) < d)
    assert d == 2 and ukeire(far, RB, far.hand, 0) == brute == 3 + 4 + 3 + 3 + 4 + 3  # 2s 3s 4s, 7p 8p 9p


def test_discard_keeps_the_least_distance_then_the_most_ukeire() -> None:
    m = Memory(seat=0, hand=t("123m 456m 789m 23345s"), honours=False)
    ranked = discards(m, RB)
    assert [(f(bytes([x])), d, n) for x, d, n in ranked[:3]] == [("2s", 1, 6), ("3s", 1, 6), ("5s", 1, 2)]
    m.note_seen(t("6s 6s 6s"))  # throwing 2s now waits on 3s (2) and one 6s: 3s is better
    ranked = discards(m, RB)
    assert f(bytes([ranked[0][0]])) == "3s" and ranked[0][2] == 6


def _turn(hand: str) -> tuple[Memory, int, list[Option]]:
    m = Memory(seat=0, hand=t(hand), honours=False)
    opts = [Option(ActCode.DISCARD, bytes(sorted(set(m.hand))), 1)]
    return m, 1 << ActCode.DISCARD, opts


def test_declares_ready_whenever_it_can() -> None:
    m, mask, opts = _turn("123m 456m 789m 23345s")
    opts.append(Option(ActCode.READY, t("2s 3s 5s"), 1))
    act = UkeireRobot().decide_memory(m, RB, mask | 1 << ActCode.READY, opts)
    assert act == GameAction(ActCode.READY, t("2s"))


def _claim(hand: str, offer: str, source: int) -> Memory:
    m = Memory(seat=0, hand=t(hand), honours=False)
    m.offer, m.offer_from = t(offer)[0], source
    m.discards[source] = t(offer)
    m.note_seen(t(offer))
    return m


def test_claims_only_when_the_distance_drops_and_always_wins() -> None:
    robot = UkeireRobot()
    pong = [Option.exactly(ActCode.PONG, t("9p 9p")), Option.exactly(ActCode.PASS)]
    mask = 1 << ActCode.PONG | 1 << ActCode.PASS
    # one from a win (23s waits, 99p the pair): a pong of 9p leaves it one from a win
    m = _claim("123m 456m 789s 99p 23s", "9p", 2)
    assert robot.decide_memory(m, RB, mask, pong) == GameAction(ActCode.PASS)
    # 99p and a second pair 55s: the pong makes a set and the hand one tile nearer
    m = _claim("123m 456m 99p 55s 7s 13p", "9p", 2)
    assert RB.distance(m.hand) == 2
    assert robot.decide_memory(m, RB, mask, pong) == GameAction(ActCode.PONG, t("9p 9p"))
    win = [Option.exactly(ActCode.HU), Option.exactly(ActCode.PASS)]
    m = _claim("123m 456m 789m 2345s", "5s", 2)
    assert robot.decide_memory(m, RB, 1 << ActCode.HU | 1 << ActCode.PASS, win) == GameAction(ActCode.HU)


@pytest.mark.parametrize("ruleset", ["championship", "classic"])
def test_rules_of_reads_the_scoring(ruleset: str) -> None:
    rb = rules_of(ruleset)
    assert (rb.fan_basic, rb.fan_all_pungs, rb.fan_full_flush, rb.fan_seven_pairs) == (1, 2, 3, 4)
    assert rb.seven_pairs == (ruleset == "championship") and rb.honours == (ruleset == "classic")


def test_arena_mahjong_figures_agree_with_the_scores() -> None:
    report = arena.play("mahjong", ["ukeire", "greedy", "greedy", "greedy"], hands=3, seed=5)
    figures = arena_mahjong.stats(report)
    u, g = figures["ukeire"], figures["greedy"]
    assert u.hands == 12 and g.hands == 36
    assert report.robots["ukeire"].illegal == 0
    assert u.points.mean == pytest.approx(report.robots["ukeire"].mean_score)
    wins = sum(1 for rec in report.records for s, n in enumerate(rec.robots) if n == "ukeire" and rec.scores[s] > 0)
    assert u.win.mean == pytest.approx(wins / 12)
    assert 0 <= u.self_draw.mean <= u.win.mean and 0 <= u.deal_in.mean <= 1
    # the paired differences are each other's negatives
    assert u.difference["greedy"].mean == pytest.approx(-g.difference["ukeire"].mean)
    text = arena_mahjong.table(figures)
    assert "deal-in" in text and "points/hand ukeire - greedy" in text
