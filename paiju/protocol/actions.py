"""Action codes, the one-byte action set (the BDI paper's 行为集, §3.6), and room events.

Each game owns a table of at most eight action codes (paiju/protocol/<game>.py); code ``c``
is bit ``c`` of the mask, so a mask is one byte and ``mask >> c & 1`` says whether the
action may be taken now. With the mask always come the options: each an action code,
bytes, and ``pick``, the number of those bytes the action must use (``pick == len``
means "exactly these"; smaller means "any ``pick`` of these", as for Niujiu's cover).

Event codes are one byte too: ``0x01..0x1F`` are the room's own events (the same in
every game), ``0x20 + code`` echoes action ``code`` taken by a seat, ``0x30..`` are each
game's other events.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum

ECHO = 0x20
"""Event code ``ECHO + a`` reports that a seat took action ``a``."""


def mask_of(codes: Iterable[int]) -> int:
    """The mask with the bits of ``codes`` set.

    >>> mask_of([0, 4])
    17
    """
    m = 0
    for c in codes:
        if not 0 <= c < 8:
            raise ValueError(f"action codes are 0..7, not {c}")
        m |= 1 << c
    return m


def codes_in(mask: int) -> list[int]:
    """The codes whose bits are set in ``mask``.

    >>> codes_in(0b10001)
    [0, 4]
    """
    return [c for c in range(8) if mask >> c & 1]


def echo(code: int) -> int:
    """The event code that reports action ``code``."""
    return ECHO + code


class RoomEvent(IntEnum):
    """Events every room emits, whatever the game (``arg`` and ``cards`` per SPEC.md)."""

    HAND_START = 0x01  # seat = dealer (or head, or leader), arg = hand number from 0
    DEAL = 0x02  # seat = receiver, cards = its hand (face down, 0x00, for everyone else)
    HAND_END = 0x03  # arg = hand number; the RESULT frame follows
    SEAT = 0x04  # seat changed occupant; arg = SeatKind, text = its holder's name (as ROOM_STATE's seats)
    TIMEOUT = 0x05  # seat's clock ran out; the default action follows as its echo
    MATCH_END = 0x06  # arg = hands played
    ROBOT = 0x07  # seat is now played by a robot (arg 1) or back in its owner's hands (arg 0)


class SeatKind(IntEnum):
    EMPTY = 0
    HUMAN = 1
    BOT = 2
    AWAY = 3  # the human dropped and the seat is kept for the grace period
