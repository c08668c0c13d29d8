"""What a mahjong player judges a robot by, from an arena report's hands.

A mahjong hand's scores tell how it ended (docs/rules/mahjong.md): nobody scores in a
drawn hand; on a win from a discard the winner gains what the one discarder loses; on a
self-draw all three others pay. So per robot, from the records alone:

- **win rate**: the share of its hands it won; **self-draw rate**: the share it won by
  self-draw; **deal-in rate**: the share in which its discard gave another seat the win;
- **mean points per hand**, **when winning** (its score in the hands it won) and **when
  dealing in** (its score, negative, in the hands it dealt in);
- each with a 95% confidence interval: the rates and the mean over the deals (each deal's
  figure is the robot's average over its seats, as :mod:`paiju.bots.arena` does); the two
  conditional means over the hands in which the event happened;
- and, for every other robot, the paired difference of the mean points per hand over the
  same deals, with its 95% interval (a difference above 0 means the first robot scores more).

>>> from paiju.bots.arena import play
>>> s = stats(play("mahjong", ["greedy", "random", "random", "random"], hands=2, seed=1))
>>> sorted(s), s["greedy"].hands, 0 <= s["random"].deal_in.mean <= 1
(['greedy', 'random'], 8, True)
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from paiju.bots.arena import ArenaReport, _ci

CI = tuple[float, float] | None
FIGURES = ("win", "self_draw", "deal_in", "points", "points_won", "points_dealt")


class Estimate(NamedTuple):
    """A mean and its 95% interval (None below two samples)."""

    mean: float = 0.0
    ci: CI = None

    def as_dict(self) -> dict[str, Any]:
        return {"mean": self.mean, "ci": list(self.ci) if self.ci else None}


NOTHING = Estimate()  # no hand yet


@dataclass
class MahjongStats:
    """One robot's mahjong figures (see the module): each an :class:`Estimate`."""

    name: str
    hands: int = 0
    win: Estimate = NOTHING
    self_draw: Estimate = NOTHING
    deal_in: Estimate = NOTHING
    points: Estimate = NOTHING
    points_won: Estimate = NOTHING
    points_dealt: Estimate = NOTHING
    difference: dict[str, Estimate] = field(default_factory=dict)  # other robot -> paired difference of points

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"hands": self.hands}
        out.update({key: getattr(self, key).as_dict() for key in FIGURES})
        out["difference"] = {o: e.as_dict() for o, e in self.difference.items()}
        return out


def ending(scores: list[int], seat: int) -> tuple[bool, bool, bool]:
    """``(won, self_drawn, dealt_in)`` for ``seat`` from a hand's scores.

    >>> ending([3, -1, -1, -1], 0), ending([0, 2, -2, 0], 2), ending([0, 0, 0, 0], 1)
    ((True, True, False), (False, False, True), (False, False, False))
    """
    payers = sum(1 for x in scores if x < 0)
    won = scores[seat] > 0
    return won, won and payers > 1, scores[seat] < 0 and payers == 1


def _estimate(values: list[float], lo: float = -math.inf, hi: float = math.inf) -> Estimate:
    return Estimate(statistics.fmean(values) if values else 0.0, _ci(values, lo, hi))


Row = tuple[bool, bool, bool, int]  # one seat's hand: won, self-drawn, dealt in, score


def rows_by_deal(report: ArenaReport) -> dict[str, dict[int, list[Row]]]:
    """Per robot, per deal: one :data:`Row` per seat it held."""
    rows: dict[str, dict[int, list[Row]]] = {n: defaultdict(list) for n in dict.fromkeys(report.seats)}
    for rec in report.records:
        for seat, name in enumerate(rec.robots):
            rows[name][rec.deal].append((*ending(rec.scores, seat), rec.scores[seat]))
    return rows


def points_by_deal(report: ArenaReport, name: str) -> list[float]:
    """Robot ``name``'s mean points per hand in each deal (over the seats it held), deal by deal."""
    per = rows_by_deal(report)[name]
    return _points(per, sorted(per))


def _points(per: dict[int, list[Row]], deals: list[int]) -> list[float]:
    return [statistics.fmean(r[3] for r in per[d]) for d in deals]


def stats(report: ArenaReport) -> dict[str, MahjongStats]:
    """Per robot, the figures of the module from ``report.records``."""
    names = list(dict.fromkeys(report.seats))
    rows = rows_by_deal(report)
    deals = sorted({rec.deal for rec in report.records})
    per_deal_points = {n: _points(rows[n], deals) for n in names}
    out = {}
    for n in names:
        flat = [r for d in deals for r in rows[n][d]]
        s = MahjongStats(n, hands=len(flat))
        for i, key in enumerate(("win", "self_draw", "deal_in")):
            setattr(s, key, _estimate([statistics.fmean(float(r[i]) for r in rows[n][d]) for d in deals], 0.0, 1.0))
        s.points = _estimate(per_deal_points[n])
        s.points_won = _estimate([float(r[3]) for r in flat if r[0]])
        s.points_dealt = _estimate([float(r[3]) for r in flat if r[2]])
        for o in names:
            if o != n:
                pairs = zip(per_deal_points[n], per_deal_points[o], strict=True)
                s.difference[o] = _estimate([a - b for a, b in pairs])
        out[n] = s
    return out


def table(figures: dict[str, MahjongStats]) -> str:
    """The figures as a text table (rates and points with their 95% intervals), then the differences."""

    def cell(e: Estimate, fmt: str) -> str:
        return f"{e.mean:{fmt}} [{e.ci[0]:{fmt}}, {e.ci[1]:{fmt}}]" if e.ci else f"{e.mean:{fmt}} [n/a]"

    lines = [
        f"{'robot':<12} {'win':>21} {'self-draw':>21} {'deal-in':>21} "
        f"{'points/hand':>24} {'points won':>24} {'points dealt in':>24}"
    ]
    for n, s in figures.items():
        rates = " ".join(f"{cell(getattr(s, k), '.3f'):>21}" for k in FIGURES[:3])
        points = " ".join(f"{cell(getattr(s, k), '+.3f'):>24}" for k in FIGURES[3:])
        lines.append(f"{n:<12} {rates} {points}")
    names = list(figures)
    for i, n in enumerate(names):
        for o in names[i + 1 :]:
            lines.append(f"points/hand {n} - {o} (paired over deals): {cell(figures[n].difference[o], '+.3f')}")
    return "\n".join(lines)
