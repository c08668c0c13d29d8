"""Plain searches of the simple trick-taking game: the references the solver is tested and timed against.

Neither uses the strategy graph, the seed's rules or the cache: every card of the leader
against every card of the follower.

* :func:`minimax`: plain minimax with memoisation, the position written as who holds
  each remaining card (relabelling the ranks changes nothing: only their order matters);
* :func:`alphabeta`: plain alpha-beta with a transposition table of bounds keyed by the
  two hands themselves, the usual baseline for a game-tree search.

>>> minimax([1, 4, 5, 8], [2, 3, 6, 7]), alphabeta([1, 4, 5, 8], [2, 3, 6, 7])
(0, 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache


def minimax(leader: Sequence[int], follower: Sequence[int]) -> int:
    """The leader's tricks minus the follower's under optimal play."""
    mine = set(leader)
    cards = sorted([*leader, *follower])
    # bit i: the leader holds the i-th lowest card; a sentinel bit above the cards
    position = sum(1 << i for i, c in enumerate(cards) if c in mine) | 1 << len(cards)
    return _minimax(position)


@cache
def _minimax(position: int) -> int:
    size = position.bit_length() - 1
    if not size:
        return 0
    rest_mask = (1 << (size - 2)) - 1
    best = -size
    for i in range(size):
        if not position >> i & 1:
            continue
        worst = size
        for j in range(size):
            if position >> j & 1:
                continue
            hi, lo = (i, j) if i > j else (j, i)
            rest = (position & ((1 << hi) - 1)) | (position >> (hi + 1) << hi)
            rest = (rest & ((1 << lo) - 1)) | (rest >> (lo + 1) << lo)
            if i > j:  # the leader wins and leads again
                v = 1 + _minimax(rest)
            else:  # the follower wins and leads: the owners swap
                v = -1 - _minimax(rest ^ rest_mask)
            worst = min(worst, v)
        best = max(best, worst)
    return best


def alphabeta(leader: Sequence[int], follower: Sequence[int]) -> int:
    """The same value by alpha-beta with a transposition table (a fresh table per call)."""
    table: dict[tuple[int, int], tuple[int, int]] = {}
    n = len(leader)

    def search(a: int, b: int, alpha: int, beta: int) -> int:
        if not a:
            return 0
        entry = table.get((a, b))
        if entry is not None:
            lo, hi = entry
            if lo >= beta or lo == hi:
                return lo
            if hi <= alpha:
                return hi
            alpha, beta = max(alpha, lo), min(beta, hi)
        alpha0, beta0 = alpha, beta
        best = -n - 1
        xs = a
        while xs:
            x = xs & -xs
            xs ^= x
            worst = n + 1
            floor = max(alpha, best)  # the follower's answers only matter above this
            ys = b
            while ys:
                y = ys & -ys
                ys ^= y
                ceiling = min(beta, worst)
                if x > y:
                    v = 1 + search(a ^ x, b ^ y, floor - 1, ceiling - 1)
                else:
                    v = -1 - search(b ^ y, a ^ x, -ceiling - 1, -floor - 1)
                if v < worst:
                    worst = v
                    if worst <= floor:
                        break
            if worst > best:
                best = worst
                if best >= beta:
                    break
        lo, hi = entry if entry is not None else (-n - 1, n + 1)
        if best <= alpha0:
            hi = min(hi, best)
        elif best >= beta0:
            lo = max(lo, best)
        else:
            lo = hi = best
        table[(a, b)] = (lo, hi)
        return best

    ranks = {c: i for i, c in enumerate(sorted([*leader, *follower]))}
    return search(sum(1 << ranks[c] for c in leader), sum(1 << ranks[c] for c in follower), -n - 1, n + 1)
