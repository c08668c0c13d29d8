"""The simple trick-taking game's wire tables. Card k (1..2n) travels as paiju.protocol.cards.tricks_card(k)."""

from __future__ import annotations

from enum import IntEnum
from typing import TypedDict

from paiju.protocol.errors import ErrorCode
from paiju.protocol.views import PerSeat

GAME = "tricks"


class ActCode(IntEnum):
    PLAY = 0  # 1 card


class EventCode(IntEnum):
    TRICK = 0x30  # seat = the trick's winner, arg = that seat's tricks so far


class Error(IntEnum):
    """Tricks refusals (380..389)."""

    CARD_NOT_IN_HAND = 380


class View(TypedDict):
    """What a seat (or a spectator) of the simple trick-taking game sees: its own hand and every
    card played. Card k travels as paiju.protocol.cards.tricks_card(k)."""

    hand: bytes  # the seat's cards (empty for a spectator)
    counts: PerSeat[int]  # cards left in each hand
    leader: int  # the seat that leads (led) the current trick
    trick: bytes  # the cards of the current trick, the lead first
    played: bytes  # the cards of the completed tricks, two a trick, the leader's first
    won: PerSeat[int]  # tricks each seat has won
    n: int  # the order: cards each seat was dealt (the cards are 1..2n)


RESULT_HANDS = "every seat's hand as dealt (the deal), in seat order"
"""What RESULT's ``hands`` holds in this game."""


class _Detail(TypedDict):
    """The keys every tricks detail has (Detail adds those the server's records add)."""

    tricks: PerSeat[int]  # tricks each seat won


class Detail(_Detail, total=False):
    """RESULT's ``detail`` of a hand of the simple trick-taking game."""

    value: int  # the deal's value with perfect play: the first leader's tricks minus the other's
    leader: int  # the seat that led the first trick (with `value`)


REFUSALS: tuple[tuple[int, str], ...] = (
    (ErrorCode.ILLEGAL_ACTION, "an action code other than PLAY"),
    (ErrorCode.ILLEGAL_CARDS, "PLAY of other than one card"),
    (Error.CARD_NOT_IN_HAND, "PLAY of a card that is not in the hand"),
)
"""The refusals of an ACTION that the game decides (SPEC.md §7.1; paiju.protocol.answers)."""
