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
_MAGIC = b"PJMJ2"


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


def _dump(tables: list[SuitTable]) -> bytes:
    out = bytearray(_MAGIC)
    for t in tables:
        flat = array("B", [v for vec in t.vectors for half in vec for v in half])
        body = t.entries.tobytes()
        out += t.ranks.to_bytes(1, "little") + len(t.vectors).to_bytes(4, "little") + flat.tobytes() + body
    return zlib.compress(bytes(out), 9)


def _load(data: bytes) -> list[SuitTable]:
    raw = zlib.decompress(data)
    if not raw.startswith(_MAGIC):
        raise ValueError("not a paiju mahjong table file")
    pos = len(_MAGIC)
    tables = []
    while pos < len(raw):
        ranks = raw[pos]
        n = int.from_bytes(raw[pos + 1 : pos + 5], "little")
        pos += 5
        flat = raw[pos : pos + 10 * n]
        pos += 10 * n
        vectors = [(tuple(flat[10 * i : 10 * i + 5]), tuple(flat[10 * i + 5 : 10 * i + 10])) for i in range(n)]
        entries = array("I")
        entries.frombytes(raw[pos : pos + 4 * 5**ranks])
        pos += 4 * 5**ranks
        tables.append(SuitTable(ranks, entries, vectors))
    return tables


def generate() -> list[SuitTable]:
    return [build(9, True), build(7, False)]


@functools.cache
def tables() -> tuple[SuitTable, SuitTable]:
    """The (number suit, honour suit) tables, read from ``tables.bin`` once."""
    try:
        number, honour = _load(PATH.read_bytes())
    except FileNotFoundError:  # an install without the data file: compute (about a minute)
        number, honour = generate()
    return number, honour


if __name__ == "__main__":  # pragma: no cover - the generator
    import sys
    import time

    t0 = time.perf_counter()
    tabs = generate()
    PATH.write_bytes(_dump(tabs))
    print(
        f"wrote {PATH} ({PATH.stat().st_size} bytes): classes {[len(t.vectors) for t in tabs]}"
        f" in {time.perf_counter() - t0:.1f} s",
        file=sys.stderr,
    )
