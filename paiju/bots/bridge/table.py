"""The board as one seat knows it: read from the seat's view, nothing else.

:class:`Known` gathers what a human in the seat could write down: its own cards (and
dummy's once they are face up), every card played and by whom, the suits each seat has
shown out of, the trick in progress, the contract and the auction. The robots' card play
(the experience rules and the Monte Carlo sampler) works from this alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from paiju.games.bridge.bidding import CURRENT, Promise, promises_of
from paiju.protocol.cards import BRIDGE_CARDS

NT = 4


def beats(card: int, best: int, trump: int | None) -> bool:
    """Whether ``card`` beats ``best``, the winning card so far of a trick (of the suit led or a trump)."""
    if card >> 4 == best >> 4:
        return card > best
    return card >> 4 == trump


def winning(trick: Sequence[int], trump: int | None) -> int:
    """The index in ``trick`` of the card winning it so far."""
    best = 0
    for i in range(1, len(trick)):
        if beats(trick[i], trick[best], trump):
            best = i
    return best


@dataclass
class Known:
    """One seat's knowledge of the board (``seat`` is the hand to play; ``me`` the player deciding)."""

    seat: int
    me: int
    dealer: int
    vulnerable: str
    auction: list[int]
    contract: int | None  # the call byte of the contract
    doubled: int
    declarer: int | None
    dummy: int | None
    hands: list[list[int]]  # the cards this player sees, by seat ([] when hidden)
    counts: list[int]
    played_by: list[list[int]]  # cards each seat has played, in order
    void: list[set[int]]  # suits each seat has shown out of
    trick: list[int]  # the trick in progress
    leader: int  # of the trick in progress
    tricks_done: int
    won: list[int]  # tricks by side: N-S, E-W
    # cards each seat is read not to hold: lower cards of a suit it followed low in (see `of`)
    without: list[set[int]] = field(default_factory=lambda: [set(), set(), set(), set()])
    tables: str = CURRENT  # the bidding system the auction is read with (paiju.games.bridge.bidding.system)
    history: list[tuple[int, list[int]]] = field(default_factory=list)  # (leader, cards) of every trick so far

    @classmethod
    def of(cls, view: Mapping[str, Any], seat: int) -> Known:
        contract = view.get("contract")
        trump = None if contract is None or contract & 0xF == NT else contract & 0xF
        played = bytes(view.get("played") or b"")
        leaders = list(view.get("leaders") or [])
        played_by: list[list[int]] = [[], [], [], []]
        void: list[set[int]] = [set(), set(), set(), set()]
        without: list[set[int]] = [set(), set(), set(), set()]
        n_done = len(leaders)
        history: list[tuple[int, list[int]]] = []
        for t in range(n_done + 1):
            cards = played[4 * t : 4 * t + 4]
            if not cards:
                break
            lead = leaders[t] if t < n_done else view["leader"]
            history.append((lead, list(cards)))
            for i, c in enumerate(cards):
                s = (lead + i) % 4
                played_by[s].append(c)
                if c >> 4 != cards[0] >> 4:
                    void[s].add(cards[0] >> 4)
                elif i and not beats(c, cards[winning(cards[:i], trump)], trump):
                    # it followed and could not or did not try to win: players follow with their
                    # lowest card then (the rules, and Monte Carlo's ties), so it held none lower
                    without[s].update(range(c & 0xF0 | 2, c))
        trick = list(played[4 * n_done :])
        return cls(
            seat=seat,
            me=seat if view.get("dummy") != seat else int(view["declarer"]),
            dealer=int(view["dealer"]),
            vulnerable=str(view.get("vulnerable", "None")),
            auction=list(view.get("auction") or []),
            contract=contract,
            doubled=int(view.get("doubled") or 0),
            declarer=view.get("declarer"),
            dummy=view.get("dummy"),
            hands=[list(h) for h in view["hands"]],
            counts=list(view["counts"]),
            played_by=played_by,
            void=void,
            trick=trick,
            leader=int(view["leader"]) if view.get("leader") is not None else -1,
            tricks_done=n_done,
            won=list(view.get("won") or [0, 0]),
            without=without,
            history=history,
        )

    @property
    def trump(self) -> int | None:
        if self.contract is None or self.contract & 0xF == NT:
            return None
        return self.contract & 0xF

    @property
    def hand(self) -> list[int]:
        return self.hands[self.seat]

    def legal(self) -> list[int]:
        hand = self.hand
        if self.trick:
            follow = [c for c in hand if c >> 4 == self.trick[0] >> 4]
            if follow:
                return sorted(follow)
        return sorted(hand)

    def hidden_seats(self) -> list[int]:
        return [s for s in range(4) if not self.hands[s] and self.counts[s]]

    def unseen(self) -> list[int]:
        """The cards this player cannot place: not in a visible hand, not played."""
        seen = {c for h in self.hands for c in h} | {c for p in self.played_by for c in p}
        return sorted(BRIDGE_CARDS - seen)

    def promises(self, seat: int) -> list[Promise]:
        return promises_of(self.auction, self.dealer, seat, self.tables)

    def original(self, seat: int, remaining: Sequence[int]) -> list[int]:
        """The thirteen cards ``seat`` was dealt, given the cards it still holds."""
        return [*remaining, *self.played_by[seat]]

    def trick_of(self, seat: int, i: int) -> tuple[int, int]:
        """The leader and the card led of the trick in which ``seat`` played its ``i``-th card."""
        leader, cards = self.history[i]
        return leader, cards[0]

    def partner_of(self, seat: int) -> int:
        return (seat + 2) % 4

    @property
    def declaring(self) -> bool:
        """Whether the hand to play is declarer's or dummy's (False before the auction ends)."""
        return self.declarer is not None and self.seat % 2 == self.declarer % 2

    def side_tricks(self, seat: int) -> int:
        return self.won[seat % 2]
