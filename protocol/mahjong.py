"""Mahjong's wire tables (tiles: protocol.cards, suits m s p + honours)."""

from __future__ import annotations

from enum import IntEnum

GAME = "mahjong"


class Act(IntEnum):
    """Action codes (bit numbers of the mask) and the bytes each carries."""

    DISCARD = 0  # 1 tile
    CHOW = 1  # the 2 tiles from the hand that complete the chow with the discard
    PONG = 2  # the 2 tiles from the hand
    KONG = 3  # exposed: 3 tiles from the hand; concealed: 4; added: 1 (the fourth)
    HU = 4  # win, on the discard or by self-draw; no bytes
    PASS = 5  # decline every claim on this discard; no bytes
    READY = 6  # declare ready (报听) with this discard: 1 tile
    # bit 7 is free


class Event(IntEnum):
    """Mahjong's own events. The echoes (protocol.echo(Act.X)) carry: DISCARD and READY, the
    tile; CHOW, PONG and an exposed KONG, the whole meld with the claimed tile, arg = the seat
    that discarded it; an added KONG, the added tile, arg = the seat the pong came from; a
    concealed KONG, the four tiles to the seat itself and four 0x00 to everyone else, arg = the
    seat; HU, the winning tile, arg = the seat it came from (the winner's own seat on a
    self-draw)."""

    DRAW = 0x30  # seat drew; cards = the tile for the drawer, 0x00 for everyone else; arg = wall left
    REPLACEMENT = 0x31  # a kong's replacement draw, masked like DRAW
    WALL = 0x32  # arg = tiles left in the wall (sent when it changes by other than a draw)
    REVEAL = 0x33  # end of hand: cards = the seat's concealed tiles
    DRAWN_HAND = 0x34  # the wall is exhausted, nobody won


class Error(IntEnum):
    """Mahjong refusals (320..339)."""

    TILE_NOT_IN_HAND = 320
    CHOW_WRONG_SEAT = 321
    WINDOW_CLOSED = 322
    NOT_A_WIN = 323
    NOT_READY = 324  # READY with a discard that does not leave the hand one tile from a win
    HAND_LOCKED = 325  # after 报听: only the drawn tile may go, or a kong that keeps the wait
