"""``automaton-mc``: Monte Carlo beyond the seed (design.md §7.1 proposes it).

At a decision the automaton leaves open, the robot

1. **samples** the hidden cards: the pool (every card it cannot see) is dealt at random
   into the two other hands and their face-down covers, in the sizes the view shows. The
   view carries the cards played (occupied, beaten, face-up in the trick) and how many
   cards each seat covered; it keeps no record of earlier tricks, so who failed to eat
   what is not known and not used;
2. **plays out** each sample to the end of the hand (R6.2) for each candidate move, every
   seat (itself included) following the ``automaton`` policy with its own knowledge
   only (its hand, its covers, the public cards) — the same samples for every candidate;
3. **chooses** the candidate of best mean score for its seat (R7.1-R7.3), the automaton's
   own choice winning ties.

It does not search when the automaton's plan is a sure six (it is already certain),
when the only legal move is a cover, or when there is a single candidate. Candidates: the
automaton's move and, leading, the best other leads by the evaluation function's
expected gain; answering, every eat (the cheapest few) and the automaton's cover.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any

from paiju.bots.niujiu import evaluate
from paiju.bots.niujiu.automaton import plan_for
from paiju.bots.niujiu.cache import hand_patterns, pattern_of
from paiju.bots.niujiu.evaluate import Choice
from paiju.bots.niujiu.knowledge import SEATS, Knowledge
from paiju.games.niujiu import ENOUGH, LEVEL, NiujiuRules, Pattern, rank
from paiju.protocol.cards import NIUJIU_CARDS
from paiju.protocol.niujiu import ActCode

K = 13
ALL = frozenset(NIUJIU_CARDS)


@dataclass
class Settings:
    samples: int = 24  # play-outs per candidate
    candidates: int = 4  # moves compared at most
    budget_ms: float = 150.0  # CPU time after which sampling stops (every candidate keeps the same samples)
    margin_z: float = 1.0  # leave the automaton's move only for a move better by this many standard errors


@dataclass
class PlayOut:
    """A whole deal as one sample has it, played to the end by the automaton policy."""

    hands: list[bytes]
    covered: list[bytes]
    public: set[int]  # every card all seats have seen
    occupied: list[int]
    kings: list[int]  # Ks occupied per seat (four Ks are a liangzi, R7.3)
    leader: int
    best: Pattern | None
    best_cards: bytes
    best_seat: int | None
    position: int
    play_out: bool
    liangzi: list[int] = field(default_factory=lambda: [0, 0, 0])  # new liangzi occupied in the play-out

    def copy(self) -> PlayOut:
        """An independent copy (the cards are immutable bytes; the lists and the set are new)."""
        return replace(
            self,
            hands=list(self.hands),
            covered=list(self.covered),
            public=set(self.public),
            occupied=list(self.occupied),
            kings=list(self.kings),
            liangzi=list(self.liangzi),
        )

    def knowledge(self, seat: int) -> Knowledge:
        unseen = ALL - self.public - set(self.hands[seat]) - set(self.covered[seat])
        return Knowledge(
            seat=seat,
            hand=self.hands[seat],
            unseen=bytes(sorted(unseen)),
            occupied=list(self.occupied),
            hand_size=[len(h) for h in self.hands],
            **_trick(self),
        )

    def apply(self, seat: int, choice: Choice) -> None:
        hand = Counter(self.hands[seat])
        hand.subtract(choice.cards)
        self.hands[seat] = bytes(sorted(hand.elements()))
        if choice.code == ActCode.COVER:
            self.covered[seat] += choice.cards
        else:
            self.public.update(choice.cards)
            self.best, self.best_cards, self.best_seat = pattern_of(choice.cards), choice.cards, seat
        self.position += 1
        if self.position == SEATS:
            self._end_trick()

    def _end_trick(self) -> None:
        assert self.best_seat is not None
        w, cards = self.best_seat, self.best_cards
        self.occupied[w] += len(cards)
        counts = Counter(rank(c) for c in cards)
        self.liangzi[w] += sum(1 for r, n in counts.items() if n == 4 and r != K)
        before = self.kings[w]
        self.kings[w] += counts[K]
        if before < 4 <= self.kings[w]:
            self.liangzi[w] += 1
        self.leader, self.position = w, 0
        self.best, self.best_cards, self.best_seat = None, b"", None

    @property
    def over(self) -> bool:
        if self.position:
            return False
        left = len(self.hands[0])
        if not left:
            return True
        return not self.play_out and all(o >= ENOUGH or o + left < ENOUGH for o in self.occupied)

    @property
    def turn(self) -> int:
        return (self.leader + self.position) % SEATS

    def finish(self) -> None:
        while not self.over:
            seat = self.turn
            self.apply(seat, evaluate.decide(self.knowledge(seat)))

    def score(self, seat: int, rules: NiujiuRules) -> int:
        """``seat``'s score from what the play-out changed (earlier liangzi add the same to every candidate)."""
        enough = [o >= ENOUGH for o in self.occupied]
        out = 0
        for t in range(SEATS):
            if t != seat:
                if enough[seat] and not enough[t]:
                    out += rules.stake
                elif enough[t] and not enough[seat]:
                    out -= rules.stake
                out += (self.liangzi[seat] - self.liangzi[t]) * rules.liangzi_bonus
        return out


def _trick(x: Knowledge | PlayOut) -> dict[str, Any]:
    """The trick in progress and the ruleset's play-out flag, which a knowledge and a play-out share."""
    return {
        "leader": x.leader,
        "position": x.position,
        "best": x.best,
        "best_cards": x.best_cards,
        "best_seat": x.best_seat,
        "play_out": x.play_out,
    }


def candidates(kn: Knowledge, own: Choice, limit: int) -> list[Choice]:
    """The automaton's move first, then the others worth comparing."""
    out = [own]
    if kn.position == 0:
        ranked = sorted(hand_patterns(kn.hand), key=lambda p: (-evaluate.lead_gain(kn, p), p))
        out += [Choice(ActCode.LEAD, p) for p in ranked if p != own.cards]
    else:
        value = evaluate.keep_value(kn.hand)
        eats = sorted(evaluate.eats(kn), key=lambda p: (sum(value[c] for c in p), p))
        out += [Choice(ActCode.EAT, p) for p in eats if own != Choice(ActCode.EAT, p)]
        covers = [
            evaluate.cover_cards(kn.hand, kn.k, value),  # the automaton's: keep what is worth keeping
            evaluate.cover_cards(kn.hand, kn.k, {c: float(LEVEL[rank(c)]) for c in kn.hand}),  # the lowest numbers
        ]
        out += [Choice(ActCode.COVER, c) for c in dict.fromkeys(covers) if own != Choice(ActCode.COVER, c)]
    return out[:limit]


def sample(kn: Knowledge, rng: random.Random) -> PlayOut | None:
    """A deal consistent with the view, or None when the view's counts do not add up."""
    others = [(kn.seat + i) % SEATS for i in (1, 2)]
    pool = list(kn.unseen)
    if len(pool) != sum(kn.hand_size[s] + kn.covered[s] for s in others):
        return None
    rng.shuffle(pool)
    hands = [b""] * SEATS
    covered = [b""] * SEATS
    hands[kn.seat], covered[kn.seat] = kn.hand, kn.my_covered
    at = 0
    for s in others:
        hands[s] = bytes(sorted(pool[at : at + kn.hand_size[s]]))
        at += kn.hand_size[s]
        covered[s] = bytes(pool[at : at + kn.covered[s]])
        at += kn.covered[s]
    return PlayOut(
        hands=hands,
        covered=covered,
        public=set(ALL - set(kn.unseen) - set(kn.hand) - set(kn.my_covered)),
        occupied=list(kn.occupied),
        kings=[sum(1 for c in o if rank(c) == K) for o in kn.occupied_cards],
        **_trick(kn),
    )


def decide(kn: Knowledge, rules: NiujiuRules, rng: random.Random, settings: Settings | None = None) -> Choice:
    """The Monte Carlo choice (see the module)."""
    s = settings or Settings()
    own = evaluate.decide(kn)
    if kn.position == 0 and kn.need and (plan := plan_for(kn.hand, kn.pool, kn.occupied[kn.seat])) and plan.steps:
        return own  # a sure six: nothing to improve
    moves = candidates(kn, own, s.candidates)
    if len(moves) < 2:
        return own
    scores: list[list[int]] = [[] for _ in moves]
    deadline = time.thread_time() + s.budget_ms / 1000  # CPU time: a loaded machine does not cut the samples
    for _ in range(s.samples):
        base = sample(kn, rng)
        if base is None:
            return own
        for i, move in enumerate(moves):
            po = base.copy()
            po.apply(kn.seat, move)
            po.finish()
            scores[i].append(po.score(kn.seat, rules))
        if time.thread_time() > deadline:
            break
    best = max(range(len(moves)), key=lambda i: (sum(scores[i]), i == 0))
    return moves[best] if best and _better(scores[best], scores[0], s.margin_z) else own


def _better(mine: list[int], other: list[int], z: float) -> bool:
    """Whether ``mine`` beats ``other`` on the same samples by more than ``z`` standard errors:
    with few samples the best mean is often luck, and the automaton's move is the safe default."""
    gaps = [a - b for a, b in zip(mine, other, strict=True)]
    if len(gaps) < 2:
        return False
    return statistics.fmean(gaps) > z * statistics.stdev(gaps) / math.sqrt(len(gaps))
