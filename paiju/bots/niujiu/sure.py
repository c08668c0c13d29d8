"""Sure winners (design.md §7.1): a pattern nobody else can eat.

Design.md §7.1 reads the hand with IMP-minimax and finds that with four 9s and four Ks in
hand the tiger patterns (Q, QQ, QQQ) and 鱼 become "absolutely large" (绝对大), and that
with none of them they do not. The general principle behind both extremes: a pattern is
a **sure winner** when every card that could beat it is in the robot's own hand or has
already been played. What the robot cannot see is the :class:`Pool`: the cards that may
be in the other two hands (or among their face-down covers, which the robot cannot tell
apart). :func:`beatable` answers, by counting, whether some pattern of the pool's cards
eats a given pattern under the eat relation of docs/rules/niujiu.md §4; the tests check
it against the engine's own relation over every pattern of random pools.

>>> from paiju.protocol import parse_cards
>>> from paiju.games.niujiu import classify
>>> pool = Pool.of(parse_cards("HK SK C9"))
>>> beatable(classify(parse_cards("HQ")), pool), beatable(classify(parse_cards("HQ SQ")), pool)
(True, True)
>>> beatable(classify(parse_cards("HQ SQ")), Pool.of(parse_cards("HK C9 S9")))  # no KK, no 二牛 (two black 9s)
False
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from paiju.games.niujiu import LEVEL, Kind, Pattern, is_red, rank

K, Q, NIU, XI = 13, 12, 9, 5
BAI_RANKS = (8, 10, 13)
_PLAIN = frozenset({Kind.SINGLE, Kind.PAIR, Kind.TRIPLE, Kind.LIANGZI})
_NEVER_EATEN = frozenset({Kind.NIU_PAIR, Kind.NIU_TRIPLE, Kind.XI_PAIR, Kind.XI_TRIPLE, Kind.BAI, Kind.BAI_LIANG})
# the numbers above each number by R2.1, highest first
_ABOVE = {r: sorted((s for s in LEVEL if LEVEL[s] > LEVEL[r]), key=LEVEL.__getitem__, reverse=True) for r in LEVEL}


@dataclass(frozen=True)
class Pool:
    """How many cards of each number (and of each colour of 9 and 5) the robot cannot see."""

    count: tuple[int, ...]  # by number 0..13
    red9: int = 0
    black9: int = 0
    red5: int = 0
    black5: int = 0

    @classmethod
    def of(cls, cards: Iterable[int]) -> Pool:
        count = [0] * 14
        colours = {(NIU, True): 0, (NIU, False): 0, (XI, True): 0, (XI, False): 0}
        for c in cards:
            r = rank(c)
            count[r] += 1
            if r in (NIU, XI):
                colours[r, is_red(c)] += 1
        return cls(tuple(count), colours[NIU, True], colours[NIU, False], colours[XI, True], colours[XI, False])


Need = tuple[int, int]  # (cards of a kind the pool holds, cards of that kind the threat takes)


def threats(best: Pattern, pool: Pool) -> list[tuple[Need, ...]]:
    """Every way the pool's cards could eat ``best`` (R4.1-R4.17): each a list of needs.

    A need ``(have, take)`` says the threat takes ``take`` cards of a kind of which the pool
    holds ``have`` (the cards of one number, or of one number and colour). A threat whose
    needs the pool cannot meet is left out.
    """
    n, kind, r = best.size, best.kind, best.rank
    count = pool.count
    out: list[tuple[Need, ...]] = []
    if kind in _NEVER_EATEN or (kind in _PLAIN and r == K):  # R4.4, R4.8, R4.9, R4.12, R4.14
        pass
    elif kind == Kind.YU:  # R4.11: n鱼 only by n摆
        out.append(tuple((count[b], n // 3) for b in BAI_RANKS))
    elif kind == Kind.YU_LIANG:  # R4.13: any 摆亮
        for four in BAI_RANKS:
            out.append(tuple((count[b], 4 if b == four else 1) for b in BAI_RANKS))
    elif kind == Kind.XI_BAO_LIANG:  # R4.15: a 喜包亮 with a higher liangzi
        out += [((pool.red5, 1), (pool.black5, 1), (count[x], 4)) for x in _ABOVE[r] if x != XI]
    else:  # a plain single, pair, triple or liangzi below K
        if n == 2 and r != XI:  # R4.6: 二牛
            out.append(((pool.red9, 1), (pool.black9, 1)))
        if kind == Kind.TRIPLE:  # R4.7: 三牛
            out.append(((count[NIU], 3),))
        if r == Q and n in (1, 4):  # R4.5: 9 eats Q, four 9s eat four Qs
            out.append(((count[NIU], n),))
        for x in _ABOVE[r]:  # R4.2: a higher number of the same kind
            if n == 2 and x in (NIU, XI):  # a plain pair of 9s or 5s is one colour (R3.3)
                red, black = (pool.red9, pool.black9) if x == NIU else (pool.red5, pool.black5)
                out += [((red, 2),), ((black, 2),)]
            elif not (n == 3 and x in (NIU, XI)):  # three 9s are 三牛 (above), three 5s 三喜, which eats nothing
                out.append(((count[x], n),))
    return [t for t in out if all(have >= take for have, take in t)]


@lru_cache(maxsize=1 << 16)
def beatable(best: Pattern, pool: Pool) -> bool:
    """True when some set of the pool's cards forms a pattern that eats ``best``.

    The pool is taken as one hand: which of the two other seats holds which card is unknown,
    so "sure" is the safe reading (the seed's IMP-minimax takes the worst case too).
    """
    return bool(threats(best, pool))


@lru_cache(maxsize=1 << 14)
def hold_chance(need: Need, unseen: int, hand: int) -> float:
    """The chance that a hand of ``hand`` cards dealt from the ``unseen`` holds ``take`` of ``have`` cards."""
    have, take = need
    if hand <= 0 or unseen <= 0:
        return 0.0
    ways = sum(math.comb(have, i) * math.comb(unseen - have, hand - i) for i in range(take, min(have, hand) + 1))
    return ways / math.comb(unseen, hand)


def eat_chance(best: Pattern, pool: Pool, hands: list[int]) -> float:
    """An estimate of the chance that one of the seats holding ``hands`` cards (dealt from the pool)
    can eat ``best``: the needs of a threat are taken as independent, and so are the threats."""
    unseen = sum(pool.count)
    ways = threats(best, pool)
    miss = 1.0
    for h in hands:
        for t in ways:
            p = 1.0
            for need in t:
                p *= hold_chance(need, unseen, h)
            miss *= 1.0 - p
    return 1.0 - miss


def is_sure(pattern: Pattern, pool: Pool) -> bool:
    """A sure winner: nothing the robot cannot see eats it (design.md §7.1)."""
    return not beatable(pattern, pool)
