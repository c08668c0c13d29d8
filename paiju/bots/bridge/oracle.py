"""Peeking samplers, for diagnosis only: how much of ``hybrid``'s card-play loss better
sampling could save.

``hybrid`` deals the cards it cannot see at random, consistently with what its seat knows
(:func:`paiju.bots.bridge.montecarlo.sample_deals`). An :class:`Oracle` deals them knowing part
of the truth, which no seat knows:

- ``shape``: every hidden hand gets its real number of cards in each suit and its real
  high-card points (the placement of the cards within that stays random);
- ``lengths``: its real number of cards in each suit only; ``points``: its real
  high-card points only (the two halves of ``shape``, to tell which one matters);
- ``honours``: every hidden hand gets its real aces, kings, queens and jacks, and its real
  number of small cards in each suit (only which small card is where stays random).

``shape`` is more than any inference from the auction and the play could give a seat (a
better sampler can at best come near it), and ``honours`` more still: the double-dummy
tricks Monte Carlo's cards give away with them are what even that knowledge leaves to
guess, plus Monte Carlo's own limits (strategy fusion: each sample is solved as if the
player would then know every card). ``paiju arena bridge --oracle LEVEL`` plays ``hybrid``
so; the robots of rooms never get an oracle (nothing outside the arena constructs one, and
a room's robot sees only its seat's view).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from paiju.bots.bridge.montecarlo import deal_hidden
from paiju.bots.bridge.table import Known
from paiju.games.bridge.evaluate import HCP, HONOURS

LEVELS = ("shape", "lengths", "points", "honours")


class Oracle:
    """A dealer of the hidden hands (``montecarlo.Dealer``) that knows the deal ``dealt``."""

    def __init__(self, dealt: Sequence[bytes], level: str) -> None:
        if level not in LEVELS:
            raise ValueError(f"oracle level {level!r}: one of {', '.join(LEVELS)}")
        self.dealt = [list(h) for h in dealt]
        self.level = level

    def __repr__(self) -> str:
        return f"<Oracle {self.level}>"

    def __call__(self, k: Known, seats: list[int], cards: list[int], rng: random.Random) -> dict[int, list[int]] | None:
        held = {s: [c for c in self.dealt[s] if c not in k.played_by[s]] for s in seats}
        if sorted(c for s in seats for c in held[s]) != sorted(cards):
            raise ValueError("the oracle's deal is not the board being played")
        if self.level == "points":  # the robot's own dealing, kept when the points are right
            d = deal_hidden(k, seats, cards, rng)
            return d if d is not None and all(_points(d[s]) == _points(held[s]) for s in seats) else None
        out: dict[int, list[int]] = {s: [] for s in seats}
        for suit in range(4):
            pool = [c for c in cards if c >> 4 == suit]
            if self.level == "honours":
                for s in seats:
                    out[s] += [c for c in held[s] if c >> 4 == suit and c & 0xF in HONOURS]
                pool = [c for c in pool if c & 0xF not in HONOURS]
            rng.shuffle(pool)
            for s in seats:
                n = sum(c >> 4 == suit and (self.level != "honours" or c & 0xF not in HONOURS) for c in held[s])
                out[s] += pool[:n]
                pool = pool[n:]
        if self.level == "shape" and any(_points(out[s]) != _points(held[s]) for s in seats):
            return None  # the points do not match; the sampler tries again
        return out


def _points(cards: Sequence[int]) -> int:
    return sum(HCP.get(c & 0xF, 0) for c in cards)
