"""What a mahjong player judges a robot by, from an arena report's hands.

A mahjong hand's scores tell how it ended (docs/rules/mahjong.md): nobody scores in a
drawn hand; on a win from a discard the winner gains what the one discarder loses; on a
self-draw all three others pay. So per robot, from the records alone:

- **win rate**: the share of its hands it won; **self-draw rate**: the share it won by
  self-draw; **deal-in rate**: the share in which its discard gave another seat the win;
- **mean points per hand**, **when winning** (its score in the hands it won) and **when
  dealing in** (its score, negative, in the hands it dealt in);
- each with a 95% confidence interval: the rates and the mean over the deals (each deal's
  figure is the robot's average over its seats, as :mod:`bots.arena` does); the two
  conditional means over the hands in which the event happened;
- and, for every other robot, the paired difference of the mean points per hand over the
  same deals, with its 95% interval (a difference above 0 means the first robot scores more).

>>> from bots.arena import play
>>> s = stats(play("mahjong", ["greedy", "random", "random", "random"], hands=2, seed=1))
>>> sorted(s), s["greedy"].hands, 0 <= s["random"].deal_in <= 1
(['greedy', 'random'], 8, True)
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from .arena import ArenaReport, _ci

CI = tuple[float, float] | None


@dataclass
class MahjongStats:
    """One robot's mahjong figures (see the module)."""

    name: str
    hands: int = 0
    win: float = 0.0
    win_ci: CI = None
    self_draw: float = 0.0
    self_draw_ci: CI = None
    deal_in: float = 0.0
    deal_in_ci: CI = None
    points: float = 0.0
    points_ci: CI = None
    points_won: float = 0.0
    points_won_ci: CI = None
    points_dealt: float = 0.0
    points_dealt_ci: CI = None
    difference: dict[str, tuple[float, CI]] = field(default_factory=dict)  # other robot -> paired mean difference

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key in ("hands", "win", "self_draw", "deal_in", "points", "points_won", "points_dealt"):
            out[key] = getattr(self, key)
            if key != "hands":
                ci = getattr(self, key + "_ci")
                out[key + "_ci"] = list(ci) if ci else None
        out["difference"] = {o: {"mean": m, "ci": list(ci) if ci else None} for o, (m, ci) in self.difference.items()}
        return out


def ending(scores: list[int], seat: int) -> tuple[bool, bool, bool]:
    """``(won, self_drawn, dealt_in)`` for ``seat`` from a hand's scores.

    >>> ending([3, -1, -1, -1], 0), ending([0, 2, -2, 0], 2), ending([0, 0, 0, 0], 1)
    ((True, True, False), (False, False, True), (False, False, False))
    """
    payers = sum(1 for x in scores if x < 0)
    won = scores[seat] > 0
    return won, won and payers > 1, scores[seat] < 0 and payers == 1


def _mean_ci(values: list[float]) -> tuple[float, CI]:
    return (statistics.fmean(values) if values else 0.0), _ci(values)


def stats(report: ArenaReport) -> dict[str, MahjongStats]:
    """Per robot, the figures of the module from ``report.records``."""
    names = list(dict.fromkeys(report.seats))
    # per robot, per deal: one row per seat it held (won, self-drawn, dealt in, score)
    rows: dict[str, dict[int, list[tuple[bool, bool, bool, int]]]] = {n: defaultdict(list) for n in names}
    for rec in report.records:
        for seat, name in enumerate(rec.robots):
            rows[name][rec.deal].append((*ending(rec.scores, seat), rec.scores[seat]))
    deals = sorted({rec.deal for rec in report.records})
    per_deal_points = {n: [statistics.fmean(r[3] for r in rows[n][d]) for d in deals] for n in names}
    out = {}
    for n in names:
        flat = [r for d in deals for r in rows[n][d]]
        s = MahjongStats(n, hands=len(flat))
        for i, key in enumerate(("win", "self_draw", "deal_in")):
            per_deal = [statistics.fmean(float(r[i]) for r in rows[n][d]) for d in deals]
            mean, ci = _mean_ci(per_deal)
            setattr(s, key, mean)
            setattr(s, key + "_ci", None if ci is None else (max(0.0, ci[0]), min(1.0, ci[1])))
        s.points, s.points_ci = _mean_ci(per_deal_points[n])
        s.points_won, s.points_won_ci = _mean_ci([float(r[3]) for r in flat if r[0]])
        s.points_dealt, s.points_dealt_ci = _mean_ci([float(r[3]) for r in flat if r[2]])
        for o in names:
            if o != n:
                diff = [a - b for a, b in zip(per_deal_points[n], per_deal_points[o], strict=True)]
                s.difference[o] = _mean_ci(diff)
        out[n] = s
    return out


def table(figures: dict[str, MahjongStats]) -> str:
    """The figures as a text table (rates and points with their 95% intervals), then the differences."""

    def cell(v: float, ci: CI, fmt: str) -> str:
        return f"{v:{fmt}} [{ci[0]:{fmt}}, {ci[1]:{fmt}}]" if ci else f"{v:{fmt}} [n/a]"

    lines = [
        f"{'robot':<12} {'win':>21} {'self-draw':>21} {'deal-in':>21} "
        f"{'points/hand':>24} {'points won':>24} {'points dealt in':>24}"
    ]
    for n, s in figures.items():
        lines.append(
            f"{n:<12} {cell(s.win, s.win_ci, '.3f'):>21} {cell(s.self_draw, s.self_draw_ci, '.3f'):>21} "
            f"{cell(s.deal_in, s.deal_in_ci, '.3f'):>21} {cell(s.points, s.points_ci, '+.3f'):>24} "
            f"{cell(s.points_won, s.points_won_ci, '+.3f'):>24} {cell(s.points_dealt, s.points_dealt_ci, '+.3f'):>24}"
        )
    names = list(figures)
    for i, n in enumerate(names):
        for o in names[i + 1 :]:
            m, ci = figures[n].difference[o]
            lines.append(f"points/hand {n} - {o} (paired over deals): {cell(m, ci, '+.3f')}")
    return "\n".join(lines)
