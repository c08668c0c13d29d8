"""The evaluation function (审局函数, design.md §7.1): it ranks the decisions the automaton
leaves open.

Design.md §7.1 gives the automaton (the head's sure six) and the sure-winner test, and names an
evaluation function that "estimates the position as a whole" without spelling it out.
paiju's, in the order it is consulted:

As **leader**:

1. not yet enough and the automaton accepts from the current state (the occupied cards
   so far): lead its next output pattern. Every pattern of the run is a sure winner, so
   the lead is never lost and the seat ends enough;
2. a sure winner in hand: lead it (the largest, liangzi first). Not enough, it is free
   occupancy and keeps the lead; enough, it takes cards out of play, and a seat that is
   not enough becomes *settled* (can no longer reach six) the sooner (R6.2): how the
   robot stops the third seat from reaching enough once it has it;
3. otherwise the pattern with the best expected gain, from :func:`.sure.eat_chance` (the
   chance that a following seat holds a pattern that eats it): not enough, ``k`` cards
   won against ``k`` cards handed to an opponent; enough, the fewest cards handed over.

As **follower** (eat or cover):

- the last seat to answer eats whenever it can (the trick is then surely its), with the
  cheapest pattern that eats;
- the first to answer eats with a sure eat; else with the cheapest eat when the third
  seat is unlikely to eat it in turn, when the leader would otherwise reach enough, or
  when it is enough itself (every trick it takes is one the others do not);
- otherwise it covers the ``k`` cards of lowest :func:`keep_value`: the cards that belong
  to no sure or multi-card pattern and rank lowest.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from paiju.bots.niujiu.automaton import plan_for, sure_patterns
from paiju.bots.niujiu.cache import hand_patterns, pattern_of
from paiju.bots.niujiu.knowledge import Knowledge
from paiju.bots.niujiu.sure import eat_chance, is_sure
from paiju.games.niujiu import ENOUGH, LEVEL, Kind, pattern_beats, rank
from paiju.protocol.niujiu import ActCode

K, NIU, XI = 13, 9, 5
LOSS_WEIGHT = 0.6  # a lead that is eaten: the cards go to an opponent, against the cards it would have won
EAT_THRESHOLD = 0.5  # the first follower eats when the third seat eats it back less often than this


@dataclass(frozen=True)
class Choice:
    """A decision: LEAD or EAT with a pattern's cards, or COVER with ``k`` cards."""

    code: ActCode
    cards: bytes


def keep_value(hand: bytes, sure: list[bytes] | None = None) -> dict[int, float]:
    """How much each card of ``hand`` is worth keeping: its rank (R2.1), the patterns it
    belongs to (pairs, triples, liangzi, 鱼, 摆, 二牛, 二喜), and whether it is in a sure winner."""
    ranks = Counter(rank(c) for c in hand)
    in_sure = {c for p in (sure or []) for c in p}
    value: dict[int, float] = {}
    for c in hand:
        r = rank(c)
        v = float(LEVEL[r]) + 3.0 * (ranks[r] - 1)
        if r == K:
            v += 20.0  # 天 is never eaten
        if r in (8, 10, 13) and all(ranks[x] for x in (8, 10, 13)):
            v += 6.0  # 摆, never eaten
        if r in (1, 2, 3) and all(ranks[x] for x in (1, 2, 3)):
            v += 3.0  # 鱼, eaten only by 摆
        if c in in_sure:
            v += 15.0
        value[c] = v
    for p in hand_patterns(hand, 2):  # 二牛 and 二喜 are never eaten
        if pattern_of(p).kind in (Kind.NIU_PAIR, Kind.XI_PAIR):
            for c in p:
                value[c] += 8.0
    return value


def cheapest(options: list[bytes], value: dict[int, float]) -> bytes:
    """The option whose cards are worth least (then the lowest bytes, for determinism)."""
    return min(options, key=lambda p: (sum(value[c] for c in p), p))


def cover_cards(hand: bytes, k: int, value: dict[int, float]) -> bytes:
    """The ``k`` cards worth least."""
    return bytes(sorted(sorted(hand, key=lambda c: (value[c], c))[:k]))


def eats(kn: Knowledge) -> list[bytes]:
    """The patterns of the hand that eat the best pattern of the trick."""
    assert kn.best is not None
    return [p for p in hand_patterns(kn.hand, kn.k) if pattern_beats(pattern_of(p), kn.best)]


def _others(kn: Knowledge) -> list[int]:
    """The hand sizes of the seats that answer after this one."""
    return [kn.hand_size[s] for s in kn.next_seats()]


def _liangzi(cards: bytes) -> int:
    return sum(1 for n in Counter(rank(c) for c in cards).values() if n == 4)


def choose_lead(kn: Knowledge) -> bytes:
    """The pattern to lead (see the module)."""
    if kn.need:
        plan = plan_for(kn.hand, kn.pool, kn.occupied[kn.seat])
        if plan is not None and plan.steps:
            return plan.steps[0].cards
    sure = sure_patterns(kn.hand, kn.pool)
    if sure:
        return max(sure, key=lambda p: (_liangzi(p), len(p), p))
    value = keep_value(kn.hand)
    return max(hand_patterns(kn.hand), key=lambda p: (lead_gain(kn, p), -sum(value[c] for c in p) / len(p)))


def lead_gain(kn: Knowledge, cards: bytes) -> float:
    """The expected gain of leading ``cards``: the cards won against those handed to an
    opponent (not enough), or minus the cards expected to be handed over (enough)."""
    lost = eat_chance(pattern_of(cards), kn.pool, _others(kn))
    k = len(cards)
    return k * ((1 - lost) - LOSS_WEIGHT * lost) if kn.need else -k * lost


def choose_answer(kn: Knowledge) -> Choice:
    """Eat or cover (see the module)."""
    assert kn.best is not None
    value = keep_value(kn.hand, sure_patterns(kn.hand, kn.pool))
    options = eats(kn)
    if options:
        if kn.position == 2:
            return Choice(ActCode.EAT, cheapest(options, value))
        safe = [p for p in options if is_sure(pattern_of(p), kn.pool)]
        if safe:
            return Choice(ActCode.EAT, cheapest(safe, value))
        p = cheapest(options, value)
        back = eat_chance(pattern_of(p), kn.pool, _others(kn))
        leader = kn.best_seat if kn.best_seat is not None else kn.leader
        denies = kn.occupied[leader] < ENOUGH <= kn.occupied[leader] + kn.k
        if back < EAT_THRESHOLD or denies or kn.need == 0:
            return Choice(ActCode.EAT, p)
    return Choice(ActCode.COVER, cover_cards(kn.hand, kn.k, value))


def decide(kn: Knowledge) -> Choice:
    """The automaton robot's decision from its knowledge."""
    if kn.position == 0:
        return Choice(ActCode.LEAD, choose_lead(kn))
    return choose_answer(kn)
