"""Bridge's wire tables. Cards: suit C D H S (0..3) << 4 | rank 2..14. Calls: paiju.protocol.cards."""

from __future__ import annotations

from enum import IntEnum
from typing import Annotated, Literal, TypedDict

from paiju.protocol.errors import ErrorCode
from paiju.protocol.views import Length, PerSeat

GAME = "bridge"
SEATS = "NESW"  # seat 0 North, 1 East, 2 South, 3 West


class ActCode(IntEnum):
    BID = 0  # 1 byte: the call byte level << 4 | strain
    PASS = 1
    DOUBLE = 2
    REDOUBLE = 3
    PLAY = 4  # 1 card (for the dummy, the declarer plays this from dummy's hand)
    CLAIM = 5  # declarer claims all the remaining tricks
    ACCEPT = 6  # a defender accepts the claim
    REJECT = 7  # a defender rejects it: play goes on


class EventCode(IntEnum):
    """Bridge's own events. The echoes (protocol.echo(ActCode.X)) carry: a call, arg = the call byte
    (0x00 pass, 0x01 double, 0x02 redouble, else level << 4 | strain), no cards, and text = the call's
    meaning in the bidding system (points, shape, forcing: SPEC.md §5.3); PLAY, the card
    and seat = the hand it came from (dummy's seat for dummy's cards); CLAIM, seat = declarer and
    arg = the tricks claimed; ACCEPT and REJECT, the defender's seat."""

    CONTRACT = 0x30  # seat = declarer, arg = call byte | doubled << 8 (0, 1 = X, 2 = XX)
    PASSED_OUT = 0x31
    DUMMY = 0x32  # seat = dummy, cards = dummy's hand, to everyone, after the opening lead
    TRICK = 0x33  # seat = the trick's winner, arg = tricks won by the declaring side so far
    REVEAL = 0x34  # end of board: cards = the seat's remaining cards
    BOARD = 0x35  # after HAND_START: seat = dealer, arg = board number << 2 | vulnerability (0 None, 1 NS, 2 EW, 3 All)


VULNERABILITY = ("None", "NS", "EW", "All")
"""The vulnerabilities by their index in a BOARD event's arg."""


class Error(IntEnum):
    """Bridge refusals (340..359)."""

    INSUFFICIENT_BID = 340
    DOUBLE_NOT_ALLOWED = 341  # not an opponents' undoubled last bid
    REDOUBLE_NOT_ALLOWED = 342
    REVOKE = 343  # did not follow suit while able to
    WRONG_HAND = 344  # card not in the hand that is to play
    AUCTION_OVER = 345
    NO_CLAIM = 346


Phase = Literal["auction", "play", "claim", "over"]
"""Where the board is: the auction, the play, a claim being answered, or over."""


class View(TypedDict):
    """What a bridge seat (or a spectator) sees: its own hand, dummy's once it is exposed, the
    auction and the play; every hand when the board is over. Calls are call bytes as ints
    (§4.3), cards are card bytes."""

    board: int  # the board number (1..); dealer and vulnerability follow it
    dealer: int  # the dealer's seat (0 North, 1 East, 2 South, 3 West)
    vulnerable: str  # "None", "NS", "EW" or "All"
    phase: Phase  # claim: the defenders are answering the declarer's claim
    auction: list[int]  # every call so far, from the dealer's
    explained: list[str]  # each call's meaning in the bidding system (the text of its EVENT), in auction order
    contract: int | None  # the final bid's call byte (nil before the auction ends, or when passed out)
    doubled: int  # 0, 1 (doubled) or 2 (redoubled)
    declarer: int | None  # the declarer's seat (nil before the auction ends)
    dummy: int | None  # dummy's seat (nil before the auction ends)
    hands: PerSeat[bytes]  # the cards this seat may see in each hand: its own, dummy's once exposed, all at the end
    counts: PerSeat[int]  # cards left in each hand
    leader: int | None  # the seat that led the current trick (nil before the play)
    played: bytes  # every card played, trick by trick, the current trick last
    leaders: list[int]  # the seat that led each finished trick
    winners: list[int]  # the seat that won each finished trick
    won: Annotated[list[int], Length(2)]  # tricks won by North-South and by East-West
    claim: int  # while a claim is answered: the tricks the declarer claims; else 0
    to_act: list[int]  # the seats with a decision pending
    score: int | None  # North-South's score once the board is over (nil before)


RESULT_HANDS = "every seat's 13 cards as dealt, in seat order (North, East, South, West)"
"""What RESULT's ``hands`` holds in this game."""


class _Detail(TypedDict):
    """The keys every bridge detail has (Detail adds those the server's records add)."""

    board: int  # the board number (1..)
    vulnerable: str  # "None", "NS", "EW" or "All"
    contract: str  # the contract as text: level, strain (C D H S NT), X or XX ("4SX", "3NT"); "Pass" when passed out
    declarer: int | None  # the declarer's seat (nil when passed out)
    tricks: int  # the tricks the declarer's side took (0 when passed out)
    claimed: int  # of those, the tricks conceded by an accepted claim (0 without one)
    score: int  # North-South's duplicate score of the board (East-West's is its negative)


class Detail(_Detail, total=False):
    """RESULT's ``detail`` of a bridge board."""

    pbn: str  # the board as a PBN file (deal, auction, play, result), for any bridge program (every room adds it)
    par: int  # the deal's double-dummy par score for North-South (when the server has the solver)


REFUSALS: tuple[tuple[int, str], ...] = (
    (ErrorCode.ILLEGAL_ACTION, "PLAY, CLAIM, ACCEPT or REJECT during the auction; another code not in the mask"),
    (ErrorCode.ILLEGAL_CARDS, "a BID whose byte is no bid, a PLAY of other than one card"),
    (Error.INSUFFICIENT_BID, "a BID not higher than the last bid"),
    (Error.DOUBLE_NOT_ALLOWED, "DOUBLE with no bid to double, of one's own side's bid, or of a doubled bid"),
    (Error.REDOUBLE_NOT_ALLOWED, "REDOUBLE of a bid that is not doubled, or by the side that doubled"),
    (Error.REVOKE, "PLAY of a card of another suit while the hand holds the suit led"),
    (Error.WRONG_HAND, "PLAY of a card that is not in the hand to play (dummy's prompt plays dummy's cards)"),
    (Error.AUCTION_OVER, "BID, PASS, DOUBLE or REDOUBLE after the auction"),
    (
        Error.NO_CLAIM,
        "CLAIM when not the declarer on lead (or in the `no-claims` rules); ACCEPT or REJECT with no claim",
    ),
)
"""The refusals of an ACTION that the game decides (SPEC.md §7.1; paiju.protocol.answers)."""
