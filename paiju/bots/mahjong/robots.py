"""The mahjong robots: the BDI robot (design.md §7.5's architecture with a strategy from the
library) and the ``greedy`` baseline.

One decision runs the parts in the seed's order (Figure 2): the perceptor turns the
request into memory; the updater computes the state set (strategy method 1) and the goal
set; the filter keeps a goal (method 2); the decomposer turns it into intentions (method 3);
the matcher meets them with the offered action set; the executor packs the action.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from paiju import games
from paiju.bots.base import Robot
from paiju.bots.mahjong import executor, matcher
from paiju.bots.mahjong.intentions import Intention, Intentions
from paiju.bots.mahjong.memory import Memory
from paiju.bots.mahjong.perceptor import perceive
from paiju.bots.mahjong.rulebase import RuleBase
from paiju.bots.mahjong.stateset import StateSet
from paiju.bots.mahjong.strategies import STRATEGIES, HuDist, Rearrange, Strategy, remove, useful
from paiju.games import GameAction
from paiju.protocol import DecisionRequest, Option
from paiju.protocol.mahjong import ActCode


def rules_of(ruleset: str) -> RuleBase:
    """The rule base of a mahjong ruleset (its public options: seven pairs, honours, the scoring)."""
    return _rules_of(ruleset or "")


@functools.lru_cache(maxsize=16)
def _rules_of(ruleset: str) -> RuleBase:
    r = games.get("mahjong").ruleset(ruleset or None)
    scoring = ("fan_basic", "fan_all_pungs", "fan_full_flush", "fan_seven_pairs", "ready_bonus", "self_draw_bonus")
    return RuleBase(
        seven_pairs=bool(getattr(r, "seven_pairs", True)),
        honours=bool(getattr(r, "honours", True)),
        **{k: int(getattr(r, k)) for k in scoring if hasattr(r, k)},
    )


@dataclass
class Trace:
    """What each part produced for one decision (for tests and for explaining a choice)."""

    memory: Memory
    states: StateSet
    goals: int
    goal: int
    intentions: Intentions
    action: GameAction


class BDIRobot(Robot):
    """The BDI robot of design.md §7.5, with a replaceable strategy."""

    game = "mahjong"
    name: ClassVar[str] = "bdi"
    strategy_name: ClassVar[str] = "hudist"
    cpu_heavy = True  # some 0.7 ms a decision: the worker runs it in its pool, off the event loop

    def __init__(self, strategy: Strategy | None = None) -> None:
        self.strategy = strategy or STRATEGIES[self.strategy_name]()

    def think(self, request: DecisionRequest) -> Trace:
        memory = perceive(request)
        rules = rules_of(request.ruleset)
        return self.think_memory(memory, rules, request.mask, request.options)

    def think_memory(self, memory: Memory, rules: RuleBase, mask: int, options: Sequence[Option]) -> Trace:
        s = self.strategy
        rules = s.planning_rules(rules)
        states = s.states(memory, rules)  # the updater: state set ...
        goals = s.goals(memory, rules, states)  # ... and goal set
        goal = s.filter(goals, memory, rules, states)  # the filter
        intentions = s.decompose(goal, memory, rules, states)  # the decomposer
        code, tiles = matcher.match(intentions.ranked, mask, options)  # the matcher
        return Trace(memory, states, goals, goal, intentions, executor.pack(code, tiles))  # the executor

    def decide(self, request: DecisionRequest) -> GameAction:
        return self.think(request).action


class BDIHuDist(BDIRobot):
    name = "bdi-hudist"
    description = "plans its hand by hu distance (tiles away from a win) and plays safe once ready"
    strategy_name = "hudist"


class BDIRearrange(BDIRobot):
    name = "bdi-rearrange"
    description = "plans by rearranging tile pairs (the BDI strategy)"
    strategy_name = "rearrange"


class GreedyRobot(Robot):
    """The baseline: discard to minimise the hu distance (ties broken at random, seeded
    from the room and prompt), claim (chow, pong, kong) whenever the distance drops, win
    whenever it can; it never declares ready and never kongs at its own turn."""

    game = "mahjong"
    name = "greedy"
    description = "discards whatever brings the hand nearest a win; never declares ready"

    def decide(self, request: DecisionRequest) -> GameAction:
        memory = perceive(request)
        rules = rules_of(request.ruleset)
        rng = random.Random(f"{request.room}:{request.seat}:{request.prompt_id}")
        return self.decide_memory(memory, rules, request.mask, request.options, rng)

    def decide_memory(
        self,
        memory: Memory,
        rules: RuleBase,
        mask: int,
        options: Sequence[Option],
        rng: random.Random,
    ) -> GameAction:
        hand = memory.hand
        k = memory.own_melds
        ranked: list[Intention] = []
        if memory.offer:
            t = memory.offer
            if rules.is_win(hand + bytes([t]), k):
                ranked.append(Intention(ActCode.HU))
            d_now = rules.distance(hand, k)
            for code, pair in Strategy._claims(memory, t) + (
                [(ActCode.KONG, bytes([t] * 3))] if hand.count(t) >= 3 else []
            ):
                if k >= 4:
                    break
                part = remove(hand, *pair)
                if code == ActCode.KONG:
                    d = rules.distance(part, k + 1)
                else:
                    d = min(rules.distance(remove(part, x), k + 1) for x in set(part))
                if d < d_now:
                    ranked.append(Intention(code, pair))
            ranked.append(Intention(ActCode.PASS))
        else:
            if rules.is_win(hand, k):
                ranked.append(Intention(ActCode.HU))
            dist = {t: rules.distance(remove(hand, t), k) for t in sorted(set(hand))}
            best = min(dist.values())
            ties = [t for t, d in dist.items() if d == best]
            rng.shuffle(ties)
            ranked += [Intention(ActCode.DISCARD, bytes([t])) for t in ties]
            ranked += [
                Intention(ActCode.DISCARD, bytes([t])) for t, d in sorted(dist.items(), key=lambda x: x[1]) if d > best
            ]
        code, tiles = matcher.match(ranked, mask, options)
        return executor.pack(code, tiles)


__all__ = ["BDIHuDist", "BDIRearrange", "BDIRobot", "GreedyRobot", "HuDist", "Rearrange", "Trace", "useful"]
