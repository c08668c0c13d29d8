"""One byte a card or tile (docs/design.md §2, design.md §7.5): high nibble suit, low nibble rank.

``0x00`` is a card you may not see. A set of cards is ``bytes``. Each game has its
own domain of valid bytes and its own human notation:

>>> parse_tiles("123m 5p E C").hex(" ")
'01 02 03 25 31 35'
>>> format_tiles(b"\\x01\\x02\\x03\\x25\\x31\\x35")
'123m5pEC'
>>> parse_card("SA").hex(), format_cards(bytes([0x3E, 0x0A]))
('3e', 'SA CT')
>>> parse_call("3NT"), format_call(0x34)
(52, '3NT')
"""

from __future__ import annotations

import re

HIDDEN = 0x00

# ---------------------------------------------------------------- mahjong
MAHJONG_SUITS = "msp"  # 0 万 characters (m), 1 条 bamboo (s), 2 筒 dots (p)
HONOURS = "ESWNCFP"  # 3: East South West North, 中 Red (C), 發 Green (F), 白 White (P)
MAHJONG_TILES = frozenset([s << 4 | r for s in range(3) for r in range(1, 10)] + [0x30 | r for r in range(1, 8)])


def tile(suit: int, rank: int) -> int:
    """The byte of a tile: ``tile(2, 5) == 0x25`` (5 dots)."""
    b = suit << 4 | rank
    if b not in MAHJONG_TILES:
        raise ValueError(f"no mahjong tile has suit {suit} rank {rank}")
    return b


def format_tile(b: int) -> str:
    if b == HIDDEN:
        return "?"
    if b not in MAHJONG_TILES:
        raise ValueError(f"0x{b:02x} is not a mahjong tile")
    suit, rank = b >> 4, b & 0xF
    return HONOURS[rank - 1] if suit == 3 else f"{rank}{MAHJONG_SUITS[suit]}"


def format_tiles(tiles: bytes) -> str:
    """Compact notation: runs of one suit share the letter (``123m5p``)."""
    out: list[str] = []
    run: list[str] = []
    run_suit = ""
    for b in tiles:
        t = format_tile(b)
        if len(t) == 2:
            if run and run_suit != t[1]:
                out.append("".join(run) + run_suit)
                run = []
            run.append(t[0])
            run_suit = t[1]
        else:
            if run:
                out.append("".join(run) + run_suit)
                run = []
            out.append(t)
    if run:
        out.append("".join(run) + run_suit)
    return "".join(out)


_TILE_TOKEN = re.compile(r"\s*(?:([1-9]+)([mspz])|([ESWNCFP?]))", re.I)


def parse_tiles(text: str) -> bytes:
    """Parse ``"123m 45p E C"``, ``"1z"`` (= E) ... ``"7z"`` (= P), ``?`` for hidden."""
    out = bytearray()
    pos = 0
    text = text.strip()
    while pos < len(text):
        m = _TILE_TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise ValueError(f"cannot read a tile at {text[pos:]!r}")
        digits, suit, letter = m.groups()
        if letter:
            out.append(HIDDEN if letter == "?" else 0x30 | (HONOURS.index(letter.upper()) + 1))
        else:
            s = suit.lower()
            for d in digits:
                out.append(tile(3, int(d)) if s == "z" else tile(MAHJONG_SUITS.index(s), int(d)))
        pos = m.end()
    return bytes(out)


# ---------------------------------------------------------------- bridge and Niujiu
CARD_SUITS = "CDHS"  # 0 clubs, 1 diamonds, 2 hearts, 3 spades
_RANK_CHARS = {1: "A", 10: "T", 11: "J", 12: "Q", 13: "K", 14: "A"}
BRIDGE_CARDS = frozenset(s << 4 | r for s in range(4) for r in range(2, 15))
NIUJIU_RANKS = (1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12, 13)
NIUJIU_CARDS = frozenset(s << 4 | r for s in range(4) for r in NIUJIU_RANKS)


def format_card(b: int) -> str:
    """``0x3E -> "SA"`` (bridge ace), ``0x21 -> "HA"`` (Niujiu ace, rank 1), ``0 -> "??"``."""
    if b == HIDDEN:
        return "??"
    suit, rank = b >> 4, b & 0xF
    if suit > 3 or not 1 <= rank <= 14:
        raise ValueError(f"0x{b:02x} is not a card")
    return CARD_SUITS[suit] + _RANK_CHARS.get(rank, str(rank))


def format_cards(cards: bytes) -> str:
    return " ".join(format_card(b) for b in cards)


def parse_card(text: str, *, ace: int = 14) -> bytes:
    """Parse ``"SA"``, ``"HT"``, ``"H10"``, ``"D2"``; ``ace=1`` for Niujiu's low ace."""
    t = text.strip().upper()
    if len(t) < 2 or t[0] not in CARD_SUITS:
        raise ValueError(f"cannot read a card from {text!r}")
    r = t[1:]
    names = {"A": ace, "T": 10, "10": 10, "J": 11, "Q": 12, "K": 13}
    if r in names:
        rank = names[r]
    elif r.isdigit() and 2 <= int(r) <= 9:
        rank = int(r)
    else:
        raise ValueError(f"cannot read a rank from {text!r}")
    return bytes([CARD_SUITS.index(t[0]) << 4 | rank])


def parse_cards(text: str, *, ace: int = 14) -> bytes:
    return b"".join(parse_card(tok, ace=ace) for tok in text.replace(",", " ").split())


# ---------------------------------------------------------------- bridge calls
STRAINS = ("C", "D", "H", "S", "NT")
PASS, DOUBLE, REDOUBLE = 0x00, 0x01, 0x02  # level 0 = the calls that are not bids
BIDS = frozenset(level << 4 | strain for level in range(1, 8) for strain in range(5))


def call(level: int, strain: int) -> int:
    b = level << 4 | strain
    if b not in BIDS:
        raise ValueError(f"no bid has level {level} strain {strain}")
    return b


def format_call(b: int) -> str:
    if b in (PASS, DOUBLE, REDOUBLE):
        return ("P", "X", "XX")[b]
    if b not in BIDS:
        raise ValueError(f"0x{b:02x} is not a bridge call")
    return f"{b >> 4}{STRAINS[b & 0xF]}"


def parse_call(text: str) -> int:
    """``"3NT" -> 0x34``, ``"1C" -> 0x10``, ``"P"``/``"Pass"``, ``"X"``, ``"XX"``."""
    t = text.strip().upper()
    if t in ("P", "PASS"):
        return PASS
    if t in ("X", "DBL"):
        return DOUBLE
    if t in ("XX", "RDBL"):
        return REDOUBLE
    m = re.fullmatch(r"([1-7])(C|D|H|S|NT|N)", t)
    if not m:
        raise ValueError(f"cannot read a call from {text!r}")
    strain = "NT" if m.group(2) == "N" else m.group(2)
    return call(int(m.group(1)), STRAINS.index(strain))


# ---------------------------------------------------------------- the simple trick-taking game
# Card k (1..52) is the k-th card of a pack in byte order (C2=1 ... CA=13, D2=14 ... SA=52), so
# the order of the numbers is the order of the bytes and order 26 is a whole pack.
def tricks_card(k: int) -> int:
    if not 1 <= k <= 52:
        raise ValueError(f"tricks cards are 1..52, not {k}")
    return (k - 1) // 13 << 4 | ((k - 1) % 13 + 2)


def tricks_number(b: int) -> int:
    if b not in BRIDGE_CARDS:
        raise ValueError(f"0x{b:02x} is not a tricks card")
    return (b >> 4) * 13 + (b & 0xF) - 1


# ---------------------------------------------------------------- domains
CARD_DOMAIN = frozenset({HIDDEN}) | MAHJONG_TILES | BRIDGE_CARDS | NIUJIU_CARDS
"""Every byte that is a card or tile in some game (the codec's check; each game checks its own)."""
ACTION_DOMAIN = CARD_DOMAIN | BIDS
"""Bytes an ACTION or an option may carry: cards, tiles, or a bid."""
DECKS = {
    "tricks": frozenset(tricks_card(k) for k in range(1, 53)),  # the `pack` ruleset's 2n = 52
    "mahjong": MAHJONG_TILES,  # the classic ruleset's 34 kinds (championship: the 27 suited)
    "niujiu": NIUJIU_CARDS,
    "bridge": BRIDGE_CARDS,
}
"""Each game's card or tile bytes, over all its rulesets (SPEC.md §4.4 lists them)."""


def byte_runs(values: frozenset[int] | set[int]) -> str:
    """``values`` as runs of consecutive bytes, as SPEC.md §4.4 writes them.

    >>> byte_runs({0, 1, 2, 3, 0x10, 0x12})
    '0x00-0x03, 0x10, 0x12'
    """
    runs: list[list[int]] = []
    for b in sorted(values):
        if runs and runs[-1][1] == b - 1:
            runs[-1][1] = b
        else:
            runs.append([b, b])
    return ", ".join(f"0x{a:02x}" if a == z else f"0x{a:02x}-0x{z:02x}" for a, z in runs)
