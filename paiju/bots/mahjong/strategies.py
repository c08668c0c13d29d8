"""The strategy library (design.md §7.5 策略库): replaceable methods for the BDI parts.

A strategy supplies the three methods the seed lists -- how the state set is computed
(for the updater), how the filter picks among the goals, how the decomposer turns the
chosen goal into intentions -- plus the goal set itself. Two strategies:

- :class:`Rearrange` (``rearrange``): design.md §7.5's out/in pairs. Goal: the pair suit ``i``
  of least ``out + in`` of ``pwin_i``; throw the last ``out`` tiles of ``Ar`` (``Ar'``).
- :class:`HuDist` (``hudist``): design.md §7.4. Goal: every form at the least hu distance;
  intentions ranked by ``E = alpha * P_D + beta * P_Q`` over the information set, from the
  tiles unseen from this seat, with ``P_Q`` weighed by the hand's points (:mod:`.value`),
  ``P_D`` from the deal-in estimate and a fold/push rule against a declared-ready seat
  (:mod:`.defence`); chow and pong judged as "take a known tile, then discard"
  and passed when the best discard after the claim would be the claimed tile (the hand
  would be no nearer a win than without the claim).

The policies for a win, kongs and declaring ready are shared (:class:`Policies`,
docs/robots.md; only the ready threshold differs, as measured), so the strategies differ
only where the seeds differ.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from abc import ABC, abstractmethod
from collections import Counter
from dataclasses import dataclass

from paiju.bots.mahjong.defence import Danger, declared_against
from paiju.bots.mahjong.goals import SEVEN_PAIRS, goal_byte, lowest, suits_of
from paiju.bots.mahjong.intentions import Intention, Intentions
from paiju.bots.mahjong.learned import features
from paiju.bots.mahjong.learned import load as load_model
from paiju.bots.mahjong.memory import Meld, Memory
from paiju.bots.mahjong.rulebase import NO_WAY, RuleBase
from paiju.bots.mahjong.stateset import MAX, StateSet, state_set, weight
from paiju.bots.mahjong.value import basic_points, fan, value
from paiju.bots.memo import bounded
from paiju.protocol.mahjong import ActCode


def remove(tiles: bytes, *take: int) -> bytes:
    """``tiles`` less one copy of each of ``take``."""
    rest = bytearray(tiles)
    for t in take:
        rest.remove(t)
    return bytes(rest)


def useful(rb: RuleBase, part: bytes, melds: int, domain: tuple[int, ...]) -> tuple[int, bytes]:
    """The hu distance of a part waiting for a draw, and the draws that lower it (the union
    of the needed tiles ``Q_i`` of its information set).

    Only tiles near the hand (same tile, or a number within two ranks) are tried one by
    one; the others are all alike -- a tile with no neighbour can only start a fresh set or
    pair, which any other such tile starts as well -- so one of them stands for all.
    """
    # cached on plain values: a key holding the RuleBase would stay tracked by the garbage
    # collector, and a full cache would lengthen its every full collection (paiju/cli/heap.py)
    return _useful(rb.seven_pairs, rb.seven_pairs_penalty, part, melds, domain)


def _near(have: Counter[int]) -> set[int]:
    """The tiles that could join a tile held in a set or a partial one: for an honour only
    itself, for a suited tile those within two of it in its suit."""
    near: set[int] = set()
    for t in have:
        if t >> 4 == 3:
            near.add(t)
        else:
            near.update(x for x in range(t - 2, t + 3) if x >> 4 == t >> 4 and 1 <= x & 0xF <= 9)
    return near


@bounded(1 << 15)
def _useful(seven_pairs: bool, penalty: int, part: bytes, melds: int, domain: tuple[int, ...]) -> tuple[int, bytes]:
    rb = _distances(seven_pairs, penalty)
    d = rb.distance(part, melds)
    have = Counter(part)
    near = _near(have)
    good = [t for t in domain if t in near and have[t] < 4 and rb.distance(part + bytes([t]), melds) < d]
    far = [t for t in domain if t not in near]
    if far and rb.distance(part + bytes(far[:1]), melds) < d:
        good += far
    return d, bytes(sorted(good))


@bounded(1 << 13)
def _after(
    seven_pairs: bool, penalty: int, drawn: bytes, melds: int, domain: tuple[int, ...]
) -> tuple[int, tuple[bytes, ...]]:
    """For a hand just after a draw: the least distance of its discards (0 if it wins) and,
    for each discard at that distance, the tiles that would lower it (:func:`useful`) --
    the shape of the look-ahead, which the unseen counts then weigh (plain values: a memo)."""
    rb = _distances(seven_pairs, penalty)
    if rb.is_win(drawn, melds):
        return 0, ()
    dist = {y: rb.distance(remove(drawn, y), melds) for y in set(drawn)}
    d = min(dist.values())
    wants = {useful(rb, remove(drawn, y), melds, domain)[1] for y, dy in dist.items() if dy == d}
    return d, tuple(sorted(wants))


@functools.cache
def _distances(seven_pairs: bool, penalty: int) -> RuleBase:
    """A rule base with the distance :func:`useful` needs (the rest of a ruleset does not enter it)."""
    return RuleBase(seven_pairs=seven_pairs, seven_pairs_penalty=penalty)


def win_chance(distance: int, p_q: float, rounds: int | None = None) -> float:
    """A rough chance that a part at ``distance`` wins against an opponent already one tile
    from a win (who wins in a round with chance ``RACE``): a round brings one draw and three
    discards (counted as one and a half draws more: the others keep what they need), so the
    hand moves on with chance ``2.5 P_Q`` a round, and wins the race with ``p / (p + RACE)``;
    each further step of distance keeps ``STEP_ODDS`` of that.

    With ``rounds`` (the rounds of draws the wall has left) the race also has a deadline: the
    steps, each a waiting time at its rate, must all come before the wall runs out
    (:func:`in_time`). Without it the wall is taken as endless.

    >>> round(win_chance(2, 0.2), 3), round(win_chance(2, 0.2, 12), 3), round(win_chance(2, 0.2, 3), 3)
    (0.25, 0.238, 0.092)
    """
    p = min(0.9, 2.5 * p_q)
    chance = p / (p + RACE) * STEP_ODDS ** (distance - 1)
    if rounds is None:
        return chance
    return chance * in_time(distance, round(p + RACE, 2), rounds)


@bounded(1 << 12)
def in_time(distance: int, first: float, rounds: int) -> float:
    """The chance that ``distance`` waiting times -- the first at rate ``first`` a round, the
    others at the rate of a further step -- add up to less than ``rounds``.

    Why this is the deadline of :func:`win_chance`: the chance of finishing the steps before
    an opponent who ends the hand at rate ``RACE``, and before ``rounds``, is
    ``E[exp(-RACE S); S < rounds]`` for ``S`` the sum of the steps' times; weighing each
    time's density by ``exp(-RACE s)`` turns a step of rate ``a`` into one of rate
    ``a + RACE`` times ``a / (a + RACE)``, so it is the endless race's chance times the chance
    that steps at the raised rates finish in time. Worked out on a grid of a quarter round.
    """
    later = RACE / (1 - STEP_ODDS)  # a further step's rate raised by RACE: its odds are STEP_ODDS
    dt = 0.25  # a quarter of a round: one step at most in a slot
    done = [1.0] + [0.0] * distance  # done[s]: the chance that s steps are behind
    moves = [1 - math.exp(-(first if s == 0 else later) * dt) for s in range(distance)]
    for _ in range(int(rounds / dt)):
        for s in range(distance - 1, -1, -1):
            went = done[s] * moves[s]
            done[s] -= went
            done[s + 1] += went
    return done[distance]


NEVER = 1 << 10  # a ready_min no wait reaches
RACE = 0.2
OTHERS_WIN = 0.04  # the chance a round that somebody else wins, with nobody declared
OTHERS_READY = 0.06  # more for each opponent who has declared ready
LOSS_ELSEWHERE = 1.0  # the points lost on average when another seat ends the hand
STEP_ODDS = 0.35
EXPOSED = 3.0  # the discards a hand that pushes on still has to make, each as dangerous
LOOKAHEAD_TOP = 4  # the best discards that the look-ahead ranks again (its cost grows with them)


@dataclass(frozen=True)
class Option:
    """One way to end the turn: the discard ``x`` and what the hand is then."""

    tile: int
    distance: int
    needed: bytes  # the union of Q_i over the routes that throw ``tile``
    p_q: float  # the chance the next tile (drawn or claimed) is one of them
    p_d: float  # the chance that throwing ``tile`` gives no opponent a win
    value: float  # E
    worth: float = 1.0  # V, the hand's points if it wins, relative to a basic hand


@dataclass(frozen=True)
class Policies:
    """Shared policies for a win, kongs and declaring ready (docs/robots.md).

    - win: always, on a discard or a self-draw (the hand ends at the first win);
    - kong: concealed or added when it leaves the hu distance as low as the best discard
      would, exposed (on a discard) when the hand without the three tiles is as near a win;
      the replacement draw is a free tile;
    - declare ready: when the discard leaves the hand ready with at least ``ready_min``
      winning tiles unseen (the wait is then locked, so a thin wait is not worth the bonus;
      ``hudist`` asks for 5, ``rearrange`` for 3: docs/robots.md gives the measurements).
    """

    ready_min: int = 3


class Strategy(ABC):
    """The three replaceable methods of design.md §7.5, plus the goal set."""

    name: str
    policies = Policies()

    def planning_rules(self, rules: RuleBase) -> RuleBase:
        """The rule base this strategy plans with (the ruleset's, unless it says otherwise)."""
        return rules

    @abstractmethod
    def states(self, memory: Memory, rules: RuleBase) -> StateSet:
        """Method 1 (for the updater): the state set."""

    @abstractmethod
    def goals(self, memory: Memory, rules: RuleBase, states: StateSet) -> int:
        """The goal set as one byte."""

    @abstractmethod
    def filter(self, goals: int, memory: Memory, rules: RuleBase, states: StateSet) -> int:
        """Method 2 (for the filter): the goal(s) kept, as a byte."""

    @abstractmethod
    def decompose(self, goal: int, memory: Memory, rules: RuleBase, states: StateSet) -> Intentions:
        """Method 3 (for the decomposer): the intentions, best first."""

    # ------------------------------------------------------------------ shared helpers
    def turn_prefix(self, memory: Memory, rules: RuleBase, best: int) -> list[Intention]:
        """Win and kong intentions at one's own turn (``best``: the least distance a discard leaves)."""
        out: list[Intention] = []
        k = memory.own_melds
        hand = memory.hand
        if rules.is_win(hand, k):
            out.append(Intention(ActCode.HU, b"", 100.0))
        counts = Counter(hand)
        for t, c in counts.items():
            if c == 4 and rules.distance(remove(hand, t, t, t, t), k + 1) <= best:
                out.append(Intention(ActCode.KONG, bytes([t] * 4), 50.0))
        pongs = {m.tiles[0] for m in memory.melds[memory.seat] if m.kind == "pong" and m.tiles}
        for t in pongs:
            if counts[t] and rules.distance(remove(hand, t), k) <= best:
                out.append(Intention(ActCode.KONG, bytes([t]), 49.0))
        return out

    def claim_prefix(self, memory: Memory, rules: RuleBase) -> list[Intention]:
        """Win and exposed-kong intentions on another seat's discard."""
        out: list[Intention] = []
        t = memory.offer
        if not t:
            return out
        k = memory.own_melds
        hand = memory.hand
        if rules.is_win(hand + bytes([t]), k):
            out.append(Intention(ActCode.HU, b"", 100.0))
        if hand.count(t) >= 3 and k < 4:
            rest = remove(hand, t, t, t)
            if rules.distance(rest, k + 1) <= rules.distance(hand, k):
                out.append(Intention(ActCode.KONG, bytes([t] * 3), 50.0))
        return out

    @staticmethod
    def _claims(memory: Memory, t: int) -> list[tuple[int, bytes]]:
        hand = memory.hand
        out: list[tuple[int, bytes]] = []
        if hand.count(t) >= 2:
            out.append((ActCode.PONG, bytes([t, t])))
        left = memory.offer_from is not None and (memory.offer_from + 1) % 4 == memory.seat
        if left and t >> 4 < 3:
            r = t & 0xF
            for lo in (r - 2, r - 1, r):
                run = [lo, lo + 1, lo + 2]
                if lo < 1 or lo + 2 > 9:
                    continue
                others = [(t & 0xF0) | x for x in run if x != r]
                if all(o in hand for o in others):
                    out.append((ActCode.CHOW, bytes(others)))
        return out

    def ready_wanted(self, memory: Memory, rules: RuleBase, part: bytes) -> bool:
        """Whether to declare ready leaving ``part`` (the hand after the discard)."""
        if memory.ready[memory.seat]:
            return False
        k = memory.own_melds
        if rules.distance(part, k) != 1:
            return False
        return sum(memory.unseen[w] for w in rules.waits(part, k)) >= self.ready_min(memory)

    def ready_min(self, memory: Memory) -> int:
        """The unseen winning tiles a wait needs before this strategy declares it."""
        return self.policies.ready_min


# ====================================================================== design.md §7.4
class HuDist(Strategy):
    """Design.md §7.4: the least hu distance, the information set, the action of highest E."""

    name = "hudist"

    def __init__(
        self,
        alpha: float = 0.15,
        beta: float = 1.0,
        pong: float = 0.0,
        seven_pairs_penalty: int = 1,
        ready_min: int = 1,
        value: bool = True,
        step: float = 0.3,
        push: float | None = 0.2,
        claim_keep: float = 0.0,
        hold: float | None = None,
        read_passed: bool = True,
        dama: bool = False,
        ready_min_calm: int | None = None,
        lookahead: float | None = None,
        dama_below: int | None = None,
        wall_race: bool = False,
        fold_ready: bool = False,
        claim_wider: float | None = None,
        draw_ahead: float | None = None,
        draw_ahead_within: int | None = None,
        draw_ahead_top: int = 3,
        draw_ahead_ties: float | None = None,
        learned: str | None = "learned-classic.json",
        learned_margin: float | None = None,
    ) -> None:
        self.alpha = alpha  # weight of P_D, the safety of the discard
        self.beta = beta  # weight of P_Q, the chance of the needed tiles
        self.pong = pong  # extra weight of a needed tile that any seat's discard gives (a pong)
        # seven pairs counts one tile further while two or more from a win: such a hand can
        # make no chow or pong, and claims are most of a fast hand (docs/robots.md)
        self.seven_pairs_penalty = seven_pairs_penalty
        self.policies = Policies(ready_min=ready_min)
        self.value = value  # P_Q weighed by the points of the hand (value.py), not speed alone
        self.step = step  # the share of a form one tile further that the value counts
        # the fold/push weight of the expected loss of a deal-in against a declared-ready
        # opponent (None: no fold/push, P_D only through alpha)
        self.push = push
        # pass a claim that keeps less than this share of the value (0: claim for speed, the
        # measured best: docs/robots.md)
        self.claim_keep = claim_keep
        # let a cheap win on a discard go for a likelier self-draw when the expected points
        # of waiting beat this many times the win's (None: always win; :meth:`holds_out`)
        self.hold = hold
        # read the tiles that went by after a declaration as safe (defence.py; False: the ablation)
        self.read_passed = read_passed
        # ablations measured in docs/robots.md, off by default: stay undeclared (默听) while an
        # opponent has declared, keeping the right to fold one tile from a win ...
        self.dama = dama
        # ... or only while the wait has fewer than this many unseen winning tiles
        self.dama_below = dama_below
        # ... and ask a wider wait (this many unseen winning tiles) while nobody has declared
        self.ready_min_calm = ready_min_calm
        # two tiles from a win, count each needed draw by the wait it leaves, full at this
        # many unseen winning tiles (None: P_Q as the seed has it; :meth:`ready_quality`)
        self.lookahead = lookahead
        # ... fold/push's race against a declared hand also ends with the wall (win_chance's rounds)
        self.wall_race = wall_race
        # ... fold/push also one tile from a win (a ready discard may be given up for a safer one)
        self.fold_ready = fold_ready
        # ... claim a chow or pong that keeps the distance when P_Q V after the best discard
        # beats this many times the hand's now (None: only claims that bring the hand nearer)
        self.claim_wider = claim_wider
        # ... look one draw ahead: add this many times the expected gain in the chance of a win
        # over every unseen draw (None: one ply; :meth:`draw_gain`), only while the hand is at
        # most ``draw_ahead_within`` tiles from a win (None: at any distance)
        self.draw_ahead = draw_ahead
        self.draw_ahead_within = draw_ahead_within
        self.draw_ahead_top = draw_ahead_top  # the best discards (by one ply) it ranks again
        # ... and only those within this share of the best one's E (None: all of them): near-ties
        self.draw_ahead_ties = draw_ahead_ties
        # rank the best few discards at the least distance again by a learned model (a JSON
        # file of :mod:`.learned`; None: E alone), never while folding, only on the tile set it
        # was fitted on (the kept one: classic's 136 tiles, docs/robots.md); the model's own
        # margin unless ``learned_margin`` is given
        self.learned = load_model(learned) if learned else None
        self.learned_margin = learned_margin

    def ready_min(self, memory: Memory) -> int:
        if declared_against(memory):
            if self.dama:
                return NEVER
            return max(self.policies.ready_min, self.dama_below or 0)
        return self.policies.ready_min if self.ready_min_calm is None else self.ready_min_calm

    def planning_rules(self, rules: RuleBase) -> RuleBase:
        if not rules.seven_pairs or rules.seven_pairs_penalty == self.seven_pairs_penalty:
            return rules
        return dataclasses.replace(rules, seven_pairs_penalty=self.seven_pairs_penalty)

    def states(self, memory: Memory, rules: RuleBase) -> StateSet:
        return state_set(memory.hand, memory.unseen, honours=memory.honours)

    def goals(self, memory: Memory, rules: RuleBase, states: StateSet) -> int:
        # a hand after a draw has the least distance of its discards, form by form
        dist = rules.pair_distances(memory.hand, memory.own_melds)
        return goal_byte(i for i, d in enumerate(dist) if d < NO_WAY)

    def filter(self, goals: int, memory: Memory, rules: RuleBase, states: StateSet) -> int:
        """Keep every form at the least (planning) distance (the information set spans them all)."""
        dist = list(rules.pair_distances(memory.hand, memory.own_melds))
        if dist[SEVEN_PAIRS] >= 2 and dist[SEVEN_PAIRS] != NO_WAY:
            dist[SEVEN_PAIRS] += rules.seven_pairs_penalty
        return lowest(goals, [(i, (d,)) for i, d in enumerate(dist)])

    # ------------------------------------------------------------------ E = a P_D + b P_Q
    def worth(self, memory: Memory, rules: RuleBase, part: bytes, melds: int, distance: int) -> float:
        """The points ``part`` is worth if it wins, relative to a basic hand (1 when value is off)."""
        if not self.value:
            return 1.0
        return value(memory, rules, part, melds, distance, self.step) / basic_points(rules)

    def options(
        self, memory: Memory, rules: RuleBase, hand: bytes, melds: int, danger: Danger | None = None
    ) -> list[Option]:
        """Every discard of ``hand`` (after a draw) with its distance and E, best first.

        ``E = alpha * P_D + beta * P_Q * V`` among the discards at the least distance
        (``V``: the hand's points relative to a basic hand). Against a declared-ready
        opponent, while the hand is two or more from a win (fold/push), every discard is
        weighed instead by the points it may win, ``V`` times the chance of winning from
        its distance and ``P_Q`` (:func:`win_chance`), less ``push`` times the points a
        deal-in is expected to cost (:mod:`.defence`) over the ``EXPOSED`` discards a hand
        that pushes on has to make.
        """
        danger = danger or Danger.of(memory, self.read_passed)
        domain = memory.tiles()
        total = max(1, memory.total_unseen)
        dist = {t: rules.distance(remove(hand, t), melds) for t in set(hand)}
        best = min(dist.values())
        fold = self.folds(memory, danger, best)
        basic = basic_points(rules)  # V is relative to it
        opts = []
        for t, d in dist.items():
            if d > best and not fold:
                continue
            part = remove(hand, t)
            p_d = 1.0 - danger.deal_in(t)
            if fold:
                assert self.push is not None
                e = self.alpha * p_d - self.push * EXPOSED * danger.cost(t, rules) / basic
                if d >= best + 2:  # two steps back the chance of a win is too small to count
                    opts.append(Option(t, d, b"", 0.0, p_d, e))
                    continue
            _, needed = useful(rules, part, melds, domain)
            if self.pong and d >= 2:  # a pair's third tile comes from any seat's discard
                p_q = sum(memory.unseen[x] * (1 + self.pong * (part.count(x) >= 2)) for x in needed) / total
            else:
                p_q = sum(memory.unseen[x] for x in needed) / total
            v = self.worth(memory, rules, part, melds, d)
            if fold:
                e += self.beta * v * win_chance(d, p_q, memory.wall // 4 if self.wall_race else None)
            else:
                e = self.alpha * p_d + self.beta * p_q * v
            opts.append(Option(t, d, needed, p_q, p_d, e, v))
        opts.sort(key=lambda o: (-o.value, o.tile))
        if self.lookahead and best == 2 and not fold:
            # a hand two from a win is ranked by the waits it can reach, not only by the
            # chance of its next step (the best few: the look-ahead costs a thousand distances)
            top = [self._with_quality(memory, rules, hand, melds, o) for o in opts[:LOOKAHEAD_TOP]]
            top.sort(key=lambda o: (-o.value, o.tile))
            opts[:LOOKAHEAD_TOP] = top
        within = self.draw_ahead_within
        if self.draw_ahead and not fold and (within is None or best <= within):
            seen: dict[bytes, float] = {}  # the best chance after a draw, per 14 tiles (shared by the discards)
            n = self.draw_ahead_top
            if self.draw_ahead_ties is not None:
                floor = opts[0].value - self.draw_ahead_ties * abs(opts[0].value)
                n = min(n, sum(1 for o in opts if o.value >= floor))
            if n > 1:
                top = [self._with_draws(memory, rules, hand, melds, o, seen) for o in opts[:n]]
                top.sort(key=lambda o: (-o.value, o.tile))
                opts[:n] = top
        return opts

    def folds(self, memory: Memory, danger: Danger, best: int) -> bool:
        """Whether the discards are weighed by fold/push (an opponent declared, the hand at
        ``best`` tiles from a win): a hand one tile from a win always pushes (its discards are
        judged by E as usual); a robot that may stay undeclared may still break a ready hand."""
        undeclared = (self.dama or bool(self.dama_below)) and not memory.ready[memory.seat]
        return self.push is not None and danger.threatened and (best >= 2 or undeclared or self.fold_ready)

    def candidates(self, memory: Memory, opts: list[Option], top: int, danger: Danger | None = None) -> list[Option]:
        """The discards a learned ranking chooses among: the best ``top`` by E at the least
        distance (E's choice first), none while folding (fewer than two: nothing to choose)."""
        best = min(o.distance for o in opts)
        if self.folds(memory, danger or Danger.of(memory, self.read_passed), best):
            return []
        out = [o for o in opts[:top] if o.distance == best]
        return out if len(out) > 1 and out[0] is opts[0] else []

    def relearned(self, memory: Memory, opts: list[Option], danger: Danger) -> list[Option]:
        """``opts`` with the learned model's pick first (:mod:`.learned`)."""
        assert self.learned
        cands = self.candidates(memory, opts, self.learned.top, danger)
        if not cands:
            return opts
        i = self.learned.pick(features(memory, cands), self.learned_margin)
        if not i:
            return opts
        return [cands[i]] + [o for o in opts if o is not cands[i]]

    def _with_draws(
        self, memory: Memory, rules: RuleBase, hand: bytes, melds: int, o: Option, seen: dict[bytes, float]
    ) -> Option:
        assert self.draw_ahead
        gain = self.draw_gain(memory, rules, remove(hand, o.tile), melds, o.distance, o.p_q, seen)
        return dataclasses.replace(o, value=o.value + self.beta * self.draw_ahead * gain * o.worth)

    def draw_gain(
        self,
        memory: Memory,
        rules: RuleBase,
        part: bytes,
        melds: int,
        distance: int,
        p_q: float,
        seen: dict[bytes, float] | None = None,
    ) -> float:
        """The one-draw look-ahead of a part waiting for a draw: over every unseen tile ``x``
        (weighed by its unseen copies, from this seat: ``memory.unseen``), how much drawing it
        and then throwing the best tile raises the chance of a win, on the scale of
        :func:`win_chance` (a win drawn counts 1; a draw that helps nothing is thrown back and
        gains 0). Unlike ``P_Q`` it sees what each needed tile leads to (a wide wait or a
        narrow one) and the draws that widen the hand without bringing it nearer.

        >>> from paiju.protocol.cards import parse_tiles as t
        >>> m, rb = Memory(seat=0, hand=t("123m 456m 789m 1p 9p 56s"), honours=False), RuleBase(honours=False)
        >>> round(HuDist().draw_gain(m, rb, m.hand, 0, 2, 14 / 95), 4)
        0.0389
        """
        seen = {} if seen is None else seen
        domain = memory.tiles()
        total = max(1, memory.total_unseen)
        now = win_chance(distance, p_q) if distance else 1.0
        have = Counter(part)
        near = _near(have)
        _, needed = useful(rules, part, melds, domain)
        gain = 0.0
        for x in domain:
            n = memory.unseen[x]
            if not n or have[x] >= 4 or (x not in near and x not in needed):
                continue
            drawn = bytes(sorted(part + bytes([x])))
            after = seen.get(drawn)
            if after is None:
                after = seen[drawn] = self._best_after(memory, rules, drawn, melds, x, total)
            if after > now:
                gain += n / total * (after - now)
        return gain

    @staticmethod
    def _best_after(memory: Memory, rules: RuleBase, drawn: bytes, melds: int, x: int, total: int) -> float:
        """The best :func:`win_chance` among the discards of ``drawn`` (``x`` just drawn)."""
        d, wants = _after(rules.seven_pairs, rules.seven_pairs_penalty, drawn, melds, memory.tiles())
        if d == 0:
            return 1.0
        left = max(1, total - 1)
        unseen = memory.unseen
        p = max(sum(unseen[z] for z in needed) - needed.count(x) for needed in wants) / left
        return win_chance(d, p)

    def _with_quality(self, memory: Memory, rules: RuleBase, hand: bytes, melds: int, o: Option) -> Option:
        q = self.ready_quality(memory, rules, remove(hand, o.tile), melds, o.needed)
        return dataclasses.replace(o, value=self.alpha * o.p_d + self.beta * q * o.worth)

    def ready_quality(self, memory: Memory, rules: RuleBase, part: bytes, melds: int, needed: bytes) -> float:
        """``P_Q`` one step further, for a part two tiles from a win: the chance that the next
        tile is needed, each needed tile counted by the wait of the best ready hand it makes
        (its unseen winning tiles over ``lookahead``, at most 1). Two discards with the same
        needed tiles part here when one of them leads to two-sided waits and the other to
        closed or edge ones -- what plain ukeire cannot see.

        >>> from paiju.protocol.cards import parse_tiles as t, format_tiles as f
        >>> m, rb = Memory(seat=0, hand=t("123m 456m 789m 1p 9p 56s"), honours=False), RuleBase(honours=False)
        >>> d, needed = useful(rb, m.hand, 0, m.tiles()); d, f(needed), m.total_unseen
        (2, '47s19p', 95)
        >>> HuDist(lookahead=8).ready_quality(m, rb, m.hand, 0, needed) * 95  # plain P_Q: 14 / 95
        9.0

        A 4s or 7s leaves a single wait on 1p or 9p (3 unseen: 3/8 of a full wait), a 1p or
        9p the pair and the two-sided 4s-7s (8 unseen: full): ``4 * 3/8 * 2 + 3 + 3 = 9``.
        """
        assert self.lookahead
        total = max(1, memory.total_unseen)
        q = 0.0
        for x in needed:
            n = memory.unseen[x]
            if not n:
                continue
            drawn = bytes(sorted(part + bytes([x])))
            wait = 0
            for y in set(drawn) - {x}:
                rest = remove(drawn, y)
                if rules.distance(rest, melds) == 1:  # the cheap test first: most discards are not ready
                    _, wins = useful(rules, rest, melds, memory.tiles())
                    wait = max(wait, sum(memory.unseen[z] - (z == x) for z in wins))
            q += n / total * min(1.0, wait / self.lookahead)
        return q

    def decompose(self, goal: int, memory: Memory, rules: RuleBase, states: StateSet) -> Intentions:
        hand = memory.hand
        k = memory.own_melds
        if memory.offer:
            return self._claim(memory, rules)
        danger = Danger.of(memory, self.read_passed)
        opts = self.options(memory, rules, hand, k, danger)
        if self.learned and self.learned.fits(memory):
            opts = self.relearned(memory, opts, danger)
        best = min(o.distance for o in opts)
        ranked = self.turn_prefix(memory, rules, best)
        top = opts[0]
        if self.ready_wanted(memory, rules, remove(hand, top.tile)):
            ranked.append(Intention(ActCode.READY, bytes([top.tile]), 20.0))
        ranked += [Intention(ActCode.DISCARD, bytes([o.tile]), o.value) for o in opts]
        return Intentions(tuple(ranked), top.needed, {"goal": goal, "distance": best})

    def _claim(self, memory: Memory, rules: RuleBase) -> Intentions:
        """Chow and pong as "take a known tile, then discard"; pass when that is no better."""
        t = memory.offer
        hand = memory.hand
        k = memory.own_melds
        ranked = self.claim_prefix(memory, rules)
        if self.hold and ranked and ranked[0].code == ActCode.HU and self.holds_out(memory, rules):
            return Intentions((Intention(ActCode.PASS, b"", 0.0),), b"", {"distance": 1, "held": 1})
        d_now, needed_now = useful(rules, hand, k, memory.tiles())
        # claims that bring the hand nearer a win (a cheap distance test first) ...
        nearer = []
        level = []
        for code, pair in self._claims(memory, t) if k < 4 else []:
            part = remove(hand, *pair)
            after = {x: rules.distance(remove(part, x), k + 1) for x in set(part)}
            d_after = min(after.values())
            if d_after < d_now and self.keeps_value(memory, rules, hand, k, d_now, part, after):
                nearer.append((code, pair, part))
            elif d_after == d_now:
                level.append((code, pair, part))
        if self.claim_wider and level and not nearer:
            total = max(1, memory.total_unseen)
            now = sum(memory.unseen[x] for x in needed_now) / total * self.worth(memory, rules, hand, k, d_now)
            for code, pair, part in level:
                a = self.options(memory, rules, part, k + 1)[0]
                if a.p_q * a.worth > self.claim_wider * now:
                    ranked.append(Intention(code, pair, 10.0 - a.distance + a.value))
        # ... and the seed's test: with the offered tile in hand, is the best discard the tile itself?
        if nearer and not self.best_discard_is(memory, rules, hand + bytes([t]), t, k):
            for code, pair, part in nearer:
                if len(nearer) == 1:  # nothing to choose between: E is not needed
                    ranked.append(Intention(code, pair, 10.0))
                    continue
                a = self.options(memory, rules, part, k + 1)[0]
                ranked.append(Intention(code, pair, 10.0 - a.distance + a.value))
        ranked.sort(key=lambda i: -i.value)
        ranked.append(Intention(ActCode.PASS, b"", -100.0))
        return Intentions(tuple(ranked), needed_now, {"distance": d_now})

    def holds_out(self, memory: Memory, rules: RuleBase) -> bool:
        """Whether to let a win on a discard go and wait for a self-draw (``hold``; off by
        default, measured in docs/robots.md): the discarder alone pays ``P`` points, a self-draw is paid by all
        three others, ``P + 1`` each. With ``s`` the chance a draw is a winning tile
        (winning tiles unseen / tiles unseen) and ``o`` that somebody else ends the hand in
        a round, the self-draw comes first with ``s / (s + o)`` of the rounds left; the
        robot holds out when that times ``3 (P + 1)``, less the loss of the other endings,
        beats ``hold`` times ``P``."""
        if self.hold is None:
            return False
        t, hand, k = memory.offer, memory.hand, memory.own_melds
        win = hand + bytes([t])
        points = fan(memory, rules, win, k, 0, 0.0) + rules.ready_bonus * memory.ready[memory.seat]
        outs = sum(memory.unseen[w] for w in rules.waits(hand, k))
        total = max(1, memory.total_unseen)
        s_ = outs / total
        o = OTHERS_WIN + OTHERS_READY * sum(memory.ready[x] for x in range(4) if x != memory.seat)
        rounds = memory.wall // 4
        keep = (1 - s_) * (1 - o)
        first = s_ / (s_ + o) * (1 - keep**rounds) if s_ + o else 0.0
        hold = first * 3 * (points + rules.self_draw_bonus) - (1 - first) * LOSS_ELSEWHERE
        return hold > self.hold * points

    def keeps_value(
        self, memory: Memory, rules: RuleBase, hand: bytes, k: int, d_now: int, part: bytes, after: dict[int, int]
    ) -> bool:
        """Whether a claim leaving ``part`` keeps at least ``claim_keep`` of the hand's value
        (a pong that breaks seven pairs, a chow that breaks a flush or all pungs may not)."""
        if not self.value or not self.claim_keep:
            return True
        now = self.worth(memory, rules, hand, k, d_now)
        if now <= 1.0:
            return True
        d = min(after.values())
        then = max(self.worth(memory, rules, remove(part, x), k + 1, d) for x, dx in after.items() if dx == d)
        return then >= self.claim_keep * now

    def best_discard_is(self, memory: Memory, rules: RuleBase, hand: bytes, t: int, melds: int) -> bool:
        """The pass test of design.md §7.4: whether the best discard of ``hand`` (holding the offered
        ``t``) is ``t`` itself. A discard that leaves the hand nearer a win than throwing
        ``t`` settles it without computing E (a claim that lowers the distance always does)."""
        d_t = rules.distance(remove(hand, t), melds)
        if any(rules.distance(remove(hand, x), melds) < d_t for x in set(hand) if x != t):
            return False
        return self.options(memory, rules, hand, melds)[0].tile == t


# ====================================================================== design.md §7.5
class Rearrange(Strategy):
    """Design.md §7.5: out/in pairs per suit; the goal suit of least ``out + in``; throw the
    last ``out`` tiles of ``Ar``. Uses the documented partial-chow extension of
    :func:`~paiju.bots.mahjong.stateset.rearrange` (design.md §7.4's 搭子)."""

    name = "rearrange"

    def __init__(self, partials: bool = True, checked: bool = True, claims: str = "checked") -> None:
        self.partials = partials
        self.checked = checked
        if claims not in ("seed", "checked"):
            raise ValueError(f"claims must be 'seed' or 'checked', not {claims!r}")
        # "seed": claim an `in` tile when the claim lowers the least out + in; "checked":
        # the rule base also approves a claim that brings the hand nearer a win
        self.claims = claims

    def states(self, memory: Memory, rules: RuleBase) -> StateSet:
        return state_set(memory.hand, memory.unseen, honours=memory.honours, partials=self.partials)

    def goals(self, memory: Memory, rules: RuleBase, states: StateSet) -> int:
        g = goal_byte(i for i in range(4) if states.pwin(i) != MAX)
        if rules.seven_pairs and memory.own_melds == 0 and rules.pair_distances(memory.hand, 0)[SEVEN_PAIRS] <= 2:
            g |= 1 << SEVEN_PAIRS  # paiju's extension: seven pairs when it is this close
        return g

    @staticmethod
    def cost(states: StateSet, i: int) -> tuple[int, int]:
        p = states.pwin(i)
        return (p[0] + p[1], weight(p))

    def filter(self, goals: int, memory: Memory, rules: RuleBase, states: StateSet) -> int:
        if goals >> SEVEN_PAIRS & 1:
            return 1 << SEVEN_PAIRS
        kept = lowest(goals, [(i, self.cost(states, i)) for i in range(4)])
        bits = suits_of(kept)
        return 1 << bits[0] if bits else 0

    def outs(self, goal: int, memory: Memory, states: StateSet) -> tuple[list[int], bytes]:
        """The tiles to throw, first to go first, and the tiles wanted, for the goal."""
        if goal >> SEVEN_PAIRS & 1:
            counts = Counter(memory.hand)
            singles = sorted((t for t, c in counts.items() if c % 2), key=lambda t: memory.unseen[t])
            return singles, bytes(singles)
        gi = suits_of(goal)[0] if goal else -1
        outs: list[tuple[int, int, int]] = []
        wants = b""
        for s in states.suits:
            r = s.paired if s.suit == gi else s.plain
            wants += r.wants
            for pos, t in enumerate(r.outs):
                outs.append((memory.unseen[t], pos, t))
        outs.sort()
        ranked = [t for _, _, t in outs]
        # too many blocks and nothing to throw: break the weakest block, from the ends of Ar
        rest = []
        for s in states.suits:
            r = s.paired if s.suit == gi else s.plain
            rest += [t for t in reversed(r.ar) if t not in ranked]
        return ranked + rest, wants

    def decompose(self, goal: int, memory: Memory, rules: RuleBase, states: StateSet) -> Intentions:
        hand = memory.hand
        k = memory.own_melds
        if memory.offer:
            return self._claim_rearranged(goal, memory, rules, states)
        order, wants = self.outs(goal, memory, states)
        dist = {t: rules.distance(remove(hand, t), k) for t in set(hand)}
        best = min(dist.values())
        if self.checked:  # the rule base vetoes a throw that takes the hand further from a win
            order = sorted(order, key=lambda t: dist[t] > best)
        ranked = self.turn_prefix(memory, rules, best)
        if order and self.ready_wanted(memory, rules, remove(hand, order[0])):
            ranked.append(Intention(ActCode.READY, bytes([order[0]]), 20.0))
        n = len(order)
        ranked += [Intention(ActCode.DISCARD, bytes([t]), float(n - i)) for i, t in enumerate(order)]
        return Intentions(tuple(ranked), wants, {"goal": goal})

    def _claim_rearranged(self, goal: int, memory: Memory, rules: RuleBase, states: StateSet) -> Intentions:
        """Claim the offered tile when it is one the intentions want and the claim lowers the
        least ``out + in`` over the goals; with ``claims="checked"``, also when the rule base
        finds that the claim (and the best discard after it) brings the hand nearer a win."""
        t = memory.offer
        k = memory.own_melds
        ranked = self.claim_prefix(memory, rules)
        _, wants = self.outs(goal, memory, states)
        now = min(self.cost(states, i)[0] for i in range(4))
        taken: set[tuple[int, bytes]] = set()
        if t in wants and k < 4:
            for code, pair in self._claims(memory, t):
                part = remove(memory.hand, *pair)
                order_mem = Memory(seat=memory.seat, hand=part, honours=memory.honours, unseen=list(memory.unseen))
                order_mem.melds = [list(ms) for ms in memory.melds]
                order_mem.melds[memory.seat].append(
                    Meld("pong" if code == ActCode.PONG else "chow", bytes(sorted([t, *pair])))
                )
                after = state_set(part, memory.unseen, honours=memory.honours, partials=self.partials)
                g = self.filter(self.goals(order_mem, rules, after), order_mem, rules, after)
                order, _ = self.outs(g, order_mem, after)
                if not order:
                    continue
                throw = remove(part, order[0])
                s2 = state_set(throw, memory.unseen, honours=memory.honours, partials=self.partials)
                cost = min(self.cost(s2, i)[0] for i in range(4))
                if cost < now:
                    ranked.append(Intention(code, pair, 10.0 - cost))
                    taken.add((code, pair))
        if self.claims == "checked" and k < 4:
            d_now = rules.distance(memory.hand, k)
            for code, pair in self._claims(memory, t):
                if (code, pair) in taken:
                    continue
                part = remove(memory.hand, *pair)
                d = min(rules.distance(remove(part, x), k + 1) for x in set(part))
                if d < d_now:  # below the seed's own claims (value 10 - cost, cost >= 1)
                    ranked.append(Intention(code, pair, 5.0 - d))
        ranked.sort(key=lambda i: -i.value)
        ranked.append(Intention(ActCode.PASS, b"", -100.0))
        return Intentions(tuple(ranked), wants, {"goal": goal})


STRATEGIES: dict[str, type[Strategy]] = {"hudist": HuDist, "rearrange": Rearrange}
