"""The robot's memory (design.md §7.5 记忆库): what has happened, as seen from one seat.

Own concealed hand, own melds, every tile seen (discards and exposed melds of every seat),
and the count of each tile still unseen from this seat -- the tiles that may yet be drawn
or claimed (可再得), which are in the wall or in the other seats' concealed hands.

>>> from paiju.protocol.cards import parse_tiles as t
>>> m = Memory(seat=0, hand=t("123m 456m 789m 123p 5s"))
>>> m.note_seen(t("5s 5s"))
>>> m.unseen[t("5s")[0]], m.unseen[t("1m")[0]], m.concealed_target
(1, 3, 13)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from paiju.protocol.cards import MAHJONG_TILES

NUMBER_TILES = tuple(sorted(b for b in MAHJONG_TILES if b >> 4 < 3))
ALL_TILES = tuple(sorted(MAHJONG_TILES))


@dataclass
class Meld:
    """A set laid down: its kind (``"chow"``, ``"pong"``, ``"kong"``, ``"concealed kong"``),
    its tiles as this seat sees them (0x00 for a face-down tile) and the seat it came from."""

    kind: str
    tiles: bytes
    source: int = -1


@dataclass
class Memory:
    """Everything one seat knows. ``unseen`` is indexed by tile byte (0 for non-tiles)."""

    seat: int
    hand: bytes = b""  # own concealed tiles, sorted
    melds: list[list[Meld]] = field(default_factory=lambda: [[], [], [], []])
    discards: list[bytes] = field(default_factory=lambda: [b"", b"", b"", b""])
    ready: list[bool] = field(default_factory=lambda: [False] * 4)
    # per seat that declared ready: the tiles thrown by anyone after its declaration, on none
    # of which it won (a locked wait cannot change, so each is safe against it)
    passed: list[frozenset[int]] = field(default_factory=lambda: [frozenset()] * 4)
    wall: int = 0
    dealer: int = 0
    honours: bool = True  # whether the ruleset has winds and dragons
    seven_pairs: bool = True  # whether seven pairs is a winning form
    offer: int = 0  # the tile on offer in a claim window (0: none)
    offer_from: int | None = None  # the seat that discarded it
    drawn: int = 0  # the tile just drawn (0: unknown or none)
    unseen: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.hand = bytes(sorted(self.hand))
        if not self.unseen:
            self.unseen = [0] * 0x40
            for b in ALL_TILES if self.honours else NUMBER_TILES:
                self.unseen[b] = 4
            self.note_seen(self.hand)

    def note_seen(self, tiles: Iterable[int]) -> None:
        """Count tiles as seen (0x00, a face-down tile, tells nothing)."""
        u = self.unseen
        for b in tiles:
            if b and u[b] > 0:
                u[b] -= 1

    @property
    def own_melds(self) -> int:
        """How many sets this seat has laid down (concealed kongs included)."""
        return len(self.melds[self.seat])

    @property
    def concealed_target(self) -> int:
        """The concealed size when waiting for a draw: ``3 * (4 - melds) + 1``."""
        return 3 * (4 - self.own_melds) + 1

    @property
    def total_unseen(self) -> int:
        return sum(self.unseen)

    def tiles(self) -> tuple[int, ...]:
        """The tiles of this ruleset."""
        return ALL_TILES if self.honours else NUMBER_TILES

    def suit_counts(self, suit: int, tiles: bytes | None = None) -> list[int]:
        """Counts of ranks 1..9 (1..7 for honours) of ``suit`` in ``tiles`` (default: the hand)."""
        c = [0] * (7 if suit == 3 else 9)
        for b in self.hand if tiles is None else tiles:
            if b >> 4 == suit:
                c[(b & 0xF) - 1] += 1
        return c

    def suit_unseen(self, suit: int) -> list[int]:
        """Unseen copies of ranks 1..9 (1..7) of ``suit``."""
        return [self.unseen[suit << 4 | r] for r in range(1, 8 if suit == 3 else 10)]
