"""The lifecycle of a room's match: waiting for players, playing, over."""

from __future__ import annotations

from enum import Enum


class Phase(Enum):
    """Where a room's match is; ``value`` is the status ROOM_LIST shows (RoomInfo.status)."""

    WAITING = "waiting"  # seats still to fill; nothing dealt
    PLAYING = "playing"  # a hand in play, or a pause between two hands
    OVER = "over"  # the last hand ended (or the room closed): nothing more is emitted
