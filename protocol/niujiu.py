"""Niujiu's wire tables. Cards: suit C D H S << 4 | rank 1 (A), 2, 3, 5..13; no 4s."""

from __future__ import annotations

from enum import IntEnum

GAME = "niujiu"


class Act(IntEnum):
    LEAD = 0  # the pattern led (k cards)
    EAT = 1  # a pattern of k cards that beats the best so far
    COVER = 2  # any k cards, face down (the option has pick = k)


class Event(IntEnum):
    COVERED = 0x30  # seat covered; cards = its k cards to itself, k times 0x00 to everyone else
    OCCUPY = 0x31  # seat occupies the trick's best pattern; cards = those cards; arg = its total
    ENOUGH = 0x32  # seat has reached 6 occupied cards (够牌)
    REVEAL = 0x33  # end of hand: cards = the seat's remaining cards


class Error(IntEnum):
    """Niujiu refusals (360..379)."""

    NOT_A_PATTERN = 360
    DOES_NOT_BEAT = 361
    WRONG_COUNT = 362
    CARD_NOT_IN_HAND = 363
