"""The exact solver of the simple trick-taking game (design.md §7.3), fast enough for a 52-card pack.

The value of a position (``otd``) is the leader's tricks minus the follower's under
optimal play. The solver follows the seed:

* the **strategy graph**: a choice is an interval node, not a card (graph.py);
* the **defence tree**: against a lead from any interval but the leader's top one the
  follower answers "just beat" (the cheapest card that wins: the follower's interval
  just above); against the top lead, a follower holding the lowest card of all ducks
  with it; otherwise both remaining candidates are searched: duck with the follower's
  lowest card, or win with the cheapest winner (the seed says "search every card";
  docs/robots.md shows these two are enough, tested against plain minimax);
* the **attack tree**: the seed stops at the first pair of successive attack intervals
  whose conditional optima differ and returns the larger, which is exact because the
  optima of all attacks of a position lie within 2 of each other (docs/robots.md). The
  deep search uses the same fact through null-window tests (is the value >= t?) with a
  transposition table of bounds, which prunes far more than the early stop alone;
* the **cache**: every position of order <= N solved bottom-up (each by one level of
  the trees over the order N-1 table), saved to disk and loaded; the search looks any
  position of order <= N up instead of searching it.

>>> solve([1, 4, 5, 8], [2, 3, 6, 7])
0
>>> optimal_attacks([1, 4, 5, 8], [2, 3, 6, 7])
[(1,), (4, 5), (8,)]
>>> optimal_defences([3, 6, 7], [1, 2, 4, 8], lead=5)  # duck: winning with the 8 costs a trick
[(1, 2)]
"""

from __future__ import annotations

import contextlib
import itertools
import os
import zlib
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from paiju.bots.tricks.graph import Interval, after_trick, key_of, runs, size

DEFAULT_ORDER = 10  # 2 MB in memory, about 4 s to build, under 100 kB on disk
_BIAS = 64  # table byte = value + _BIAS; 0 = not a balanced position
_MAGIC = b"PJTC1"


# ------------------------------------------------------------------ the two trees
def defences(key: int, rs: list[tuple[int, int, int]], idx: int, top: int) -> list[int]:
    """The follower's answers (bits) that the defence tree keeps against a lead from interval ``rs[idx]``."""
    lead = rs[idx][1]
    above = rs[idx + 1][1] if idx + 1 < len(rs) else -1
    if idx != top:  # a non-top attack: just beat
        return [above]
    if not key & 1:  # the follower holds the lowest card of all: duck with it
        return [0]
    lowest = rs[1][1]  # the leader holds bit 0, so the follower's lowest interval is the second
    out = [lowest] if lowest < lead else []
    if above >= 0:
        out.append(above)
    return out


def _top_index(rs: list[tuple[int, int, int]]) -> int:
    return len(rs) - 1 if rs[-1][0] else len(rs) - 2


class Cache:
    """Every position of order <= ``order`` with its value, as one byte array indexed by key."""

    def __init__(self, order: int, table: bytearray) -> None:
        if len(table) != 1 << (2 * order + 1):
            raise ValueError(f"a cache of order {order} has {1 << (2 * order + 1)} bytes, not {len(table)}")
        self.order = order
        self.table = table

    @classmethod
    def build(cls, order: int = DEFAULT_ORDER) -> Cache:
        """Solve every instance of order 1..``order`` bottom-up (the seed's step 102)."""
        if not 0 <= order <= 12:
            raise ValueError("cache orders are 0..12 (order 12 is already 32 MB)")
        table = bytearray(1 << (2 * order + 1))
        table[1] = _BIAS  # the empty position: nothing left to win
        for m in range(1, order + 1):
            sentinel = 1 << (2 * m)
            bits = [1 << i for i in range(2 * m)]
            for chosen in itertools.combinations(bits, m):
                key = sentinel | sum(chosen)
                table[key] = _BIAS + _one_level(key, table)
        return cls(order, table)

    def value(self, key: int) -> int:
        return self.table[key] - _BIAS

    def distribution(self) -> dict[int, Counter[int]]:
        """For each order, how many instances have each optimal value (the seed's table)."""
        out: dict[int, Counter[int]] = {}
        for m in range(1, self.order + 1):
            counts = Counter(self.table[1 << (2 * m) : 1 << (2 * m + 1)])
            del counts[0]
            out[m] = Counter({b - _BIAS: c for b, c in sorted(counts.items())})
        return out

    # -------------------------------------------------------------- persistence
    def save(self, path: str | os.PathLike[str]) -> None:
        p = Path(path)
        p.parent.mkdir(parents=True, exist_ok=True)
        tmp = p.with_suffix(p.suffix + ".tmp")
        tmp.write_bytes(_MAGIC + bytes([self.order]) + zlib.compress(bytes(self.table), 6))
        tmp.replace(p)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Cache:
        data = Path(path).read_bytes()
        if not data.startswith(_MAGIC):
            raise ValueError(f"{path} is not a paiju tricks cache")
        return cls(data[len(_MAGIC)], bytearray(zlib.decompress(data[len(_MAGIC) + 1 :])))

    @classmethod
    def load_or_build(cls, order: int = DEFAULT_ORDER, path: str | os.PathLike[str] | None = None) -> Cache:
        """Load the cache from ``path`` (default: the user's cache dir), or build and save it."""
        p = Path(path) if path is not None else default_cache_path(order)
        try:
            cache = cls.load(p)
            if cache.order == order:
                return cache
        except (OSError, ValueError, zlib.error):
            pass
        cache = cls.build(order)
        with contextlib.suppress(OSError):  # a read-only home only costs the build next time
            cache.save(p)
        return cache


def default_cache_path(order: int = DEFAULT_ORDER) -> Path:
    base = os.environ.get("PAIJU_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "paiju"
    )
    return Path(base) / f"tricks-order{order}.bin"


def _one_level(key: int, table: bytearray) -> int:
    """The value of ``key`` from the values of its children (one level of the attack and defence trees).

    The attack tree visits the leader's intervals in ascending order and stops, as the
    seed says, at the first two successive ones whose conditional optima differ.
    """
    rs = runs(key)
    top = _top_index(rs)
    prev: int | None = None
    for idx, (owner, _, _) in enumerate(rs):
        if not owner:
            continue
        v = 99
        for answer in defences(key, rs, idx, top):
            won, child = after_trick(key, rs[idx][1], answer)
            v = min(v, 1 + table[child] - _BIAS if won else -1 - (table[child] - _BIAS))
        if prev is not None and v != prev:
            return max(v, prev)
        prev = v
    assert prev is not None
    return prev


# ------------------------------------------------------------------ the search
class Solver:
    """Null-window search over the two trees with a transposition table of bounds and the cache."""

    MAX_TABLE = 2_000_000  # entries before the transposition table is cleared

    def __init__(self, cache: Cache | None = None) -> None:
        self.cache = cache if cache is not None else Cache.build(0)
        self._table = self.cache.table
        self._limit = len(self._table)
        self.lower: dict[int, int] = {}
        self.upper: dict[int, int] = {}
        self.nodes = 0

    def clear(self) -> None:
        self.lower.clear()
        self.upper.clear()

    def at_least(self, key: int, t: int) -> bool:
        """Whether the value of ``key`` is at least ``t``."""
        if key < self._limit:
            return self._table[key] - _BIAS >= t
        m = (key.bit_length() - 1) >> 1
        if (t - m) & 1:  # values have the parity of m
            t += 1
        if t <= self.lower.get(key, -m):
            return True
        if t > self.upper.get(key, m):
            return False
        self.nodes += 1
        rs = runs(key)
        top = _top_index(rs)
        flip = (1 << (2 * m - 2)) - 1
        found = False
        for idx, (owner, lead, _) in enumerate(rs):
            if not owner:
                continue
            for answer in defences(key, rs, idx, top):
                # the trick, inlined (graph.after_trick): drop the higher bit, then the lower
                hi, lo = (lead, answer) if lead > answer else (answer, lead)
                child = (key & ((1 << hi) - 1)) | ((key >> (hi + 1)) << hi)
                child = (child & ((1 << lo) - 1)) | ((child >> (lo + 1)) << lo)
                # the leader needs 1 + v >= t when it wins, -1 - v' >= t (not v' >= -t) when it loses
                if lead > answer:
                    if not self.at_least(child, t - 1):
                        break
                elif self.at_least(child ^ flip, -t):
                    break
            else:
                found = True
                break
        if len(self.lower) + len(self.upper) > self.MAX_TABLE:
            self.clear()
        if found:
            self.lower[key] = t
        else:
            self.upper[key] = t - 2
        return found

    def value(self, key: int) -> int:
        """The exact value of ``key`` (leader's tricks minus follower's)."""
        if key < self._limit:
            return self._table[key] - _BIAS
        m = size(key) >> 1
        # most deals are near even, so step out from 0 rather than bisect [-m, m]
        v = m & 1
        if self.at_least(key, v):
            while v < m and self.at_least(key, v + 2):
                v += 2
            return v
        v -= 2
        while v > -m and not self.at_least(key, v):
            v -= 2
        return v

    def child_value(self, key: int, lead: int, answer: int) -> int:
        """td(CCa, CCb): the value of ``key`` once bits ``lead`` and ``answer`` are played."""
        won, child = after_trick(key, lead, answer)
        return 1 + self.value(child) if won else -1 - self.value(child)

    def attack_values(self, key: int) -> list[tuple[int, int, int]]:
        """td(CC) for every leader interval: (lowest bit, highest bit, value), every answer tried."""
        rs = runs(key)
        answers = [lo for owner, lo, _ in rs if not owner]
        return [(lo, hi, min(self.child_value(key, lo, b) for b in answers)) for owner, lo, hi in rs if owner]

    def best_lead(self, key: int) -> int:
        """The lowest bit of one optimal attack interval (cheap: null-window tests only)."""
        v = self.value(key)
        rs = runs(key)
        top = _top_index(rs)
        for idx, (owner, lead, _) in enumerate(rs):
            if owner and all(self._reaches(key, lead, b, v) for b in defences(key, rs, idx, top)):
                return lead
        raise AssertionError("no attack reaches the value")  # pragma: no cover

    def _reaches(self, key: int, lead: int, answer: int, t: int) -> bool:
        won, child = after_trick(key, lead, answer)
        return self.at_least(child, t - 1) if won else not self.at_least(child, -t)

    def best_answer(self, key: int, lead: int) -> int:
        """The follower's optimal answer (a bit) to the leader's bit ``lead`` in position ``key``.

        ``key`` is the position before the trick, the led card still counted as the leader's.
        """
        rs = runs(key)
        idx = next(i for i, (_, lo, hi) in enumerate(rs) if lo <= lead <= hi)
        answers = defences(key, rs, idx, _top_index(rs))
        return min(answers, key=lambda b: self.child_value(key, lead, b))


# ------------------------------------------------------------------ the public API
_default: Solver | None = None


def default_solver() -> Solver:
    """The process-wide solver over the default cache (loaded, or built and saved, on first use)."""
    global _default
    if _default is None:
        _default = Solver(Cache.load_or_build(DEFAULT_ORDER))
    return _default


def _check(leader: Sequence[int], follower: Sequence[int]) -> None:
    if len(leader) != len(follower):
        raise ValueError(f"both hands hold the same number of cards at a lead, not {len(leader)} and {len(follower)}")


def solve(leader: Sequence[int], follower: Sequence[int]) -> int:
    """The leader's tricks minus the follower's under optimal play (cards: any distinct ints).

    >>> solve([3, 4], [1, 2]), solve([1, 2], [3, 4]), solve([2, 3], [1, 4])
    (2, -2, 0)
    """
    _check(leader, follower)
    return default_solver().value(key_of(leader, follower))


def optimal_attacks(leader: Sequence[int], follower: Sequence[int]) -> list[Interval]:
    """OA: the leader's intervals from which a lead keeps the optimal value."""
    _check(leader, follower)
    solver = default_solver()
    key = key_of(leader, follower)
    cards = sorted([*leader, *follower])
    values = solver.attack_values(key)
    best = max(v for _, _, v in values)
    return [tuple(cards[lo : hi + 1]) for lo, hi, v in values if v == best]


def attack_values(leader: Sequence[int], follower: Sequence[int]) -> list[tuple[Interval, int]]:
    """td(CC) for each of the leader's intervals CC."""
    _check(leader, follower)
    cards = sorted([*leader, *follower])
    return [(tuple(cards[lo : hi + 1]), v) for lo, hi, v in default_solver().attack_values(key_of(leader, follower))]


def optimal_defences(leader: Sequence[int], follower: Sequence[int], lead: int) -> list[Interval]:
    """OD(CCa): the follower's intervals whose answers to ``lead`` keep the optimal value.

    ``leader`` is the leader's hand *without* the led card.
    """
    if len(leader) + 1 != len(follower):
        raise ValueError("the follower holds one card more than the leader once the lead is on the table")
    solver = default_solver()
    cards = sorted([*leader, lead, *follower])
    key = key_of([*leader, lead], follower)
    at = cards.index(lead)
    rs = runs(key)
    values = [(lo, hi, solver.child_value(key, at, lo)) for owner, lo, hi in rs if not owner]
    best = min(v for _, _, v in values)
    return [tuple(cards[lo : hi + 1]) for lo, hi, v in values if v == best]
