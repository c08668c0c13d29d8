"""Memoised engine helpers: a robot asks the same questions of the same cards many times
(in one hand, and far more in Monte Carlo play-outs), and the answers depend on the cards alone."""

from __future__ import annotations

from functools import lru_cache

from paiju.games.niujiu import Pattern, classify, patterns


@lru_cache(maxsize=1 << 16)
def pattern_of(cards: bytes) -> Pattern:
    """The pattern of cards known to form one (:func:`paiju.games.niujiu.classify`)."""
    p = classify(cards)
    if p is None:
        raise ValueError(f"{cards.hex()} is no pattern")
    return p


@lru_cache(maxsize=1 << 14)
def hand_patterns(hand: bytes, size: int | None = None) -> tuple[bytes, ...]:
    """Every pattern of the sorted ``hand`` (:func:`paiju.games.niujiu.patterns`)."""
    return tuple(patterns(hand, size))
