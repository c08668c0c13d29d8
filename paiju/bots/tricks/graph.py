"""Positions of the simple trick-taking game as bit strings, and the seed's strategy graph.

A position is who holds each remaining card, lowest first: only the order of the cards
matters, so the cards are relabelled 0..2m-1 and the position becomes an int ``key``
whose bit ``i`` is set when the *leader* (the seat to lead the next trick) holds the
i-th lowest card, with a sentinel bit at ``2m`` so that keys of different orders
never collide (``key.bit_length() - 1 == 2m``).

A maximal run of equal bits is one *interval* of design.md §7.3 (连续区间): a player's cards
with no opponent card between them. Any card of an interval does what any other does,
so an interval is one node of the strategy graph and one choice in the search.

>>> key = key_of([1, 4, 5, 8], [2, 3, 6, 7])
>>> bin(key)
'0b110011001'
>>> [(owner, lo, hi) for owner, lo, hi in runs(key)]
[(1, 0, 0), (0, 1, 2), (1, 3, 4), (0, 5, 6), (1, 7, 7)]
>>> strategy_graph([1, 4, 5, 8], [2, 3, 6, 7])
StrategyGraph(nodes=(('a', (1,)), ('b', (2, 3)), ('a', (4, 5)), ('b', (6, 7)), ('a', (8,))))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

Interval = tuple[int, ...]
"""The cards of one interval node, ascending."""


def key_of(leader: Sequence[int], follower: Sequence[int]) -> int:
    """The position key of two hands (any distinct ints; the leader's bits are set)."""
    mine = set(leader)
    if len(mine) != len(leader) or mine & set(follower) or len(set(follower)) != len(follower):
        raise ValueError("the two hands must be distinct cards")
    key = 1 << (len(leader) + len(follower))
    for i, c in enumerate(sorted([*leader, *follower])):
        if c in mine:
            key |= 1 << i
    return key


def size(key: int) -> int:
    """The number of cards left (2m for a position of order m)."""
    return key.bit_length() - 1


def runs(key: int) -> list[tuple[int, int, int]]:
    """The intervals in ascending order: (owner 1 = leader / 0 = follower, lowest bit, highest bit)."""
    n = key.bit_length() - 1
    # bit i of ``ends`` is set where the owner changes between bits i and i+1
    ends = (key ^ (key >> 1)) & ((1 << (n - 1)) - 1) if n > 1 else 0
    out: list[tuple[int, int, int]] = []
    lo = 0
    while ends:
        low = ends & -ends
        ends ^= low
        hi = low.bit_length() - 1
        out.append((key >> hi & 1, lo, hi))
        lo = hi + 1
    if n:
        out.append((key >> lo & 1, lo, n - 1))
    return out


def remove(key: int, i: int) -> int:
    """The key without bit ``i`` (the higher bits, sentinel included, move down one)."""
    return (key & ((1 << i) - 1)) | ((key >> (i + 1)) << i)


def after_trick(key: int, lead: int, answer: int) -> tuple[bool, int]:
    """Play bit ``lead`` (the leader's) against bit ``answer``: (leader won, child key seen by the new leader)."""
    hi, lo = (lead, answer) if lead > answer else (answer, lead)
    child = remove(remove(key, hi), lo)
    if lead > answer:
        return True, child
    return False, child ^ ((1 << (size(key) - 2)) - 1)


@dataclass(frozen=True)
class StrategyGraph:
    """design.md §7.3's strategy graph (策略图): the interval nodes in ascending order (g.CCL).

    ``nodes`` alternate between the leader ``"a"`` and the follower ``"b"``; a.CCL and b.CCL
    are the nodes of one owner; the edges join neighbours, so the order is the graph.
    """

    nodes: tuple[tuple[str, Interval], ...]

    def of(self, owner: str) -> list[Interval]:
        """a.CCL or b.CCL: the intervals of one player, ascending."""
        return [cards for who, cards in self.nodes if who == owner]

    def next_above(self, card: int, owner: str) -> Interval | None:
        """g.next: the lowest interval of ``owner`` above ``card`` (None when there is none)."""
        return next((cards for who, cards in self.nodes if who == owner and cards[0] > card), None)


def strategy_graph(leader: Sequence[int], follower: Sequence[int]) -> StrategyGraph:
    """The strategy graph of a position given by card numbers."""
    cards = sorted([*leader, *follower])
    key = key_of(leader, follower)
    return StrategyGraph(tuple(("a" if owner else "b", tuple(cards[lo : hi + 1])) for owner, lo, hi in runs(key)))
