"""Hand analysis: the hu distance, the information set (Q, D) and the useful draws (design.md §7.4).

Tiles are BDI bytes (paiju.protocol.cards): high nibble suit (0 万, 1 条, 2 筒, 3 honours), low
nibble rank. A hand here is the *concealed* part; ``melds`` is the number of exposed (or
concealed-kong) sets already made, so the concealed part has ``3 * (4 - melds) + 1`` tiles
(waiting for a draw) or ``+ 2`` (after one).

**Definition.** The hu distance of a concealed part ``h`` is ``min |W - h|`` over every
winning concealed part ``W`` of ``3 * (4 - melds) + 2`` tiles with at most four copies of
any tile: ``4 - melds`` sets + a pair (sets are pongs, and chows of number tiles), or seven
pairs when ``melds == 0`` and seven pairs count. For a 14-tile hand it is the number of
tiles to exchange (0 = a win); for a 13-tile hand the number of tiles missing (1 = ready).
It equals the usual shanten number + 1 and ignores whether the missing tiles are still
to be had (that is :func:`useful_draws`' business).

>>> from paiju.protocol.cards import parse_tiles as t
>>> hu_distance(t("123m 456m 789m 123p 55s"))
0
>>> hu_distance(t("123m 456m 789m 123p 5s"))
1
>>> hu_distance(t("1199m 1199p 1199s EE"))  # seven pairs
0
>>> hu_distance(t("1199m 1199p 1199s EE"), seven_pairs=False)
4
>>> hu_distance(t("1111m 2222m"), melds=2)  # quads inside: 111m 123m 22m, one exchange
1
"""

from __future__ import annotations

import functools
import itertools
from array import array
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from paiju.games.mahjong.tables import combined, complete_shapes, tables
from paiju.protocol.cards import MAHJONG_TILES

NUMBER_TILES = tuple(sorted(b for b in MAHJONG_TILES if b >> 4 < 3))
HONOUR_TILES = tuple(sorted(b for b in MAHJONG_TILES if b >> 4 == 3))
ALL_TILES = NUMBER_TILES + HONOUR_TILES
_TILE_SET = frozenset(ALL_TILES)

_FIELD = 21  # bits per suit in the packed key (5**9 < 2**21)
_MASK = (1 << _FIELD) - 1


def _weights() -> list[int | None]:
    w: list[int | None] = [None] * 256
    for b in MAHJONG_TILES:
        w[b] = 5 ** ((b & 0xF) - 1) << (_FIELD * (b >> 4))
    return w


def _make_hu_distance() -> tuple[Callable[..., int], Callable[..., tuple[int, int]]]:
    """Build :func:`hu_distance` over the tables and the suits combined in advance
    (:class:`paiju.games.mahjong.tables.Combined`): a call is four table reads, two grid
    reads and one read of the final table."""
    number, honour = tables()
    comb = combined()
    pair01, pair2h, final, lefts, rights = comb.pair01, comb.pair2h, comb.final, comb.lefts, comb.rights
    # padded so that a carry out of the top digit (a fifth copy) still reads an entry
    ne = number.entries + array("I", bytes(4 * ((1 << _FIELD) - len(number.entries))))
    he = honour.entries + array("I", bytes(4 * (5**8 - len(honour.entries))))
    weight: Callable[[int], int] = _weights().__getitem__  # type: ignore[assignment]  # None raises TypeError
    mask = _MASK

    def standard(tiles: bytes, melds: int) -> tuple[int, int]:
        """The standard-form distance and the per-tile count summary (for seven pairs)."""
        n = 4 - melds
        size = len(tiles)
        if not 0 < size - 3 * n < 3 or n < 0:
            raise ValueError(f"{size} concealed tiles do not fit {melds} melds (want {3 * n + 1} or {3 * n + 2})")
        try:
            k = sum(map(weight, tiles))
        except TypeError:
            raise ValueError(f"not mahjong tiles: {tiles.hex()}") from None
        e0 = ne[k & mask]
        e1 = ne[k >> 21 & mask]
        e2 = ne[k >> 42 & mask]
        e3 = he[k >> 63]
        total = e0 + e1 + e2 + e3
        if total >> 16 & 15 != size:  # a fifth copy carried into the next digit
            raise ValueError("more than four copies of a tile")
        d = final[(n * lefts + pair01[e0 >> 20][e1 >> 20]) * rights + pair2h[e2 >> 20][e3 >> 20]]
        return d, total

    def seven(total: int, distinct_pairs: bool) -> int:
        """The seven-pairs distance of a 13/14-tile concealed hand from its count summary."""
        if distinct_pairs:
            pairs, singles = total >> 8 & 15, total >> 12 & 15
        else:
            pairs, singles = total & 15, total >> 4 & 15
        return 14 - 2 * pairs - min(singles, 7 - pairs) if pairs < 7 else 0

    def hu_distance(tiles: bytes, melds: int = 0, *, seven_pairs: bool = True, distinct_pairs: bool = False) -> int:
        d, total = standard(tiles, melds)
        if seven_pairs and melds == 0:
            return min(d, seven(total, distinct_pairs))
        return d

    def form_distances(tiles: bytes, melds: int = 0, *, distinct_pairs: bool = False) -> tuple[int, int]:
        d, total = standard(tiles, melds)
        return d, seven(total, distinct_pairs) if melds == 0 else UNREACHABLE

    return hu_distance, form_distances


UNREACHABLE = 99  # the distance given for a form that no hand of this ruleset can make


@functools.cache
def _distances() -> tuple[Callable[..., int], Callable[..., tuple[int, int]]]:
    """:func:`hu_distance` and :func:`form_distances` over the tables, built at their first
    use: building them takes about a second of CPU, which a process that plays no mahjong
    (a server's start, a bridge robot's worker) does not pay."""
    return _make_hu_distance()


def hu_distance(tiles: bytes, melds: int = 0, *, seven_pairs: bool = True, distinct_pairs: bool = False) -> int:
    """The hu distance of a concealed part (see the module's definition).

    ``seven_pairs``: whether seven pairs is a winning form (only with ``melds == 0``);
    ``distinct_pairs``: whether its pairs must be seven different tiles (the riichi
    rule; paiju's rules let a four of a kind count as two pairs).
    """
    return _distances()[0](tiles, melds, seven_pairs=seven_pairs, distinct_pairs=distinct_pairs)


def form_distances(tiles: bytes, melds: int = 0, *, distinct_pairs: bool = False) -> tuple[int, int]:
    """The hu distance of the standard form and of seven pairs (:data:`UNREACHABLE`
    with melds), from one reading of the tables: ``hu_distance(tiles, melds)`` is
    their minimum and ``hu_distance(tiles, melds, seven_pairs=False)`` the first.

    >>> from paiju.protocol.cards import parse_tiles as t
    >>> form_distances(t("1199m 1199p 55s 18s 5m")), form_distances(t("1111m 2222m"), melds=2)
    ((4, 2), (1, 99))
    """
    return _distances()[1](tiles, melds, distinct_pairs=distinct_pairs)


def pair_suit_distances(tiles: bytes, melds: int = 0, *, honours: bool = True) -> tuple[int, int, int, int]:
    """The hu distance of the standard form (sets + a pair) with the pair forced into suit
    0 万, 1 条, 2 筒 or 3 honours, in that order; the least of them is the standard-form
    distance (:func:`hu_distance` without seven pairs). ``honours=False`` (the 108-tile
    set): the honours cannot hold the pair, :data:`UNREACHABLE`.

    It is what a robot needs to choose the suit of the pair (design.md §7.5's goal set); it reads
    the same per-suit tables as :func:`hu_distance`, so the two always agree.

    >>> from paiju.protocol.cards import parse_tiles as t
    >>> pair_suit_distances(t("123m 456m 789m 23345s"), honours=False)
    (2, 1, 2, 99)
    >>> pair_suit_distances(t("123m 456m 789m 123p 5s"))  # the 5s waits for its pair
    (2, 1, 2, 2)
    """
    n = 4 - melds
    size = len(tiles)
    if n < 0 or not 0 < size - 3 * n < 3:
        raise ValueError(f"{size} concealed tiles do not fit {melds} melds (want {3 * n + 1} or {3 * n + 2})")
    number, honour = tables()
    keys = [0, 0, 0, 0]
    have: Counter[int] = Counter()
    for b in tiles:
        if b not in _TILE_SET:
            raise ValueError(f"not mahjong tiles: {tiles.hex()}")
        have[b] += 1
        keys[b >> 4] += 5 ** ((b & 0xF) - 1)
    if have and max(have.values()) > 4:
        raise ValueError("more than four copies of a tile")
    if keys[3] and not honours:
        raise ValueError("honour tiles in a ruleset without honours")
    vecs = [number.vectors[number.entries[keys[s]] >> 20] for s in range(3)]
    vecs.append(honour.vectors[honour.entries[keys[3]] >> 20])
    total = 3 * n + 2
    out = []
    for pair_suit in range(4):
        if pair_suit == 3 and not honours:
            out.append(UNREACHABLE)
            continue
        # max-plus over the ways the n sets split between the suits
        best = [0] + [-1] * n
        for s in range(4 if honours else 3):
            f = vecs[s][1] if s == pair_suit else vecs[s][0]
            nxt = [-1] * (n + 1)
            for used in range(n + 1):
                if best[used] >= 0:
                    for m in range(n - used + 1):
                        nxt[used + m] = max(nxt[used + m], best[used] + f[m])
            best = nxt
        out.append(total - best[n] if best[n] >= 0 else UNREACHABLE)
    return out[0], out[1], out[2], out[3]


def seven_pairs_distance(tiles: bytes, *, distinct_pairs: bool = False) -> int:
    """The hu distance of the seven-pairs form alone (13 or 14 concealed tiles, no melds);
    ``distinct_pairs`` as in :func:`hu_distance`.

    >>> from paiju.protocol.cards import parse_tiles as t
    >>> seven_pairs_distance(t("1199m 1199p 1199s E")), seven_pairs_distance(t("11112233445566m"))
    (1, 0)
    >>> seven_pairs_distance(t("11112233445566m"), distinct_pairs=True)  # two 1m out, a new pair in
    2
    """
    if len(tiles) not in (13, 14):
        raise ValueError(f"seven pairs takes 13 or 14 concealed tiles, not {len(tiles)}")
    counts = Counter(tiles).values()
    if distinct_pairs:
        pairs, singles = sum(1 for c in counts if c >= 2), sum(1 for c in counts if c == 1)
    else:
        pairs, singles = sum(c // 2 for c in counts), sum(c % 2 for c in counts)
    return 14 - 2 * pairs - min(singles, 7 - pairs) if pairs < 7 else 0


def is_win(tiles: bytes, melds: int = 0, *, seven_pairs: bool = True) -> bool:
    """Whether a concealed part of ``3 * (4 - melds) + 2`` tiles is a winning form."""
    return len(tiles) == 14 - 3 * melds and hu_distance(tiles, melds, seven_pairs=seven_pairs) == 0


def waits(tiles: bytes, melds: int = 0, *, seven_pairs: bool = True, honours: bool = True) -> bytes:
    """The tiles that would complete a concealed part of ``3 * (4 - melds) + 1`` tiles."""
    have = Counter(tiles)
    domain = ALL_TILES if honours else NUMBER_TILES
    return bytes(
        t for t in domain if have[t] < 4 and hu_distance(tiles + bytes([t]), melds, seven_pairs=seven_pairs) == 0
    )


def unseen(tiles: bytes, seen: Iterable[int] = b"", *, honours: bool = True) -> dict[int, int]:
    """How many copies of each tile a seat has not seen: 4 less its own and the ``seen`` ones
    (everyone's discards and exposed melds; face-down tiles are not seen)."""
    c = Counter(tiles)
    c.update(b for b in seen if b)
    return {t: max(0, 4 - c[t]) for t in (ALL_TILES if honours else NUMBER_TILES)}


def useful_draws(
    tiles: bytes, melds: int = 0, *, seen: Iterable[int] = b"", seven_pairs: bool = True, honours: bool = True
) -> dict[int, int]:
    """The draws that would lower the hu distance, each with its number of unseen copies.

    For a part waiting for a draw (``3 * (4 - melds) + 1`` tiles): every tile ``t`` with
    ``hu_distance(tiles + t) < hu_distance(tiles)``. For a part after a draw (one tile
    more): the union of that over the discards that keep the distance lowest.

    >>> from paiju.protocol.cards import parse_tiles as t, format_tiles
    >>> format_tiles(bytes(useful_draws(t("123m 456m 789m 123p 5s"))))
    '5s'
    >>> useful_draws(t("123m 456m 789m 123p 5s"), seen=t("5s 5s"))
    {21: 1}
    """
    seen_b = bytes(seen)
    left = unseen(tiles, seen_b, honours=honours)
    if (len(tiles) + 3 * melds) % 3 == 2:
        out: dict[int, int] = {}
        opts = discard_options(tiles, melds, seen=seen_b, seven_pairs=seven_pairs, honours=honours)
        best = min(d for _, d, _ in opts)
        for _x, d, draws in opts:
            if d == best:
                out.update(draws)
        return dict(sorted(out.items()))
    d = hu_distance(tiles, melds, seven_pairs=seven_pairs)
    have = Counter(tiles)
    return {
        t: left[t] for t in left if have[t] < 4 and hu_distance(tiles + bytes([t]), melds, seven_pairs=seven_pairs) < d
    }


def discard_options(
    tiles: bytes, melds: int = 0, *, seen: Iterable[int] = b"", seven_pairs: bool = True, honours: bool = True
) -> list[tuple[int, int, dict[int, int]]]:
    """For a part after a draw: each distinct discard, the distance it leaves, and the
    useful draws then (with unseen counts); best first.

    >>> from paiju.protocol.cards import parse_tiles as t
    >>> [(x, d) for x, d, _ in discard_options(t("123m 456m 789m 123p 5s 9s"))][:2]
    [(21, 1), (25, 1)]
    """
    seen_b = bytes(seen)
    out = []
    for x in sorted(set(tiles)):
        rest = bytearray(tiles)
        rest.remove(x)
        part = bytes(rest)
        d = hu_distance(part, melds, seven_pairs=seven_pairs)
        out.append((x, d, useful_draws(part, melds, seen=seen_b, seven_pairs=seven_pairs, honours=honours)))
    out.sort(key=lambda o: (o[1], -sum(o[2].values()), o[0]))
    return out


# ------------------------------------------------------------------ the information set
@dataclass(frozen=True)
class InfoItem:
    """One way to win at the least distance: the tiles it needs (Q) and those it throws (D)."""

    needed: bytes
    discardable: bytes
    form: str  # "standard" or "seven pairs"


@dataclass(frozen=True)
class InfoSet:
    """design.md §7.4's information set ``I = {Q_i : D_i}`` at the hu distance ``distance``."""

    distance: int
    items: tuple[InfoItem, ...]
    complete: bool  # False when the list was cut at ``limit``


@functools.cache
def _shapes(ranks: int, chows: bool, m: int, p: int) -> list[tuple[int, ...]]:
    return complete_shapes(ranks, chows, m, p)


def _suit_counts(tiles: bytes, suit: int) -> tuple[int, ...]:
    ranks = 7 if suit == 3 else 9
    c = [0] * ranks
    for b in tiles:
        if b >> 4 == suit:
            c[(b & 0xF) - 1] += 1
    return tuple(c)


def information_set(tiles: bytes, melds: int = 0, *, seven_pairs: bool = True, limit: int = 256) -> InfoSet:
    """Every winning target at the least distance, as (Q needed, D discardable), up to ``limit``.

    >>> from paiju.protocol.cards import parse_tiles as t, format_tiles as f
    >>> s = information_set(t("123m 456m 789m 23345s"), melds=0, seven_pairs=False)
    >>> s.distance, sorted((f(i.needed), f(i.discardable)) for i in s.items)[:3]
    (1, [('2s', '3s'), ('3s', '2s'), ('3s', '5s')])
    """
    d = hu_distance(tiles, melds, seven_pairs=seven_pairs)
    n = 4 - melds
    have = Counter(tiles)
    items: dict[tuple[bytes, bytes], InfoItem] = {}
    full = False

    def add(target: Counter[int], form: str) -> bool:
        q = bytes(sorted((target - have).elements()))
        dd = bytes(sorted((have - target).elements()))
        items.setdefault((q, dd), InfoItem(q, dd, form))
        return len(items) >= limit

    counts = [_suit_counts(tiles, s) for s in range(4)]
    if seven_pairs and n == 4 and not full:
        full = _seven_pair_targets(have, d, add)
    if not full:
        full = _standard_targets(counts, n, d, add)
    return InfoSet(d, tuple(sorted(items.values(), key=lambda i: (i.needed, i.discardable))), not full)


def _seven_pair_targets(have: Counter[int], d: int, add) -> bool:  # type: ignore[no-untyped-def]
    pairs = sum(c // 2 for c in have.values())
    odd = sorted(t for t, c in have.items() if c % 2)
    slots = 7 - pairs
    if 14 - 2 * pairs - min(len(odd), slots) != d or slots < 0:
        return False
    base: Counter[int] = Counter({t: c // 2 * 2 for t, c in have.items()})
    if len(odd) >= slots:
        for chosen in itertools.combinations(odd, slots):
            target = base + Counter({t: 2 for t in chosen}) - Counter({t: 1 for t in chosen}) + Counter(chosen)
            if add(target, "seven pairs"):
                return True
        return False
    fresh = [t for t in ALL_TILES if have[t] == 0]
    paired = base + Counter({t: 1 for t in odd}) + Counter(odd)
    for extra in itertools.combinations(fresh, slots - len(odd)):
        if add(paired + Counter({t: 2 for t in extra}), "seven pairs"):
            return True
    return False


def _standard_targets(counts: list[tuple[int, ...]], n: int, d: int, add) -> bool:  # type: ignore[no-untyped-def]
    def per_suit(suit: int, m: int, p: int) -> tuple[int, list[tuple[int, ...]]]:
        ranks = 7 if suit == 3 else 9
        h = counts[suit]
        best, found = -1, []
        for w in _shapes(ranks, suit != 3, m, p):
            ov = sum(map(min, w, h))
            if ov > best:
                best, found = ov, [w]
            elif ov == best:
                found.append(w)
        return best, found

    cache: dict[tuple[int, int, int], tuple[int, list[tuple[int, ...]]]] = {}
    for ms in itertools.product(range(n + 1), repeat=4):
        if sum(ms) != n:
            continue
        for pair_suit in range(4):
            parts = []
            total = 0
            for s in range(4):
                key = (s, ms[s], int(s == pair_suit))
                if key not in cache:
                    cache[key] = per_suit(*key)
                ov, ws = cache[key]
                total += ov
                parts.append(ws)
            if 3 * n + 2 - total != d:
                continue
            for combo in itertools.product(*parts):
                target: Counter[int] = Counter()
                for s, w in enumerate(combo):
                    for r, c in enumerate(w):
                        if c:
                            target[s << 4 | (r + 1)] += c
                if add(target, "standard"):
                    return True
    return False
