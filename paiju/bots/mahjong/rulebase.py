"""The rule base (design.md §7.5 规则库): the engine's hand analysis, bound to a ruleset.

Everything about what wins comes from ``paiju.games.mahjong`` (the hu distance, the win test,
the waits, the distance split by the suit that holds the pair); this module only binds
the ruleset's options (seven pairs, honours).

A strategy may plan with a *planning* distance: ``seven_pairs_penalty = k`` counts a
seven-pairs hand ``k`` tiles further than it is while it is two or more from a win (a
seven-pairs hand can make no chow or pong on the way, which the standard form can); the
win test and the waits stay exact. ``k = 0`` (the default) is the hu distance itself.

>>> from paiju.protocol.cards import parse_tiles as t
>>> rb = RuleBase(seven_pairs=True, honours=False)
>>> rb.distance(t("123m 456m 789m 23345s"))
1
>>> rb.pair_distances(t("123m 456m 789m 23345s"))  # the pair in 万, 条, 筒, honours; seven pairs
(2, 1, 2, 99, 6)
>>> h = t("1199m 1199p 55s 18s 5m")  # seven pairs: 2 from a win; the standard form: 4
>>> rb.distance(h), RuleBase(seven_pairs=True, seven_pairs_penalty=1).distance(h)
(2, 3)
"""

from __future__ import annotations

from dataclasses import dataclass

from paiju.bots.memo import bounded
from paiju.games.mahjong import analysis

NO_WAY = analysis.UNREACHABLE


@dataclass(frozen=True)
class RuleBase:
    """The win rules of one ruleset, as the robot uses them."""

    seven_pairs: bool = True
    honours: bool = True
    seven_pairs_penalty: int = 0  # see the module: 0 plans with the exact hu distance
    # the points of a win (the ruleset's public scoring, docs/rules/mahjong.md)
    fan_basic: int = 1
    fan_all_pungs: int = 2
    fan_full_flush: int = 3
    fan_seven_pairs: int = 4
    ready_bonus: int = 1
    self_draw_bonus: int = 1

    def distance(self, tiles: bytes, melds: int = 0) -> int:
        """The hu distance of a concealed part (``paiju.games.mahjong.hu_distance``), or the
        planning distance when ``seven_pairs_penalty`` is set."""
        if self.seven_pairs_penalty and self.seven_pairs and melds == 0:
            return _planning(tiles, self.seven_pairs_penalty)
        return _distance(tiles, melds, self.seven_pairs)

    def is_win(self, tiles: bytes, melds: int = 0) -> bool:
        return analysis.is_win(tiles, melds, seven_pairs=self.seven_pairs)

    def waits(self, tiles: bytes, melds: int = 0) -> bytes:
        return analysis.waits(tiles, melds, seven_pairs=self.seven_pairs, honours=self.honours)

    def pair_distances(self, tiles: bytes, melds: int = 0) -> tuple[int, int, int, int, int]:
        """The hu distance with the pair forced into suit 0, 1, 2, 3, and of seven pairs
        (``NO_WAY`` where the form is impossible); the least of them is the hu distance."""
        return _pair_distances(tiles, melds, self.seven_pairs, self.honours)


@bounded(1 << 14)
def _pair_distances(tiles: bytes, melds: int, seven_pairs: bool, honours: bool) -> tuple[int, int, int, int, int]:
    a, b, c, d = analysis.pair_suit_distances(tiles, melds, honours=honours)
    sp = analysis.seven_pairs_distance(tiles) if seven_pairs and melds == 0 else NO_WAY
    return a, b, c, d, sp


@bounded(1 << 16)
def _distance(tiles: bytes, melds: int, seven_pairs: bool) -> int:
    return analysis.hu_distance(tiles, melds, seven_pairs=seven_pairs)


@bounded(1 << 16)
def _planning(tiles: bytes, penalty: int) -> int:
    standard, seven = analysis.form_distances(tiles)
    if seven >= standard:
        return standard
    return seven if seven < 2 else min(standard, seven + penalty)  # one from a win: any wait will do
