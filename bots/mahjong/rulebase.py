"""The rule base (seed 004 §2.2 规则库): the engine's hand analysis, bound to a ruleset.

Everything about what wins comes from ``games.mahjong`` (the hu distance, the win test,
the waits); this module only binds the ruleset's options (seven pairs, honours) and adds
the per-pair-suit split of the distance that the goal set needs (which suit is to hold
the pair), computed from the engine's per-suit tables.

>>> from protocol.cards import parse_tiles as t
>>> rb = RuleBase(seven_pairs=True, honours=False)
>>> rb.distance(t("123m 456m 789m 23345s"))
1
>>> rb.pair_distances(t("123m 456m 789m 23345s"))  # the pair in 万, 条, 筒, honours; seven pairs
(2, 1, 2, 99, 6)
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from games.mahjong import analysis
from games.mahjong.tables import suit_key, tables

NO_WAY = 99


@functools.cache
def _suit_vectors() -> tuple[
    list[tuple[tuple[int, ...], tuple[int, ...]]], list[int], list[tuple[tuple[int, ...], tuple[int, ...]]], list[int]
]:
    """The engine's per-suit classes: vectors and, for each pattern key, its class id.

    The class id sits in the high bits of each table entry; where exactly is the tables'
    business, so it is found by checking a pattern whose vector is known (123)."""
    number, honour = tables()
    want = ((0, 3, 3, 3, 3), (1, 3, 3, 3, 3))
    key = suit_key([1, 2, 3])
    shift = next(
        s
        for s in range(8, 32)
        if (number.entry(key) >> s) < len(number.vectors) and number.vectors[number.entry(key) >> s] == want
    )
    return (number.vectors, [e >> shift for e in number.entries], honour.vectors, [e >> shift for e in honour.entries])


def _suit_key(tiles: bytes, suit: int) -> int:
    k = 0
    for b in tiles:
        if b >> 4 == suit:
            k += 5 ** ((b & 0xF) - 1)
    return k


@dataclass(frozen=True)
class RuleBase:
    """The win rules of one ruleset, as the robot uses them."""

    seven_pairs: bool = True
    honours: bool = True

    def distance(self, tiles: bytes, melds: int = 0) -> int:
        """The hu distance of a concealed part (``games.mahjong.hu_distance``)."""
        return _distance(tiles, melds, self.seven_pairs)

    def is_win(self, tiles: bytes, melds: int = 0) -> bool:
        return analysis.is_win(tiles, melds, seven_pairs=self.seven_pairs)

    def waits(self, tiles: bytes, melds: int = 0) -> bytes:
        return analysis.waits(tiles, melds, seven_pairs=self.seven_pairs, honours=self.honours)

    def pair_distances(self, tiles: bytes, melds: int = 0) -> tuple[int, int, int, int, int]:
        """The hu distance with the pair forced into suit 0, 1, 2, 3, and of seven pairs
        (``NO_WAY`` where the form is impossible); the least of them is :meth:`distance`."""
        return _pair_distances(self, tiles, melds)

    def _pair_distances(self, tiles: bytes, melds: int) -> tuple[int, int, int, int, int]:
        nv, ne, hv, he = _suit_vectors()
        n = 4 - melds
        vecs = []
        for s in range(4):
            k = _suit_key(tiles, s)
            vecs.append(nv[ne[k]] if s < 3 else hv[he[k]])
        size = 3 * n + 2
        out: list[int] = []
        for pair_suit in range(4):
            if pair_suit == 3 and not self.honours:
                out.append(NO_WAY)
                continue
            # max-plus over how the n sets split between the suits
            best = [-1] * (n + 1)
            best[0] = 0
            for s in range(4):
                if s == 3 and not self.honours:
                    continue
                f = vecs[s][1] if s == pair_suit else vecs[s][0]
                nxt = [-1] * (n + 1)
                for used in range(n + 1):
                    if best[used] < 0:
                        continue
                    for m in range(n - used + 1):
                        v = best[used] + f[m]
                        if v > nxt[used + m]:
                            nxt[used + m] = v
                best = nxt
            out.append(size - best[n] if best[n] >= 0 else NO_WAY)
        if self.seven_pairs and melds == 0:
            out.append(_distance_seven(tiles))
        else:
            out.append(NO_WAY)
        return (out[0], out[1], out[2], out[3], out[4])


@functools.lru_cache(maxsize=1 << 14)
def _pair_distances(rb: RuleBase, tiles: bytes, melds: int) -> tuple[int, int, int, int, int]:
    return rb._pair_distances(tiles, melds)


@functools.lru_cache(maxsize=1 << 16)
def _distance(tiles: bytes, melds: int, seven_pairs: bool) -> int:
    return analysis.hu_distance(tiles, melds, seven_pairs=seven_pairs)


def _distance_seven(tiles: bytes) -> int:
    counts: dict[int, int] = {}
    for b in tiles:
        counts[b] = counts.get(b, 0) + 1
    pairs = sum(c // 2 for c in counts.values())
    singles = sum(c % 2 for c in counts.values())
    if len(tiles) not in (13, 14):
        return NO_WAY
    return 14 - 2 * pairs - min(singles, 7 - pairs) if pairs < 7 else 0
