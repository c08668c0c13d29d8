"""Mahjong's wire tables (tiles: paiju.protocol.cards, suits m s p + honours)."""

from __future__ import annotations

from enum import IntEnum
from typing import Literal, Required, TypedDict

from paiju.protocol.errors import ErrorCode
from paiju.protocol.views import PerSeat

GAME = "mahjong"


class ActCode(IntEnum):
    """Action codes (bit numbers of the mask) and the bytes each carries."""

    DISCARD = 0  # 1 tile
    CHOW = 1  # the 2 tiles from the hand that complete the chow with the discard
    PONG = 2  # the 2 tiles from the hand
    KONG = 3  # exposed: 3 tiles from the hand; concealed: 4; added: 1 (the fourth)
    HU = 4  # win, on the discard or by self-draw; no bytes
    PASS = 5  # decline every claim on this discard; no bytes
    READY = 6  # declare ready (报听) with this discard: 1 tile
    # bit 7 is free


class EventCode(IntEnum):
    """Mahjong's own events. The echoes (protocol.echo(ActCode.X)) carry: DISCARD and READY, the
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


class MeldKind(IntEnum):
    """The ``kind`` of a meld in a view."""

    CHOW = 0
    PONG = 1
    KONG_EXPOSED = 2  # claimed on a discard with three tiles from the hand
    KONG_CONCEALED = 3  # four tiles from the hand: 0x00 0x00 0x00 0x00 to the other seats until the hand ends
    KONG_ADDED = 4  # the fourth tile added to a pong


MeldView = TypedDict(
    "MeldView",
    {
        "kind": MeldKind,  # a MeldKind
        "tiles": bytes,  # the meld's tiles, the claimed one included
        "from": int,  # the seat the claimed tile came from (the owner's own seat for a concealed kong)
    },
)
MeldView.__doc__ = "A set laid down."

ResultView = TypedDict(
    "ResultView",
    {
        "winner": Required[int],  # the winning seat; -1 when the wall ran out (a drawn hand)
        "scores": Required[PerSeat[int]],  # the points each seat won (or paid, negative)
        "from": int,  # the seat the winning tile came from (the winner's own seat on a self-draw)
        "form": str,  # the winning hand's type: "basic", "all pungs", "full flush" or "seven pairs"
        "fan": int,  # the fan of that type (the ruleset's table)
        "ready": int,  # 1 when the winner had declared ready
        "self_draw": int,  # 1 on a self-draw
        "points": int,  # fan + the ready and self-draw bonuses: what each payer pays
    },
    total=False,
)
ResultView.__doc__ = "How the hand ended: who won, and for a win how (a drawn hand has only winner and scores)."


Phase = Literal["turn", "claim", "over"]
"""A seat's turn, a claim window on a discard, or the end of the hand."""


class _View(TypedDict):
    """The keys every mahjong view has (View adds those of the end of the hand)."""

    ruleset: str  # the ruleset's name ("championship", "classic")
    dealer: int  # the dealer's seat (East)
    phase: Phase  # a seat's turn, a claim window on a discard, or the end
    turn: int  # the seat in turn (in a claim window, the discarder)
    wall: int  # tiles left in the wall
    hand: bytes  # the seat's concealed tiles, sorted, without the tile just drawn (empty for a spectator)
    drawn: bytes  # the tile the seat just drew, while it is this seat's turn (else empty)
    counts: PerSeat[int]  # concealed tiles in each hand
    melds: PerSeat[list[MeldView]]  # each seat's melds, in the order they were laid down
    discards: PerSeat[bytes]  # each seat's river, oldest first (claimed tiles leave it)
    ready: PerSeat[int]  # 1 for a seat that declared ready
    declared_at: PerSeat[list[int]]  # after 报听: each river's length just after the declaring discard; else []
    discarder: int  # in a claim window, the seat whose discard is on offer (its last discard); else -1


class View(_View, total=False):
    """What a mahjong seat (or a spectator) sees: its own tiles, and of the others only what lies
    face up; once the hand is over, every hand and the result too."""

    hands: PerSeat[bytes]  # once the hand is over: every seat's concealed tiles, the winning tile included
    result: ResultView  # once the hand is over: how it ended


RESULT_HANDS = (
    "each seat's concealed tiles at the end, its concealed kongs included; the winner's include the winning tile"
)
"""What RESULT's ``hands`` holds in this game."""

Detail = TypedDict(
    "Detail",
    {
        "winner": Required[int],  # the winning seat; -1 when the wall ran out (a drawn hand)
        "scores": Required[PerSeat[int]],  # the points each seat won (or paid, negative): RESULT's scores
        "melds": Required[PerSeat[list[MeldView]]],  # each seat's melds at the end
        "from": int,  # the seat the winning tile came from (the winner's own seat on a self-draw)
        "tile": bytes,  # the winning tile
        "form": str,  # the winning hand's type: "basic", "all pungs", "full flush" or "seven pairs"
        "fan": int,  # the fan of that type (the ruleset's table)
        "ready": int,  # 1 when the winner had declared ready
        "self_draw": int,  # 1 on a self-draw
        "points": int,  # fan + the ready and self-draw bonuses: what each payer pays
    },
    total=False,
)
Detail.__doc__ = "RESULT's ``detail`` of a mahjong hand (a drawn hand has only winner, scores and melds)."


REFUSALS: tuple[tuple[int, str], ...] = (
    (ErrorCode.ILLEGAL_ACTION, "a code not in the mask (a claim in one's own turn, a discard in a claim window)"),
    (ErrorCode.ILLEGAL_CARDS, "tiles held but matching no option (two tiles for a DISCARD, a KONG of three)"),
    (Error.TILE_NOT_IN_HAND, "DISCARD, READY, KONG, CHOW or PONG of tiles that are not in the hand"),
    (Error.CHOW_WRONG_SEAT, "CHOW in a claim window by a seat other than the discarder's right-hand neighbour"),
    (Error.NOT_A_WIN, "HU when the hand (with the discard) is no winning form"),
    (Error.NOT_READY, "READY with a discard that does not leave the hand one tile from a win"),
    (Error.HAND_LOCKED, "after declaring ready: DISCARD of a tile other than the one just drawn, or READY again"),
)
"""The refusals of an ACTION that the game decides (SPEC.md §7.1; paiju.protocol.answers). WINDOW_CLOSED
is the engine's refusal of a claim from a seat without a window: through the server such an
ACTION names a withdrawn prompt and gets NO_SUCH_PROMPT or NOT_YOUR_TURN."""
