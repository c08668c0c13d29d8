"""The state set (design.md §7.5): per suit, the rearrangement ``R: A -> (Ar, p)``
and its pair variant ``(Ar', p')``.

``p = (out, in)`` is the out/in pair (出取对): how many tiles of the suit to throw and how
many to get so that the suit becomes complete (``m * AAA + n * ABC``); the pair variant is
the same when the suit is also to hold the pair (``DD``). ``Ar`` lists the suit's tiles by
discard priority from low to high, so the tiles to throw are its *last* ``out`` tiles.

The steps follow the seed. Numbers (ascending ranks at each step): runs of three with no
spare copies; pungs (three of a count of 3 or 4); the remaining runs; pairs that can still
be made pungs (``in + 1``); dead pairs (``out + 2``); singles, most obtainable first
(``out + 1`` each). Honours: pungs; live pairs; dead pairs; singles.

One documented extension (``partials=True``, docs/robots.md): after the pairs, two-tile
partial chows (``23``, ``24``) whose missing tile can still be had are kept with
``in + 1`` -- design.md §7.4's 搭子, which design.md §7.5's steps otherwise throw as two singles.

>>> from paiju.protocol.cards import parse_tiles as t, format_tiles as f
>>> s = suit_state(1, [0, 1, 2, 1, 1, 0, 0, 0, 0], [4, 3, 2, 3, 3, 4, 4, 4, 4])  # 23345 bamboo
>>> f(s.ar), s.p, f(s.ar2), s.p2
('23453s', (2, 0), '23453s', (1, 1))
"""

from __future__ import annotations

from dataclasses import dataclass

from paiju.bots.memo import bounded

OutIn = tuple[int, int]
MAX: OutIn = (14, 14)  # the seed's "no way" value


def weight(p: OutIn) -> int:
    """The seed's comparison key (§4.2): ``out + 2 * in`` (a tile to get costs two to throw).

    >>> weight((1, 1)) < weight((0, 2))
    True
    """
    return p[0] + 2 * p[1]


def smaller(a: OutIn, b: OutIn) -> bool:
    """``a < b`` in the seed's order."""
    return weight(a) < weight(b)


@dataclass(frozen=True)
class Rearrangement:
    """``(Ar, p)`` of one suit, with the tiles the ``in`` count is waiting for."""

    ar: bytes
    p: OutIn
    wants: bytes  # one tile per ``in``: what would complete that block

    @property
    def outs(self) -> bytes:
        """The tiles to throw: the last ``out`` tiles of ``Ar``, the first to go first."""
        return bytes(reversed(self.ar[len(self.ar) - self.p[0] :])) if self.p[0] else b""


def rearrange(suit: int, counts: list[int], avail: list[int], *, partials: bool = False) -> Rearrangement:
    """Design.md §7.5: ``R: A -> (Ar, p)`` for one suit given the counts of each rank in hand
    and the unseen copies of each rank (``avail``, 可再得).

    >>> from paiju.protocol.cards import format_tiles as f
    >>> r = rearrange(3, [2, 0, 0, 3, 1, 0, 1], [2, 4, 4, 1, 3, 4, 0])  # EE NNN C P
    >>> f(r.ar), r.p, f(r.wants)  # P (白) cannot be had again: it is the first to go
    ('NNNEECP', (2, 1), 'E')
    """
    c = list(counts)
    ranks = len(c)
    out = inn = 0
    ar: list[int] = []
    wants: list[int] = []

    def tile(r: int) -> int:
        return suit << 4 | (r + 1)

    if suit != 3:
        for r in range(ranks - 2):  # runs of three with no spare copies
            if c[r] == c[r + 1] == c[r + 2] == 1:
                ar += [tile(r), tile(r + 1), tile(r + 2)]
                c[r] = c[r + 1] = c[r + 2] = 0
    for r in range(ranks):  # pungs
        if c[r] >= 3:
            ar += [tile(r)] * 3
            c[r] -= 3
    if suit != 3:
        for r in range(ranks - 2):  # the remaining runs
            while c[r] and c[r + 1] and c[r + 2]:
                ar += [tile(r), tile(r + 1), tile(r + 2)]
                c[r] -= 1
                c[r + 1] -= 1
                c[r + 2] -= 1
    for r in range(ranks):  # pairs that can still become pungs
        if c[r] == 2 and avail[r] > 0:
            ar += [tile(r)] * 2
            c[r] = 0
            inn += 1
            wants.append(tile(r))
    if partials and suit != 3:
        for r in range(ranks - 1):
            for gap in (1, 2):
                s = r + gap
                if s >= ranks or not (c[r] == 1 and c[s] == 1):
                    continue
                missing = [m for m in ((r + 1,) if gap == 2 else (r - 1, r + 2)) if 0 <= m < ranks and avail[m]]
                if missing:
                    ar += [tile(r), tile(s)]
                    c[r] = c[s] = 0
                    inn += 1
                    wants.append(tile(max(missing, key=lambda m: avail[m])))
                    break
    for r in range(ranks):  # dead pairs
        if c[r] == 2:
            ar += [tile(r)] * 2
            c[r] = 0
            out += 2
    singles = [r for r in range(ranks) for _ in range(c[r])]
    # most obtainable first; among equals the middle ranks first, so terminals go first
    singles.sort(key=lambda r: (-avail[r], abs(r - (ranks - 1) / 2)))
    ar += [tile(r) for r in singles]
    out += len(singles)
    return Rearrangement(bytes(ar), (out, inn), bytes(wants))


def pair_variant(suit: int, counts: list[int], avail: list[int], *, partials: bool = False) -> Rearrangement:
    """Design.md §7.5: ``(Ar', p')``, the suit rearranged around a pair.

    For each rank held (ascending): unless it is a single that cannot be paired, set one
    copy aside and rearrange the rest, costing ``(m, n + 1)``; with two copies or more,
    also set two aside, costing ``(m, n)``; keep the smallest. The pair heads ``Ar'``.
    An empty suit costs ``(0, 2)`` when a pair can still be drawn (the seed says
    ``(0, 0)``, which would make an empty suit the cheapest place for the pair; see
    docs/robots.md), else :data:`MAX`.

    >>> from paiju.protocol.cards import format_tiles as f
    >>> r = pair_variant(0, [2, 1, 1, 0, 0, 0, 0, 0, 0], [2, 3, 3, 4, 4, 4, 4, 4, 4])  # 1123m
    >>> f(r.ar), r.p  # one 1m kept for the pair, 123m: the pair still wants a 1m
    ('1123m', (0, 1))
    """
    best = Rearrangement(b"", MAX, b"")
    if not any(counts):
        live = [r for r in range(len(counts)) if avail[r] >= 2]
        if live:
            t = suit << 4 | (max(live, key=lambda r: avail[r]) + 1)
            return Rearrangement(b"", (0, 2), bytes([t, t]))
        return best
    for r in range(len(counts)):
        if not counts[r]:
            continue
        t = suit << 4 | (r + 1)
        if counts[r] >= 1 and (counts[r] > 1 or avail[r] > 0):
            c = list(counts)
            c[r] -= 1
            rest = rearrange(suit, c, avail, partials=partials)
            cost = (rest.p[0], rest.p[1] + 1)
            if smaller(cost, best.p):
                best = Rearrangement(bytes([t]) + rest.ar, cost, bytes([t]) + rest.wants)
        if counts[r] >= 2:
            c = list(counts)
            c[r] -= 2
            rest = rearrange(suit, c, avail, partials=partials)
            if smaller(rest.p, best.p):
                best = Rearrangement(bytes([t, t]) + rest.ar, rest.p, rest.wants)
    return best


@dataclass(frozen=True)
class SuitState:
    """The five-tuple of one suit: ``(A, Ar, p, Ar', p')``."""

    suit: int
    a: bytes
    plain: Rearrangement  # (Ar, p): the suit does not hold the pair
    paired: Rearrangement  # (Ar', p'): the suit holds the pair

    @property
    def ar(self) -> bytes:
        return self.plain.ar

    @property
    def p(self) -> OutIn:
        return self.plain.p

    @property
    def ar2(self) -> bytes:
        return self.paired.ar

    @property
    def p2(self) -> OutIn:
        return self.paired.p


def suit_state(suit: int, counts: list[int], avail: list[int], *, partials: bool = False) -> SuitState:
    """The state of one suit from its rank counts and unseen counts."""
    a, plain, paired = _suit_state(suit, tuple(counts), tuple(avail), partials)
    return SuitState(suit, a, Rearrangement(*plain), Rearrangement(*paired))


_Plain = tuple[bytes, OutIn, bytes]  # a Rearrangement's fields


@bounded(1 << 14)
def _suit_state(
    suit: int, counts_t: tuple[int, ...], avail_t: tuple[int, ...], partials: bool
) -> tuple[bytes, _Plain, _Plain]:
    # The cache keeps plain tuples of bytes and ints, not the objects: the garbage collector
    # stops tracking such tuples, while every cached dataclass would be walked by each of
    # its full collections, which stall the server's event loop (paiju/cli/heap.py).
    counts, avail = list(counts_t), list(avail_t)
    a = bytes(suit << 4 | (r + 1) for r in range(len(counts)) for _ in range(counts[r]))
    r, q = rearrange(suit, counts, avail, partials=partials), pair_variant(suit, counts, avail, partials=partials)
    return a, (r.ar, r.p, r.wants), (q.ar, q.p, q.wants)


@dataclass(frozen=True)
class StateSet:
    """The state set S = (s0, s1, s2, s3) and the sums the goal set is made from."""

    suits: tuple[SuitState, ...]

    @property
    def padd(self) -> OutIn:
        """``p0 + p1 + p2 + p3``."""
        return (sum(s.p[0] for s in self.suits), sum(s.p[1] for s in self.suits))

    def pwin(self, i: int) -> OutIn:
        """``pwin_i = padd - p_i + p'_i``: the out/in pair of winning with the pair in suit ``i``."""
        s = self.suits[i]
        if s.p2 == MAX:
            return MAX
        a = self.padd
        return (a[0] - s.p[0] + s.p2[0], a[1] - s.p[1] + s.p2[1])


def state_set(hand: bytes, unseen: list[int], *, honours: bool = True, partials: bool = False) -> StateSet:
    """The state set of a concealed hand given the unseen count of each tile byte.

    >>> from paiju.protocol.cards import parse_tiles as t
    >>> u = [4] * 0x40
    >>> S = state_set(t("123m 456m 789m 23345s"), u, honours=False)
    >>> [S.pwin(i) for i in range(4)]
    [(4, 1), (1, 1), (2, 2), (14, 14)]
    """
    suits = []
    for s in range(4):
        ranks = 7 if s == 3 else 9
        counts = [0] * ranks
        for b in hand:
            if b >> 4 == s:
                counts[(b & 0xF) - 1] += 1
        avail = [unseen[s << 4 | (r + 1)] for r in range(ranks)] if (s < 3 or honours) else [0] * ranks
        suits.append(suit_state(s, counts, avail, partials=partials))
    return StateSet(tuple(suits))
