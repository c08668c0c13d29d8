"""The strong non-learning baseline ``ukeire``: tile efficiency.

What a strong rule-based mahjong robot does without any reading of the table: discard to
minimise the hu distance, and among the discards that keep it least, keep the hand that
the most tiles improve -- its *ukeire* (受入), the number of copies still unseen from this
seat of every tile whose draw would lower the distance. It claims (chow, pong, exposed
kong) only when the claim lowers the distance, always wins, and always declares ready
(报听) when its discard leaves the hand one tile from a win: the bonus is free to a robot
that would never change its wait anyway. It never kongs at its own turn and never defends.

>>> from paiju.protocol.cards import parse_tiles as t, format_tiles as f
>>> from .rulebase import RuleBase
>>> m = Memory(seat=0, hand=t("123m 456m 789m 23345s"), honours=False)
>>> [(f(bytes([x])), d, n) for x, d, n in discards(m, RuleBase(honours=False))][:3]
[('2s', 1, 6), ('3s', 1, 6), ('5s', 1, 2)]

Throwing 2s waits on 3s (2 unseen) or 6s (4); throwing 3s on 2s or 5s (3 each); throwing
5s only on 3s (2): all three keep the distance, the first two keep six tiles.
"""

from __future__ import annotations

from collections.abc import Sequence

from paiju.bots.base import Robot
from paiju.bots.mahjong import executor, matcher
from paiju.bots.mahjong.intentions import Intention
from paiju.bots.mahjong.memory import Memory
from paiju.bots.mahjong.perceptor import perceive
from paiju.bots.mahjong.robots import rules_of
from paiju.bots.mahjong.rulebase import RuleBase
from paiju.bots.mahjong.strategies import Strategy, remove, useful
from paiju.games import GameAction
from paiju.protocol import DecisionRequest, Option
from paiju.protocol.mahjong import ActCode


def ukeire(memory: Memory, rules: RuleBase, part: bytes, melds: int) -> int:
    """The ukeire of a part waiting for a draw: the unseen copies of the tiles that lower its distance."""
    _, needed = useful(rules, part, melds, memory.tiles())
    return sum(memory.unseen[x] for x in needed)


def _throw_order(tile: int) -> tuple[int, int]:
    # among equals: honours first, then the numbers farthest from the middle
    return (0 if tile >> 4 == 3 else 1, -abs((tile & 0xF) - 5))


def discards(memory: Memory, rules: RuleBase) -> list[tuple[int, int, int]]:
    """Every distinct discard of the hand (after a draw) as ``(tile, distance, ukeire)``, best
    first; the ukeire is counted for the discards at the least distance only (0 for the rest)."""
    hand, k = memory.hand, memory.own_melds
    dist = {t: rules.distance(remove(hand, t), k) for t in sorted(set(hand))}
    best = min(dist.values())
    out = [(t, d, ukeire(memory, rules, remove(hand, t), k) if d == best else 0) for t, d in dist.items()]
    out.sort(key=lambda o: (o[1], -o[2], _throw_order(o[0]), o[0]))
    return out


def claims(memory: Memory, rules: RuleBase) -> list[Intention]:
    """Win, then the chow, pong or exposed kong of the offered tile that lowers the distance most."""
    t, hand, k = memory.offer, memory.hand, memory.own_melds
    out: list[Intention] = []
    if rules.is_win(hand + bytes([t]), k):
        out.append(Intention(ActCode.HU))
    d_now = rules.distance(hand, k)
    found: list[tuple[int, int, bytes]] = []
    if k < 4:
        for code, pair in Strategy._claims(memory, t):
            part = remove(hand, *pair)
            d = min(rules.distance(remove(part, x), k + 1) for x in set(part))
            if d < d_now:
                found.append((d, code, pair))
        if hand.count(t) >= 3 and rules.distance(remove(hand, t, t, t), k + 1) < d_now:
            found.append((rules.distance(remove(hand, t, t, t), k + 1), ActCode.KONG, bytes([t] * 3)))
    out += [Intention(code, pair) for _, code, pair in sorted(found, key=lambda f: f[0])]
    out.append(Intention(ActCode.PASS))
    return out


class UkeireRobot(Robot):
    """The ``ukeire`` baseline (see the module)."""

    game = "mahjong"
    name = "ukeire"
    description = "fewest tiles from a win, then the most tiles that bring it nearer: the strong baseline"

    def decide(self, request: DecisionRequest) -> GameAction:
        return self.decide_memory(perceive(request), rules_of(request.ruleset), request.mask, request.options)

    def decide_memory(self, memory: Memory, rules: RuleBase, mask: int, options: Sequence[Option]) -> GameAction:
        if memory.offer:
            ranked = claims(memory, rules)
        else:
            ranked = [Intention(ActCode.HU)] if rules.is_win(memory.hand, memory.own_melds) else []
            opts = discards(memory, rules)
            if opts[0][1] == 1:
                ranked.append(Intention(ActCode.READY, bytes([opts[0][0]])))
            ranked += [Intention(ActCode.DISCARD, bytes([t])) for t, _, _ in opts]
        code, tiles = matcher.match(ranked, mask, options)
        return executor.pack(code, tiles)
