"""Boards and deals: the duplicate rotation, deal strings (PBN's ``Deal`` notation), board specs.

Seats are 0 North, 1 East, 2 South, 3 West. A hand is ``bytes`` of card bytes (suit C D H S =
0..3 in the high nibble, rank 2..14 in the low one), kept sorted.

The standard duplicate rotation repeats every 16 boards: the dealer goes round N E S W, and
the vulnerability follows the pattern None NS EW All / NS EW All None / EW All None NS /
All None NS EW.

>>> [SEATS[board_dealer(b)] for b in (1, 2, 3, 4, 5)]
['N', 'E', 'S', 'W', 'N']
>>> [board_vulnerability(b) for b in (1, 2, 3, 4, 5, 8, 9, 13, 16)]
['None', 'NS', 'EW', 'All', 'NS', 'None', 'EW', 'All', 'EW']
>>> deal = parse_deal("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765")
>>> format_deal(deal, first=1)
'E:T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765 AKQJ.T98.765.432'
>>> BoardSpec.parse("5 N NS " + format_deal(deal)).vulnerable
'NS'
"""

from __future__ import annotations

from dataclasses import dataclass

from paiju.protocol.cards import BRIDGE_CARDS

SEATS = "NESW"
VULNERABILITIES = ("None", "NS", "EW", "All")
_VUL_ALIASES = {"none": "None", "love": "None", "-": "None", "ns": "NS", "ew": "EW", "all": "All", "both": "All"}
RANKS = "23456789TJQKA"  # rank r (2..14) is RANKS[r - 2]
PBN_SUIT_ORDER = (3, 2, 1, 0)  # a PBN hand lists spades, hearts, diamonds, clubs


def board_dealer(board: int) -> int:
    """The dealer of board ``board`` (numbered from 1) in the standard rotation."""
    return (board - 1) % 4


def board_vulnerability(board: int) -> str:
    """``"None"``, ``"NS"``, ``"EW"`` or ``"All"`` for board ``board`` in the standard rotation."""
    b = (board - 1) % 16
    return VULNERABILITIES[(b + b // 4) % 4]


def vulnerability_name(text: str) -> str:
    """The canonical name of a PBN vulnerability (``Love``, ``-`` and ``Both`` are accepted)."""
    name = _VUL_ALIASES.get(text.strip().lower())
    if name is None:
        raise ValueError(f"unknown vulnerability {text!r} (None, NS, EW or All)")
    return name


def is_vulnerable(vulnerability: str, seat: int) -> bool:
    """Whether ``seat``'s side is vulnerable under ``vulnerability``."""
    return vulnerability == "All" or vulnerability == ("NS", "EW")[seat % 2]


def seat_of(letter: str) -> int:
    """``"N" -> 0`` ... ``"W" -> 3`` (case-insensitive)."""
    s = letter.strip().upper()
    if len(s) != 1 or s not in SEATS:
        raise ValueError(f"unknown seat {letter!r} (N, E, S or W)")
    return SEATS.index(s)


def format_hand(hand: bytes) -> str:
    """A hand in PBN notation: ``"AKQ.T9.-"`` style, spades first, ranks high to low."""
    parts = []
    for suit in PBN_SUIT_ORDER:
        ranks = sorted((b & 0xF for b in hand if b >> 4 == suit), reverse=True)
        parts.append("".join(RANKS[r - 2] for r in ranks))
    return ".".join(parts)


def parse_hand(text: str) -> bytes:
    """The cards of a PBN hand (``"AKQ.T9..5432"``), sorted; ``10`` is accepted for ``T``."""
    suits = text.strip().split(".")
    if len(suits) != 4:
        raise ValueError(f"a hand has four suits separated by dots, not {text!r}")
    cards: list[int] = []
    for suit, ranks in zip(PBN_SUIT_ORDER, suits, strict=True):
        ranks = ranks.upper().replace("10", "T")
        for ch in ranks:
            if ch not in RANKS:
                raise ValueError(f"unknown rank {ch!r} in hand {text!r}")
            card = suit << 4 | RANKS.index(ch) + 2
            if card in cards:
                raise ValueError(f"hand {text!r} holds a card twice")
            cards.append(card)
    return bytes(sorted(cards))


def format_deal(hands: tuple[bytes, ...] | list[bytes], first: int = 0) -> str:
    """A deal in PBN notation, hands clockwise from seat ``first``: ``"N:hand hand hand hand"``."""
    return SEATS[first] + ":" + " ".join(format_hand(hands[(first + i) % 4]) for i in range(4))


def parse_deal(text: str) -> tuple[bytes, bytes, bytes, bytes]:
    """The four hands (indexed by seat) of a complete PBN deal; ValueError says what is wrong."""
    t = text.strip()
    if len(t) < 2 or t[1] != ":":
        raise ValueError(f"a deal starts with the first seat and a colon (N:...), not {text!r}")
    first = seat_of(t[0])
    parts = t[2:].split()
    if len(parts) != 4:
        raise ValueError(f"a deal has four hands, not {len(parts)}")
    hands: list[bytes] = [b""] * 4
    for i, part in enumerate(parts):
        seat = (first + i) % 4
        if part == "-":
            raise ValueError(f"the hand of {SEATS[seat]} is unknown ('-'): paiju needs complete deals")
        hands[seat] = parse_hand(part)
    for seat, hand in enumerate(hands):
        if len(hand) != 13:
            raise ValueError(f"the hand of {SEATS[seat]} has {len(hand)} cards, not 13")
    every = [c for h in hands for c in h]
    if set(every) != BRIDGE_CARDS:
        dup = sorted({c for c in every if every.count(c) > 1})
        raise ValueError(f"the deal is not one pack: {format_hand(bytes(dup))} appear twice")
    return hands[0], hands[1], hands[2], hands[3]


@dataclass(frozen=True)
class BoardSpec:
    """A board to play: number, dealer, vulnerability and the deal (for ``BridgeRules.deals``).

    Its text form is ``"<board> <dealer> <vulnerability> <deal>"``, e.g.
    ``"5 N NS N:AKQJ.T98.765.432 ..."``; a bare deal ``"N:..."`` takes the board number
    from the hand index and the dealer and vulnerability from the rotation.
    """

    board: int
    dealer: int
    vulnerable: str
    hands: tuple[bytes, bytes, bytes, bytes]

    @classmethod
    def parse(cls, text: str, default_board: int = 1) -> BoardSpec:
        t = text.strip()
        if len(t) > 1 and t[1] == ":":
            return cls(default_board, board_dealer(default_board), board_vulnerability(default_board), parse_deal(t))
        parts = t.split(maxsplit=3)
        if len(parts) != 4 or not parts[0].isdigit() or int(parts[0]) < 1:
            raise ValueError(f"a board is '<number> <dealer> <vulnerability> <deal>', not {text!r}")
        return cls(int(parts[0]), seat_of(parts[1]), vulnerability_name(parts[2]), parse_deal(parts[3]))

    def __str__(self) -> str:
        return f"{self.board} {SEATS[self.dealer]} {self.vulnerable} {format_deal(self.hands)}"
