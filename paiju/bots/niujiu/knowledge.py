"""What a Niujiu robot knows: built from its seat's view alone (the perceptor).

A robot is stateless between requests, so everything comes from the view a human in the
seat would see (paiju/games/niujiu/game.py ``view``): its hand and its own covered cards, every
seat's occupied cards, the beaten face-up cards, the trick in progress, and the counts of
cards in hand and covered. The cards it cannot see, the **pool**, are the deck minus all
of these; they are in the two other hands or among their covers.

>>> from paiju.protocol import parse_cards
>>> view = {"hand": parse_cards("HK SK"), "my_covered": b"", "leader": 0, "k": 0, "trick": [],
...         "best": None, "beaten": b"", "occupied": [b"", b"", b""], "hand_size": [2, 2, 2],
...         "covered_count": [0, 0, 0], "revealed": [b"", b"", b""]}
>>> kn = from_view(0, view)
>>> len(kn.unseen), kn.need, kn.position
(46, 6, 0)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from paiju.bots.niujiu.sure import Pool
from paiju.games.niujiu import ENOUGH, Pattern, classify
from paiju.protocol.cards import NIUJIU_CARDS

SEATS = 3


@dataclass
class Knowledge:
    """One seat's knowledge at a decision."""

    seat: int
    hand: bytes  # sorted
    unseen: bytes  # the pool's cards, sorted
    occupied: list[int]  # occupied cards per seat
    hand_size: list[int]  # cards in hand per seat
    leader: int
    position: int  # 0: leading, 1: first to answer, 2: last to answer
    best: Pattern | None = None  # the best pattern of the trick so far
    best_cards: bytes = b""
    best_seat: int | None = None
    covered: list[int] = field(default_factory=lambda: [0, 0, 0])  # covered cards per seat
    my_covered: bytes = b""  # this seat's own covered cards
    occupied_cards: list[bytes] = field(default_factory=lambda: [b"", b"", b""])
    play_out: bool = False  # the ruleset plays every card (R6.2)
    pool: Pool = field(init=False)

    def __post_init__(self) -> None:
        self.pool = Pool.of(self.unseen)

    @property
    def k(self) -> int:
        """The trick's size (0 when leading)."""
        return self.best.size if self.best else 0

    @property
    def need(self) -> int:
        """Occupied cards still missing to be enough (0 once enough)."""
        return max(0, ENOUGH - self.occupied[self.seat])

    @property
    def left(self) -> int:
        """Cards still to be occupied in this hand: as many as a hand held at this trick's lead (R5.5)."""
        return len(self.hand)  # this seat has not played to the trick yet

    def can_still_reach(self, seat: int) -> bool:
        """Whether ``seat`` is enough or can still become enough."""
        return self.occupied[seat] >= ENOUGH or self.occupied[seat] + self.left >= ENOUGH

    def next_seats(self) -> list[int]:
        """The seats still to answer this trick after this one."""
        return [(self.seat + i) % SEATS for i in range(1, SEATS - self.position)]


def from_view(seat: int, view: Mapping[str, Any], *, play_out: bool = False) -> Knowledge:
    """The knowledge of ``seat`` from its view (nothing else is read)."""
    hand = bytes(sorted(view["hand"]))
    trick = view.get("trick") or []
    seen = set(hand) | set(view.get("my_covered") or b"") | set(view.get("beaten") or b"")
    for cards in view.get("occupied") or []:
        seen |= set(cards)
    for cards in view.get("revealed") or []:
        seen |= set(cards)
    best: Pattern | None = None
    best_cards = b""
    for play in trick:
        face_up = bytes(play[2])
        seen |= set(face_up)
        if face_up:  # a lead or an eat: each beats the one before (R5.2)
            best_cards, best = face_up, classify(face_up)
    best_seat = view.get("best")
    return Knowledge(
        seat=seat,
        hand=hand,
        unseen=bytes(sorted(NIUJIU_CARDS - seen)),
        occupied=[len(o) for o in view["occupied"]],
        hand_size=list(view["hand_size"]),
        leader=int(view["leader"]),
        position=len(trick),
        best=best,
        best_cards=best_cards,
        best_seat=None if best_seat is None else int(best_seat),
        covered=[int(n) for n in view.get("covered_count") or [0, 0, 0]],
        my_covered=bytes(sorted(view.get("my_covered") or b"")),
        occupied_cards=[bytes(o) for o in view["occupied"]],
        play_out=play_out,
    )
