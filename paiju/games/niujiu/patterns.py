"""Niujiu's patterns and the "eat" relation (docs/rules/niujiu.md §2–§4).

Everything here is a pure function of card bytes (suit << 4 | rank, rank 1 = A ... 13 = K):

>>> from paiju.protocol import parse_cards
>>> classify(parse_cards("HA D2 S3", ace=1))
Pattern(kind=<Kind.YU: 9>, size=3, rank=0)
>>> classify(parse_cards("H9 S9")).name, classify(parse_cards("H9 D9")).name
('niu pair', 'pair')
>>> beats(parse_cards("C9 D9"), parse_cards("HQ SQ")), beats(parse_cards("HK SK"), parse_cards("C9 D9"))
(True, False)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations, product

from paiju.protocol.cards import NIUJIU_CARDS
from paiju.protocol.niujiu import Kind

A, K, Q, J = 1, 13, 12, 11
NIU, XI = 9, 5  # 牛 and 喜: the two numbers whose colour matters
YU_RANKS = (1, 2, 3)  # 鱼 A-2-3
BAI_RANKS = (8, 10, 13)  # 摆 8-10-K

# Strength of each number (R2.1): K > Q > J = 10 > 9 > 8 > 7 > 6 = 3 > 5 > 2 > A.
LEVEL: dict[int, int] = {1: 0, 2: 1, 5: 2, 3: 3, 6: 3, 7: 4, 8: 5, 9: 6, 10: 7, 11: 7, 12: 8, 13: 9}

_PLAIN = (Kind.SINGLE, Kind.PAIR, Kind.TRIPLE, Kind.LIANGZI)
_UNBEATEN = frozenset({Kind.NIU_PAIR, Kind.NIU_TRIPLE, Kind.XI_PAIR, Kind.XI_TRIPLE, Kind.BAI, Kind.BAI_LIANG})
_COUNT_NAMES = {1: "", 2: "two ", 3: "three ", 4: "four "}
_MULTIPLE_NAMES = {1: "", 2: "double ", 3: "triple ", 4: "quadruple "}


def rank(card: int) -> int:
    """The number of a card: 1 (A) .. 13 (K)."""
    return card & 0xF


def is_red(card: int) -> bool:
    """Hearts (2) and diamonds (1) are red; clubs (0) and spades (3) black."""
    return card >> 4 in (1, 2)


@dataclass(frozen=True)
class Pattern:
    """A set of cards that may be led: its kind, its number of cards, and its rank.

    ``rank`` is the number that decides comparisons: the number of a single, pair,
    triple or liangzi; the number held four times in a 鱼亮, 摆亮 or the liangzi of a
    喜包亮; 0 for 鱼 and 摆 (all alike; ``size`` says how many of each).
    """

    kind: Kind
    size: int
    rank: int

    @property
    def name(self) -> str:
        """The glossary name (docs/design.md §8): ``tian``, ``two tigers``, ``niu pair``, ``double yu``..."""
        k = self.kind
        if k in _PLAIN:
            n = _PLAIN.index(k) + 1
            if self.rank == K:
                return f"{_COUNT_NAMES[n]}tian"
            if self.rank == Q:
                return f"{_COUNT_NAMES[n]}tiger" + ("s" if n > 1 else "")
            if k == Kind.SINGLE and self.rank in (NIU, XI):
                return "niu" if self.rank == NIU else "xi"
            return k.name.lower()
        if k in (Kind.YU, Kind.BAI):
            return _MULTIPLE_NAMES[self.size // 3] + k.name.lower()
        return k.name.lower().replace("_", "-").replace("-pair", " pair").replace("-triple", " triple")


def classify(cards: bytes) -> Pattern | None:
    """The pattern ``cards`` form, or None (also for a byte that is no Niujiu card, or one card twice).

    >>> from paiju.protocol import parse_cards
    >>> classify(parse_cards("H5 C5 S7 H7 D7 C7")).name
    'xi-bao-liang'
    >>> classify(parse_cards("HA D2 S6", ace=1)) is None  # 6 ranks with 3 but is not a 3
    True
    """
    n = len(cards)
    if not 1 <= n <= 12 or len(set(cards)) != n or any(c not in NIUJIU_CARDS for c in cards):
        return None
    counts = Counter(rank(c) for c in cards)
    if len(counts) == 1:
        r = rank(cards[0])
        if n == 2 and r in (NIU, XI) and is_red(cards[0]) != is_red(cards[1]):
            return Pattern(Kind.NIU_PAIR if r == NIU else Kind.XI_PAIR, 2, r)
        if n == 3 and r in (NIU, XI):  # three 9s (5s) always mix the colours: two of each exist
            return Pattern(Kind.NIU_TRIPLE if r == NIU else Kind.XI_TRIPLE, 3, r)
        return Pattern(_PLAIN[n - 1], n, r)
    for ranks, run, liang in ((YU_RANKS, Kind.YU, Kind.YU_LIANG), (BAI_RANKS, Kind.BAI, Kind.BAI_LIANG)):
        if set(counts) == set(ranks):
            if len(set(counts.values())) == 1:
                return Pattern(run, n, 0)
            if sorted(counts.values()) == [1, 1, 4]:
                return Pattern(liang, 6, max(counts, key=counts.__getitem__))
            return None
    if n == 6 and counts.get(XI) == 2 and len(counts) == 2:
        fives = [c for c in cards if rank(c) == XI]
        if is_red(fives[0]) != is_red(fives[1]):
            return Pattern(Kind.XI_BAO_LIANG, 6, next(r for r in counts if r != XI))
    return None


def pattern_beats(challenger: Pattern, best: Pattern) -> bool:
    """The eat relation on patterns (docs/rules/niujiu.md §4): does ``challenger`` eat ``best``?"""
    c, b = challenger, best
    if c.size != b.size:  # R4.1
        return False
    if c.kind in (Kind.XI_PAIR, Kind.XI_TRIPLE) or b.kind in _UNBEATEN:  # R4.8, R4.9, R4.12, R4.14
        return False
    if b.kind in _PLAIN and b.rank == K:  # R4.4: 天 is never eaten
        return False
    if b.kind == Kind.YU:  # R4.11
        return c.kind == Kind.BAI
    if b.kind == Kind.YU_LIANG:  # R4.13
        return c.kind == Kind.BAI_LIANG
    if b.kind == Kind.XI_BAO_LIANG:  # R4.15
        return c.kind == Kind.XI_BAO_LIANG and LEVEL[c.rank] > LEVEL[b.rank]
    # b is now a plain single, pair, triple or liangzi below K
    if c.kind == Kind.NIU_PAIR:  # R4.6: any pair but Ks and 5s
        return b.kind == Kind.PAIR and b.rank != XI
    if c.kind == Kind.NIU_TRIPLE:  # R4.7: any triple but Ks and 5s (three 5s are 三喜)
        return b.kind == Kind.TRIPLE
    if c.kind != b.kind:  # R4.17
        return False
    if b.rank == Q and c.rank == NIU and c.kind in (Kind.SINGLE, Kind.LIANGZI):  # R4.5: 牛 eats 虎
        return True
    return LEVEL[c.rank] > LEVEL[b.rank]  # R4.2, R4.3


def beats(challenger: bytes, best: bytes) -> bool:
    """True when the cards ``challenger`` form a pattern that eats the pattern ``best``.

    False when either is no pattern.

    >>> from paiju.protocol import parse_cards
    >>> beats(parse_cards("S9"), parse_cards("HQ")), beats(parse_cards("S9"), parse_cards("HJ"))
    (True, False)
    >>> beats(parse_cards("HJ"), parse_cards("ST")), beats(parse_cards("D6"), parse_cards("C3"))
    (False, False)
    """
    c, b = classify(challenger), classify(best)
    return c is not None and b is not None and pattern_beats(c, b)


def _by_rank(hand: bytes) -> dict[int, list[int]]:
    groups: dict[int, list[int]] = {}
    for card in sorted(hand):
        groups.setdefault(rank(card), []).append(card)
    return groups


def _runs(groups: dict[int, list[int]], ranks: tuple[int, ...], size: int | None) -> Iterator[bytes]:
    """鱼/摆 and their multiples, then 鱼亮/摆亮, drawn from ``groups``."""
    short = min(len(groups.get(r, ())) for r in ranks)
    for n in range(1, short + 1):
        if size is None or size == 3 * n:
            for parts in product(*(combinations(groups[r], n) for r in ranks)):
                yield bytes(sorted(c for part in parts for c in part))
    if size in (None, 6) and short:
        for four in ranks:
            if len(groups[four]) == 4:
                others = [groups[r] for r in ranks if r != four]
                for x, y in product(*others):
                    yield bytes(sorted([*groups[four], x, y]))


def patterns(hand: bytes, size: int | None = None) -> list[bytes]:
    """Every set of cards of ``hand`` that is a pattern (of ``size`` cards if given), each sorted.

    >>> from paiju.protocol import parse_cards
    >>> [classify(p).name for p in patterns(parse_cards("H9 S9 C9"), 2)]
    ['niu pair', 'pair', 'niu pair']
    """
    groups = _by_rank(hand)
    out: list[bytes] = []
    for cards in groups.values():
        for n in range(1, len(cards) + 1):
            if size is None or size == n:
                out.extend(bytes(combo) for combo in combinations(cards, n))
    out.extend(_runs(groups, YU_RANKS, size))
    out.extend(_runs(groups, BAI_RANKS, size))
    if size in (None, 6):
        reds = [c for c in groups.get(XI, ()) if is_red(c)]
        blacks = [c for c in groups.get(XI, ()) if not is_red(c)]
        for r, cards in groups.items():
            if r != XI and len(cards) == 4:
                out.extend(bytes(sorted([red, black, *cards])) for red, black in product(reds, blacks))
    return out


def niu_code(cards: bytes) -> int:
    """The seed's additive code for 9s (and 5s) by colour (design.md §7.1): red adds 7, black 9, mod 10.

    Each combination of colours of up to four cards gets its own value, so the code
    tells a 二牛 (6) from two red 9s (4) or two black 9s (8).

    >>> from paiju.protocol import parse_cards
    >>> niu_code(parse_cards("H9 S9")), niu_code(parse_cards("H9 D9")), niu_code(parse_cards("C9 S9"))
    (6, 4, 8)
    """
    return sum(7 if is_red(c) else 9 for c in cards) % 10
