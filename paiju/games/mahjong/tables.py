"""Per-suit tables of the hu distance (the approach of table-based shanten calculators).

For one suit, a *pattern* is the count of each rank (ranks 1..9 for 万 条 筒, 1..7 for the
honours, each count 0..4), keyed in base 5: ``key = sum(count[r] * 5**r)`` (r from 0).
For every pattern ``h`` with at most 14 tiles and every target shape ``(m, p)`` -- ``m``
sets (pongs, and chows when the suit has them) plus ``p`` pairs (0 or 1), at most four
copies of a tile -- the table holds

    ``f[m][p](h) = max over complete suit shapes W of |min(W, h)|``

the largest number of the pattern's tiles that a shape ``W`` can keep. The hu distance
of a whole hand is then ``3N + 2 - max(sum of f over the suits)`` for ``N`` sets to make,
a max-plus combination of the suits' vectors (analysis.py).

The tables are computed here by a downward dynamic programme (``f(h) = |h|`` when ``h``
fits inside some ``W``, else the best ``f`` of ``h`` less one tile) and shipped in
``tables.bin`` (zlib); ``python -m paiju.games.mahjong.tables`` regenerates that file (some
20 s). Each entry of the shipped array is ``class << 20 | tiles << 16 | seven-pairs
counts``: patterns with the same ten ``f`` values share a class, and the number of tiles
lets the caller spot a fifth copy of a tile (it carries into the next base-5 digit).

The file also holds the suits' classes combined in advance (:class:`Combined`): computing
them takes about half a second of CPU, which a server would otherwise spend in its event
loop on its first mahjong move.

>>> number, honour = tables()
>>> number.vectors[number.entry(suit_key([1, 2, 3])) >> 20]
((0, 3, 3, 3, 3), (1, 3, 3, 3, 3))
"""

from __future__ import annotations

import functools
import itertools
import zlib
from array import array
from dataclasses import dataclass
from pathlib import Path

MAX_SETS = 4
MAX_TILES = 14
PATH = Path(__file__).with_name("tables.bin")
_MAGIC = b"PJMJ3"


def suit_key(ranks: list[int]) -> int:
    """The base-5 key of a suit pattern given as ranks 1..9 (repeats allowed)."""
    return sum(5 ** (r - 1) for r in ranks)


def _sets(ranks: int, chows: bool) -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = [(r, r, r) for r in range(ranks)]
    if chows:
        out += [(r, r + 1, r + 2) for r in range(ranks - 2)]
    return out


def complete_shapes(ranks: int, chows: bool, m: int, p: int) -> list[tuple[int, ...]]:
    """Every count vector of ``m`` sets + ``p`` pairs in one suit (at most 4 of a rank)."""
    shapes: set[tuple[int, ...]] = set()
    pairs: list[tuple[int, ...]] = [()] if p == 0 else [(r, r) for r in range(ranks)]
    for combo in itertools.combinations_with_replacement(_sets(ranks, chows), m):
        for pair in pairs:
            c = [0] * ranks
            for s in (*combo, pair):
                for r in s:
                    c[r] += 1
            if max(c, default=0) <= 4:
                shapes.add(tuple(c))
    return sorted(shapes)


def _key(c: tuple[int, ...] | list[int]) -> int:
    return sum(n * 5**i for i, n in enumerate(c))


@dataclass
class SuitTable:
    """The table of one kind of suit: entries by pattern key, and the class vectors."""

    ranks: int
    entries: array  # type: ignore[type-arg]  # uint32 per key (5**ranks)
    vectors: list[tuple[tuple[int, ...], tuple[int, ...]]]  # class -> (f[m][0] for m, f[m][1] for m)

    def entry(self, key: int) -> int:
        return int(self.entries[key])


def seven_pair_counts(c: tuple[int, ...] | list[int]) -> int:
    """Packed counts for seven pairs: pairs (a quad is two), odd leftovers, ranks held twice
    or more, ranks held once -- 4 bits each, so the suits' values can simply be added."""
    pairs = sum(n // 2 for n in c)
    odd = sum(n % 2 for n in c)
    held2 = sum(1 for n in c if n >= 2)
    held1 = sum(1 for n in c if n == 1)
    return pairs | odd << 4 | held2 << 8 | held1 << 12


def build(ranks: int, chows: bool) -> SuitTable:
    """Compute the table of a suit of ``ranks`` ranks (slow: pure Python, for the generator)."""
    states: list[tuple[int, ...]] = [c for c in itertools.product(range(5), repeat=ranks) if sum(c) <= MAX_TILES]
    states.sort(key=sum)
    keys = [_key(c) for c in states]
    pow5 = [5**i for i in range(ranks)]
    f_all: list[list[int]] = []
    for m in range(MAX_SETS + 1):
        for p in (0, 1):
            inside: set[int] = set()
            frontier = {_key(w) for w in complete_shapes(ranks, chows, m, p)}
            # the downward closure: every sub-multiset of a complete shape
            while frontier:
                inside |= frontier
                nxt: set[int] = set()
                for k in frontier:
                    x = k
                    for i in range(ranks):
                        if x % 5:
                            nxt.add(k - pow5[i])
                        x //= 5
                frontier = nxt - inside
            f: dict[int, int] = {}
            for c, k in zip(states, keys, strict=True):
                if k in inside:
                    f[k] = sum(c)
                else:
                    f[k] = max(f[k - pow5[i]] for i in range(ranks) if c[i])
            f_all.append([f[k] for k in keys])
    size = 5**ranks
    entries = array("I", bytes(4 * size))
    classes: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = {}
    vectors: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
    for j, (c, k) in enumerate(zip(states, keys, strict=True)):
        vals = [f_all[t][j] for t in range(2 * (MAX_SETS + 1))]
        vec = (tuple(vals[0::2]), tuple(vals[1::2]))
        cid = classes.get(vec)
        if cid is None:
            cid = classes[vec] = len(vectors)
            vectors.append(vec)
        entries[k] = cid << 20 | sum(c) << 16 | seven_pair_counts(c)
    return SuitTable(ranks, entries, vectors)


Vector = tuple[tuple[int, ...], tuple[int, ...]]  # a class: (f[m][0] for m, f[m][1] for m)


def _combine(a: Vector, b: Vector) -> Vector:
    """Max-plus combination of two suits' vectors: (f[m] without the pair, f[m] with it)."""
    an, ap = a
    bn, bp = b
    cn = tuple(max(an[i] + bn[m - i] for i in range(m + 1)) for m in range(5))
    cp = tuple(max(max(ap[i] + bn[m - i], an[i] + bp[m - i]) for i in range(m + 1)) for m in range(5))
    return cn, cp


def _closure(xs: list[Vector], ys: list[Vector]) -> tuple[list[bytes], list[Vector]]:
    ids: dict[Vector, int] = {}
    grid = [bytes(ids.setdefault(_combine(x, y), len(ids)) for y in ys) for x in xs]
    return grid, list(ids)


@dataclass
class Combined:
    """The suits' classes combined in advance, so that the hu distance of a hand is four
    table reads, two grid reads and one read of ``final``: ``left = pair01[c0][c1]`` for the
    classes of suits 0 and 1, ``right = pair2h[c2][c3]`` for suit 2 and the honours, and
    ``final[(n * lefts + left) * rights + right]`` the distance with ``n`` sets to make."""

    pair01: list[bytes]
    pair2h: list[bytes]
    lefts: int
    rights: int
    final: bytes


def combine(number: SuitTable, honour: SuitTable) -> Combined:
    """Compute :class:`Combined` from the two suit tables (about half a second)."""
    pair01, left = _closure(number.vectors, number.vectors)
    pair2h, right = _closure(number.vectors, honour.vectors)
    final = bytearray()
    for n in range(MAX_SETS + 1):
        for a in left:
            an, ap = a[0][: n + 1], a[1][: n + 1]
            final += bytes(
                3 * n + 2 - max(max(ap[i] + bn[n - i], an[i] + bp[n - i]) for i in range(n + 1)) for bn, bp in right
            )
    return Combined(pair01, pair2h, len(left), len(right), bytes(final))


def _u32(n: int) -> bytes:
    return n.to_bytes(4, "little")


def _dump(tables: list[SuitTable], combined: Combined) -> bytes:
    out = bytearray(_MAGIC)
    for t in tables:
        flat = array("B", [v for vec in t.vectors for half in vec for v in half])
        body = t.entries.tobytes()
        out += t.ranks.to_bytes(1, "little") + _u32(len(t.vectors)) + flat.tobytes() + body
    for grid in (combined.pair01, combined.pair2h):
        out += _u32(len(grid)) + _u32(len(grid[0])) + b"".join(grid)
    out += _u32(combined.lefts) + _u32(combined.rights) + combined.final
    return zlib.compress(bytes(out), 9)


def _load(data: bytes) -> tuple[SuitTable, SuitTable, Combined]:
    raw = zlib.decompress(data)
    if not raw.startswith(_MAGIC):
        raise ValueError("not a paiju mahjong table file (or one of an older format: regenerate it)")
    pos = len(_MAGIC)

    def u32() -> int:
        nonlocal pos
        pos += 4
        return int.from_bytes(raw[pos - 4 : pos], "little")

    suits = []
    for _ in range(2):
        ranks = raw[pos]
        pos += 1
        n = u32()
        flat = raw[pos : pos + 10 * n]
        pos += 10 * n
        vectors = [(tuple(flat[10 * i : 10 * i + 5]), tuple(flat[10 * i + 5 : 10 * i + 10])) for i in range(n)]
        entries = array("I")
        entries.frombytes(raw[pos : pos + 4 * 5**ranks])
        pos += 4 * 5**ranks
        suits.append(SuitTable(ranks, entries, vectors))
    grids = []
    for _ in range(2):
        rows, cols = u32(), u32()
        grids.append([raw[pos + cols * i : pos + cols * (i + 1)] for i in range(rows)])
        pos += rows * cols
    lefts, rights = u32(), u32()
    final = raw[pos : pos + (MAX_SETS + 1) * lefts * rights]
    return suits[0], suits[1], Combined(grids[0], grids[1], lefts, rights, final)


def generate() -> tuple[SuitTable, SuitTable, Combined]:
    number, honour = build(9, True), build(7, False)
    return number, honour, combine(number, honour)


@functools.cache
def _read() -> tuple[SuitTable, SuitTable, Combined]:
    try:
        return _load(PATH.read_bytes())
    except FileNotFoundError:  # an install without the data file: compute (about a minute)
        return generate()


def tables() -> tuple[SuitTable, SuitTable]:
    """The (number suit, honour suit) tables, read from ``tables.bin`` once."""
    number, honour, _ = _read()
    return number, honour


def combined() -> Combined:
    """The suits combined in advance, read from ``tables.bin`` once."""
    return _read()[2]


if __name__ == "__main__":  # pragma: no cover - the generator
    import sys
    import time

    t0 = time.perf_counter()
    number, honour, comb = generate()
    PATH.write_bytes(_dump([number, honour], comb))
    print(
        f"wrote {PATH} ({PATH.stat().st_size} bytes): classes {len(number.vectors)}, {len(honour.vectors)}"
        f" in {time.perf_counter() - t0:.1f} s",
        file=sys.stderr,
    )
