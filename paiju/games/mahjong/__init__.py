"""Mahjong: the rules engine (championship 108 tiles, classic 136 tiles) and hand analysis.

Hand analysis (design.md §7.4), for robots and users: :func:`hu_distance`, :func:`waits`,
:func:`useful_draws` (with the unseen copies of each), :func:`discard_options` and
:func:`information_set` (the needed/discardable tiles of every route at the least
distance).
The game itself is :class:`Mahjong` (registered as ``"mahjong"``, rulesets
``championship`` and ``classic``).
"""

from paiju.games.mahjong.analysis import (
    UNREACHABLE,
    InfoItem,
    InfoSet,
    discard_options,
    form_distances,
    hu_distance,
    information_set,
    is_win,
    pair_suit_distances,
    seven_pairs_distance,
    unseen,
    useful_draws,
    waits,
)
from paiju.games.mahjong.game import Mahjong, MahjongRules, Meld

__all__ = [
    "UNREACHABLE",
    "InfoItem",
    "InfoSet",
    "Mahjong",
    "MahjongRules",
    "Meld",
    "discard_options",
    "form_distances",
    "hu_distance",
    "information_set",
    "is_win",
    "pair_suit_distances",
    "seven_pairs_distance",
    "unseen",
    "useful_draws",
    "waits",
]
