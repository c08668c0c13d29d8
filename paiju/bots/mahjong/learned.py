"""A learned correction to ``hudist``'s discard: features of each candidate, and the model.

Design.md §7.4's ``E = alpha P_D + beta P_Q V`` ranks the discards; :class:`~.strategies.HuDist`
with ``learned=PATH`` ranks again its best few at the least distance (never while it
folds) by a linear model fitted on what each of them was worth when the deal was played
out (:mod:`.learn` makes the data and the fit). The model predicts, for a candidate ``c``
and the discard ``E`` prefers, ``Q(c) - Q(E's choice) ~ w . (f(c) - f(E's choice))``; the
robot switches to the candidate of largest prediction when it is above ``margin`` points.

Every feature is read from the robot's own view (its :class:`~.memory.Memory`: its hand,
the melds, the rivers, the declarations, the wall count and the unseen counts), never from
the hidden hands or the wall: ``E`` and its parts, what the discarded tile is, what the
hand keeps, and a few products with the distance, the declarations and the wall.

>>> from paiju.protocol.cards import parse_tiles as t
>>> from .memory import Memory
>>> m = Memory(seat=0, hand=t("123m 456m 789m 1p 9p 56s"), honours=False)
>>> row = features(m, [Plain(t("1p")[0], 2, t("47s9p"), 0.1, 1.0, 0.2, 1.0)])[0]
>>> dict(zip(FEATURES, row))["terminal"], dict(zip(FEATURES, row))["honour"]
(1.0, 0.0)
"""

from __future__ import annotations

import functools
import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from paiju.bots.mahjong.memory import Memory

WALL = 84.0  # about the tiles left in the wall after the deal: the wall count's scale


class Candidate(Protocol):
    """What the model reads of one discard (:class:`~.strategies.Option` has it all)."""

    @property
    def tile(self) -> int: ...
    @property
    def distance(self) -> int: ...
    @property
    def needed(self) -> bytes: ...
    @property
    def p_q(self) -> float: ...
    @property
    def p_d(self) -> float: ...
    @property
    def value(self) -> float: ...
    @property
    def worth(self) -> float: ...


@dataclass(frozen=True)
class Plain:
    """A candidate given by its values (tests, doctests)."""

    tile: int
    distance: int
    needed: bytes
    p_q: float
    p_d: float
    value: float
    worth: float = 1.0


FEATURES = (
    "e",  # E as the robot computes it
    "p_q",  # the chance the next tile is needed
    "p_d",  # the chance the discard hands nobody a win
    "v",  # the hand's points if it wins, relative to a basic hand
    "p_q_v",  # P_Q V
    "kinds",  # how many kinds of tile are needed (/ 10)
    "honour",  # the discard is a wind or dragon
    "terminal",  # a 1 or a 9
    "two_eight",  # a 2 or an 8
    "live",  # unseen copies of the discarded tile (/ 4): how much it could still become
    "breaks_pair",  # the hand holds another copy of it
    "neighbours",  # tiles of the hand within two ranks of it, same suit (/ 4)
    "pairs_after",  # pairs the hand keeps (/ 4)
    "isolated_after",  # tiles the hand keeps with no neighbour and no twin (/ 4)
    "two_sided_after",  # adjacent number pairs the hand keeps, neither end a 1 or 9 (/ 4)
    "closed_edge_after",  # number pairs one apart, and 12 / 89, that the hand keeps (/ 4)
    "honour_pairs_after",  # pairs of honours the hand keeps (a pung from any seat's discard)
    "suit_share",  # the share of the kept tiles in its most held number suit
    "outer_needed",  # the share of the needed unseen tiles that are honours or terminals
    "pair_needed",  # the share of the needed unseen tiles that would make a pung of a kept pair
    "p_q_ready",  # P_Q while one tile from a win
    "p_q_two",  # P_Q while two from a win
    "outer_ready",  # outer_needed while one tile from a win (others throw such tiles first)
    "deal_in_threat",  # 1 - P_D while some opponent has declared
    "deal_in_late",  # 1 - P_D times the share of the wall gone
    "p_q_late",  # P_Q times the share of the wall gone
    "v_ready",  # V while one tile from a win
)


def _outer(t: int) -> bool:
    return t >> 4 == 3 or t & 0xF in (1, 9)


def features(memory: Memory, candidates: Sequence[Candidate]) -> list[list[float]]:
    """One row of :data:`FEATURES` per candidate discard (``candidates[0]``: E's best), from
    ``memory`` alone: the robot's view."""
    hand = memory.hand
    have = Counter(hand)
    unseen = memory.unseen
    threatened = any(memory.ready[o] for o in range(4) if o != memory.seat)
    gone = max(0.0, min(1.0, 1.0 - memory.wall / WALL))
    rows = []
    for c in candidates:
        x = c.tile
        part = have.copy()
        part[x] -= 1
        honour = x >> 4 == 3
        rank = x & 0xF
        neighbours = 0
        if not honour:
            neighbours = sum(n for t, n in part.items() if t >> 4 == x >> 4 and t != x and abs((t & 0xF) - rank) <= 2)
        pairs = sum(1 for n in part.values() if n >= 2)
        isolated = 0
        for t, n in part.items():
            if n != 1:
                continue
            if t >> 4 == 3 or not any(
                part[u] for u in range(t - 2, t + 3) if u != t and u >> 4 == t >> 4 and 1 <= u & 0xF <= 9
            ):
                isolated += 1
        two_sided = closed = 0
        for t in part:
            if not part[t] or t >> 4 == 3:
                continue
            r = t & 0xF
            if part[t + 1] and r + 1 <= 9:
                if 2 <= r <= 7:
                    two_sided += 1
                else:
                    closed += 1
            if part[t + 2] and r + 2 <= 9:
                closed += 1
        honour_pairs = sum(1 for t, n in part.items() if t >> 4 == 3 and n >= 2)
        by_suit = Counter({s: 0 for s in range(3)})
        for t, n in part.items():
            if t >> 4 < 3:
                by_suit[t >> 4] += n
        kept = max(1, sum(part.values()))
        total = sum(unseen[t] for t in c.needed) or 1
        outer = sum(unseen[t] for t in c.needed if _outer(t)) / total
        pair_needed = sum(unseen[t] for t in c.needed if part[t] >= 2) / total
        ready = c.distance == 1
        rows.append(
            [
                c.value,
                c.p_q,
                c.p_d,
                c.worth,
                c.p_q * c.worth,
                len(c.needed) / 10,
                float(honour),
                float(not honour and rank in (1, 9)),
                float(not honour and rank in (2, 8)),
                unseen[x] / 4,
                float(part[x] >= 1),
                neighbours / 4,
                pairs / 4,
                isolated / 4,
                two_sided / 4,
                closed / 4,
                honour_pairs / 4,
                max(by_suit.values()) / kept,
                outer,
                pair_needed,
                c.p_q * ready,
                c.p_q * (c.distance == 2),
                outer * ready,
                (1 - c.p_d) * threatened,
                (1 - c.p_d) * gone,
                c.p_q * gone,
                c.worth * ready,
            ]
        )
    return rows


@dataclass(frozen=True)
class Model:
    """A linear score per candidate: ``weights . features``; the robot leaves E's choice for
    the candidate of highest score only when it scores more than ``margin`` above it."""

    weights: tuple[float, ...]
    margin: float = 0.0
    top: int = 4  # the best discards by E that it ranks again
    names: tuple[str, ...] = FEATURES
    # the tile set it was fitted on (True: with winds and dragons, classic); None: any. A model
    # is not used on the other set: it was measured worse there (docs/robots.md)
    honours: bool | None = None

    def fits(self, memory: Memory) -> bool:
        """Whether this model is for ``memory``'s tile set."""
        return self.honours is None or self.honours == memory.honours

    def pick(self, rows: Sequence[Sequence[float]], margin: float | None = None) -> int:
        """The index of the candidate to throw (0: E's own choice)."""
        scores = [sum(w * f for w, f in zip(self.weights, row, strict=True)) for row in rows]
        best = max(range(len(rows)), key=lambda i: (scores[i], -i))
        m = self.margin if margin is None else margin
        return best if best and scores[best] - scores[0] > m else 0

    def as_dict(self) -> dict[str, Any]:
        return {
            "names": list(self.names),
            "weights": list(self.weights),
            "margin": self.margin,
            "top": self.top,
            "honours": self.honours,
        }

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.as_dict(), indent=1) + "\n")


def load(path: str) -> Model:
    """The model saved at ``path`` (a path relative to this package is tried second)."""
    return _load(path)


@functools.cache
def _load(path: str) -> Model:
    p = Path(path)
    if not p.exists():
        p = Path(__file__).parent / path
    data = json.loads(p.read_text())
    names = tuple(data["names"])
    if names != FEATURES:
        raise ValueError(f"{path}: its features {names} are not this version's {FEATURES}")
    weights = tuple(float(w) for w in data["weights"])
    return Model(weights, float(data["margin"]), int(data["top"]), names, data.get("honours"))
