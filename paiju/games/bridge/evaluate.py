"""Hand evaluation as the bridge robot's source (design.md §7.2) gives it.

Four steps: high-card points (A 4, K 3, Q 2, J 1); deductions for honours in short suits
(a singleton K, Q or J -1, a singleton A -0.5, a doubleton holding a K, Q or J -0.5, a
doubleton ace alone nothing); a good long suit of ``n`` cards adds ``n/2 - 0.5`` (its
trick potential); and, once a trump suit is known, +2 when it is the hand's strongest
suit, +1 when it is a strong one.

A card is a byte ``suit << 4 | rank`` (suits 0 C, 1 D, 2 H, 3 S; ranks 2..14).

>>> from paiju.games.bridge.deal import parse_hand
>>> h = parse_hand("J.K2.AJ32.AJ5432")
>>> hcp(h), shortness(h), long_suits(h), strength(h), strength(h, trump=0)
(14, -1.5, 2.5, 15.0, 17.0)
"""

from __future__ import annotations

from collections.abc import Iterable

HCP = {14: 4, 13: 3, 12: 2, 11: 1}
HONOURS = frozenset(HCP)  # the seed's "big cards": A K Q J
GOOD_SUIT_LENGTH = 5  # a long suit counts from five cards ...
GOOD_SUIT_HONOURS = 2  # ... headed by two of A K Q J (the seed's example: AJ-sixth)


def suits(hand: Iterable[int]) -> list[list[int]]:
    """The ranks of each suit (C D H S), highest first."""
    out: list[list[int]] = [[], [], [], []]
    for c in hand:
        out[c >> 4].append(c & 0xF)
    for s in out:
        s.sort(reverse=True)
    return out


def lengths(hand: Iterable[int]) -> list[int]:
    """Cards per suit (C D H S)."""
    n = [0, 0, 0, 0]
    for c in hand:
        n[c >> 4] += 1
    return n


def hcp(hand: Iterable[int]) -> int:
    """High-card points: A 4, K 3, Q 2, J 1."""
    return sum(HCP.get(c & 0xF, 0) for c in hand)


def honours(hand: Iterable[int]) -> list[int]:
    """How many of A K Q J each suit holds (C D H S)."""
    n = [0, 0, 0, 0]
    for c in hand:
        if c & 0xF in HONOURS:
            n[c >> 4] += 1
    return n


def suit_shortness(ranks: list[int]) -> float:
    """The deduction for one suit's short honours (step two)."""
    if len(ranks) == 1:
        r = ranks[0]
        return -0.5 if r == 14 else -1.0 if r in HONOURS else 0.0
    if len(ranks) == 2 and (ranks[0] in (13, 12, 11) or ranks[1] in (13, 12, 11)):
        return -0.5
    return 0.0


def shortness(hand: Iterable[int]) -> float:
    """Step two over the whole hand."""
    return sum(suit_shortness(s) for s in suits(hand))


def long_suits(hand: Iterable[int]) -> float:
    """Step three: ``n/2 - 0.5`` for each good suit of ``n`` cards (five or more headed by two of A K Q J)."""
    _, _, n, hon, _ = features(hand)
    return sum(n[s] / 2 - 0.5 for s in range(4) if n[s] >= GOOD_SUIT_LENGTH and hon[s] >= GOOD_SUIT_HONOURS)


def suit_rank(hand: Iterable[int]) -> list[int]:
    """Suits from strongest to weakest: by length, then high-card points, then the higher suit."""
    ss = suits(hand)
    return sorted(range(4), key=lambda s: (len(ss[s]), sum(HCP.get(r, 0) for r in ss[s]), s), reverse=True)


def trump_bonus(hand: Iterable[int], trump: int | None) -> float:
    """Step four: +2 when the trump suit is the hand's strongest, +1 when it is its second."""
    if trump is None or trump > 3:
        return 0.0
    order = suit_rank(hand)
    return 2.0 if order[0] == trump else 1.0 if order[1] == trump else 0.0


def features(hand: Iterable[int]) -> tuple[float, int, list[int], list[int], list[int]]:
    """In one pass: the evaluation without trumps (steps one to three), high-card points, and
    per suit (C D H S) the length, the honours and the high-card points. The bidding engine
    and the sampler ask this of every hand they look at."""
    by: list[list[int]] = [[], [], [], []]
    for c in hand:
        by[c >> 4].append(c & 0xF)
    points, total = 0.0, 0
    n, hon, pts = [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]
    for s in range(4):
        ranks = by[s]
        n[s] = len(ranks)
        for r in ranks:
            if r >= 11:
                hon[s] += 1
                pts[s] += r - 10
        total += pts[s]
        points += suit_shortness(ranks)
        if n[s] >= GOOD_SUIT_LENGTH and hon[s] >= GOOD_SUIT_HONOURS:
            points += n[s] / 2 - 0.5
    return points + total, total, n, hon, pts


def is_balanced(hand: Iterable[int]) -> bool:
    """No void or singleton, at most one doubleton (4-3-3-3, 4-4-3-2, 5-3-3-2)."""
    n = sorted(lengths(hand))
    return n[0] >= 2 and n[1] >= 3


def strength(hand: Iterable[int], trump: int | None = None) -> float:
    """The seed's evaluation: points, minus short honours, plus long suits, plus the trump bonus."""
    cards = list(hand)
    return features(cards)[0] + trump_bonus(cards, trump)
