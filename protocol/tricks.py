"""The simple trick-taking game's wire tables. Card k (1..2n) travels as protocol.cards.tricks_card(k)."""

from __future__ import annotations

from enum import IntEnum
from typing import TypedDict

from .views import PerSeat

GAME = "tricks"


class Act(IntEnum):
    PLAY = 0  # 1 card


class Event(IntEnum):
    TRICK = 0x30  # seat = the trick's winner, arg = that seat's tricks so far


class Error(IntEnum):
    """Tricks refusals (380..389)."""

    CARD_NOT_IN_HAND = 380


class View(TypedDict):
    """What a seat (or a spectator) of the simple trick-taking game sees: its own hand and every
    card played. Card k travels as protocol.cards.tricks_card(k)."""

    hand: bytes  # the seat's cards (empty for a spectator)
    counts: PerSeat[int]  # cards left in each hand
    leader: int  # the seat that leads (led) the current trick
    trick: bytes  # the cards of the current trick, the lead first
    played: bytes  # the cards of the completed tricks, two a trick, the leader's first
    won: PerSeat[int]  # tricks each seat has won
    n: int  # the order: cards each seat was dealt (the cards are 1..2n)
