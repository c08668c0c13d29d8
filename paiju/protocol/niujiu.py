"""Niujiu's wire tables. Cards: suit C D H S << 4 | rank 1 (A), 2, 3, 5..13; no 4s.

The rules are docs/rules/niujiu.md; the names follow docs/design.md §8.
"""

from __future__ import annotations

from enum import IntEnum
from typing import TypedDict

from paiju.protocol.errors import ErrorCode
from paiju.protocol.views import PerSeat

GAME = "niujiu"


class ActCode(IntEnum):
    LEAD = 0  # the pattern led (k cards)
    EAT = 1  # a pattern of k cards that beats the best so far
    COVER = 2  # any k cards, face down (the option has pick = k)


class EventCode(IntEnum):
    COVERED = 0x30  # seat covered; cards = its k cards to itself, k times 0x00 to everyone else
    OCCUPY = 0x31  # seat occupies the trick's best pattern; cards = those cards; arg = its total
    ENOUGH = 0x32  # seat has reached 6 occupied cards (够牌); arg = its total
    REVEAL = 0x33  # end of hand: cards = the seat's remaining cards


class Kind(IntEnum):
    """Pattern kinds: the ``arg`` of a LEAD or EAT echo event (0x20, 0x21).

    天 (K) and 虎 (Q) are not kinds of their own: they are singles, pairs, triples and
    liangzi of rank 13 and 12, and the rank is in the cards.
    """

    SINGLE = 1  # any one card
    PAIR = 2  # two cards of one number (not 二牛 / 二喜)
    TRIPLE = 3  # three cards of one number other than 9 and 5
    LIANGZI = 4  # 亮子: four cards of one number
    NIU_PAIR = 5  # 二牛: a red 9 and a black 9
    NIU_TRIPLE = 6  # 三牛: three 9s
    XI_PAIR = 7  # 二喜: a red 5 and a black 5
    XI_TRIPLE = 8  # 三喜: three 5s
    YU = 9  # 鱼 A-2-3, and n鱼: n of each (3n cards)
    BAI = 10  # 摆 8-10-K, and n摆: n of each (3n cards)
    YU_LIANG = 11  # 鱼亮: A-2-3 with one of them four times (6 cards)
    BAI_LIANG = 12  # 摆亮: 8-10-K with one of them four times (6 cards)
    XI_BAO_LIANG = 13  # 喜包亮: 二喜 + a liangzi of another number (6 cards)


class Error(IntEnum):
    """Niujiu refusals (360..379)."""

    NOT_A_PATTERN = 360  # a lead (or an eat) whose cards form no pattern
    DOES_NOT_BEAT = 361  # an eat whose pattern does not beat the best so far
    WRONG_COUNT = 362  # an eat or a cover with other than k cards
    CARD_NOT_IN_HAND = 363  # a byte that is not one of the seat's cards (or one card twice)


TrickPlay = tuple[int, int, bytes, int]
"""One play of the trick in a view, an array of four: seat, action code (ActCode), its face-up
cards (empty for a COVER), how many cards it covered (0 unless a COVER)."""


class View(TypedDict):
    """What a Niujiu seat (or a spectator) sees: its own hand and covered cards, the trick, the
    beaten and occupied cards, counts of what lies face down, and the revealed hands at the end."""

    hand: bytes  # the seat's cards, sorted (empty for a spectator)
    my_covered: bytes  # the cards this seat has covered face down this hand (empty for a spectator)
    head: int  # the head's seat (it led the hand's first trick)
    leader: int  # the seat that led the current trick
    turn: int | None  # the seat to play (nil when the hand is over)
    k: int  # how many cards each play of the current trick has (the lead's; 0 before the lead)
    trick: list[TrickPlay]  # the plays of the current trick, in play order: [seat, code, cards, covered]
    best: int | None  # the seat whose play is best so far in the trick (nil before the lead)
    beaten: bytes  # the face-up cards of the patterns that lost their trick, this hand
    occupied: PerSeat[bytes]  # the cards each seat has occupied
    occupied_count: PerSeat[int]  # how many cards each seat has occupied
    enough: PerSeat[bool]  # whether each seat has occupied 6 cards or more (够牌)
    covered_count: PerSeat[int]  # how many cards each seat has covered
    hand_size: PerSeat[int]  # cards left in each hand
    revealed: PerSeat[bytes]  # the cards each seat had left when the hand ended (empty before)
    over: bool  # the hand is over
    scores: list[int]  # the hand's score per seat once it is over; empty before


RESULT_HANDS = "the cards each seat still held when the hand ended (covered cards are never shown, so often empty)"
"""What RESULT's ``hands`` holds in this game."""


class Detail(TypedDict):
    """RESULT's ``detail`` of a Niujiu hand."""

    head: int  # the head's seat (it led the hand's first trick)
    occupied: PerSeat[bytes]  # the cards each seat occupied
    occupied_count: PerSeat[int]  # how many cards each seat occupied
    enough: PerSeat[bool]  # whether each seat occupied 6 cards or more (够牌)
    liangzi: PerSeat[int]  # the liangzi (four of a number) each seat occupied, which score a bonus
    covered_count: PerSeat[int]  # how many cards each seat covered face down


REFUSALS: tuple[tuple[int, str], ...] = (
    (
        ErrorCode.ILLEGAL_ACTION,
        "a code not in the mask: EAT or COVER when leading, LEAD when answering, EAT when nothing eats",
    ),
    (Error.CARD_NOT_IN_HAND, "a byte that is not one of the seat's cards"),
    (Error.NOT_A_PATTERN, "LEAD, or EAT, of cards that are no pattern"),
    (Error.WRONG_COUNT, "EAT or COVER of other than the trick's k cards"),
    (Error.DOES_NOT_BEAT, "EAT with a pattern that does not beat the best play of the trick"),
)
"""The refusals of an ACTION that the game decides (SPEC.md §7.1; paiju.protocol.answers)."""
