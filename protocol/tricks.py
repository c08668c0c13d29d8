"""The simple trick-taking game's wire tables. Card k (1..2n) travels as protocol.cards.tricks_card(k)."""

from __future__ import annotations

from enum import IntEnum

GAME = "tricks"


class Act(IntEnum):
    PLAY = 0  # 1 card


class Event(IntEnum):
    TRICK = 0x30  # seat = the trick's winner, arg = that seat's tricks so far


class Error(IntEnum):
    """Tricks refusals (380..389)."""

    CARD_NOT_IN_HAND = 380
