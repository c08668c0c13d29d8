"""Niujiu (牛九): the three-seat occupancy game of design.md §7.1, rules in docs/rules/niujiu.md.

Public helpers for clients and robots: :func:`classify` names the pattern of some
cards (or None), :func:`beats` is the eat relation, :func:`patterns` lists every
pattern in a hand.

>>> from paiju.protocol import parse_cards
>>> classify(parse_cards("S8 HT DK")).name, classify(parse_cards("S8 HJ DK"))
('bai', None)
>>> beats(parse_cards("S8 HT DK"), parse_cards("SA H2 D3", ace=1))
True
"""

from paiju.games.niujiu.game import ENOUGH, HAND_SIZE, SEATS, Niujiu, NiujiuRules, Play
from paiju.games.niujiu.patterns import LEVEL, Pattern, beats, classify, is_red, niu_code, pattern_beats, patterns, rank
from paiju.protocol.niujiu import Kind

__all__ = [
    "ENOUGH",
    "HAND_SIZE",
    "LEVEL",
    "SEATS",
    "Kind",
    "Niujiu",
    "NiujiuRules",
    "Pattern",
    "Play",
    "beats",
    "classify",
    "is_red",
    "niu_code",
    "pattern_beats",
    "patterns",
    "rank",
]
