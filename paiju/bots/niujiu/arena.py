"""What a Niujiu player judges a robot by, from an arena report's hands.

Per robot:

- **enough rate**: the share of its hands in which it ended enough (够牌, six or more
  occupied cards), with a 95% interval over the deals (each deal's figure is the robot's
  average over its seats, as :mod:`paiju.bots.arena` does), and the paired difference with each
  other robot over the same deals, with its 95% interval;
- **as head**: the hands in which it was the head (头家), how many of them the seed's
  automaton accepts at the deal ("six must suffice", read from the head's 16 dealt cards
  alone), and in how many of those it did end enough. For ``automaton`` the last two must
  be equal: an accepted hand is a sure six.

>>> from paiju.bots.arena import play
>>> s = stats(play("niujiu", ["automaton", "random", "random"], hands=2, seed=1))
>>> sorted(s), s["automaton"].hands, s["automaton"].head_hands
(['automaton', 'random'], 6, 2)
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from typing import Any

from paiju import games
from paiju.bots.arena import ArenaReport, _ci
from paiju.bots.niujiu.automaton import six_must_suffice

CI = tuple[float, float] | None


@dataclass
class NiujiuFigures:
    """One robot's Niujiu figures (see the module)."""

    name: str
    hands: int = 0
    enough: float = 0.0
    enough_ci: CI = None
    head_hands: int = 0
    head_accepted: int = 0
    head_accepted_enough: int = 0
    difference: dict[str, tuple[float, CI]] = field(default_factory=dict)  # other robot -> paired enough-rate gap
    cpu_p50_ms: float = 0.0  # decision time on the deciding thread's CPU clock (paiju.bots.arena)
    cpu_p99_ms: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "hands": self.hands,
            "enough": self.enough,
            "enough_ci": list(self.enough_ci) if self.enough_ci else None,
            "head_hands": self.head_hands,
            "head_accepted": self.head_accepted,
            "head_accepted_enough": self.head_accepted_enough,
            "enough_difference": {k: [v, list(c) if c else None] for k, (v, c) in self.difference.items()},
            "cpu_p50_ms": self.cpu_p50_ms,
            "cpu_p99_ms": self.cpu_p99_ms,
        }


def stats(report: ArenaReport) -> dict[str, NiujiuFigures]:
    """The figures of every robot of a Niujiu arena report."""
    names = list(dict.fromkeys(report.seats))
    per_deal: dict[str, list[list[float]]] = {n: [[] for _ in range(report.deals)] for n in names}
    figs = {n: NiujiuFigures(n) for n in names}
    accepted: dict[int, bool] = {}  # by deal: the head and its cards are the same in every rotation
    for rec in report.records:
        enough = rec.detail["enough"]
        head = int(rec.detail["head"])
        for seat, name in enumerate(rec.robots):
            per_deal[name][rec.deal].append(1.0 if enough[seat] else 0.0)
        if rec.deal not in accepted:
            dealt = games.create(report.game, report.seed, report.ruleset, hand=rec.deal).concealed(head)
            accepted[rec.deal] = six_must_suffice(dealt) is not None
        f = figs[rec.robots[head]]
        f.head_hands += 1
        if accepted[rec.deal]:
            f.head_accepted += 1
            f.head_accepted_enough += bool(enough[head])
    means = {n: [statistics.fmean(d) for d in per_deal[n] if d] for n in names}
    for n in names:
        flat = [x for d in per_deal[n] for x in d]
        f = figs[n]
        f.hands = len(flat)
        f.enough = statistics.fmean(flat) if flat else 0.0
        f.enough_ci = _ci(means[n], 0.0, 1.0)
        f.cpu_p50_ms, f.cpu_p99_ms = report.robots[n].cpu_p50_ms, report.robots[n].cpu_p99_ms
        for other in names:
            if other != n:
                gaps = [a - b for a, b in zip(means[n], means[other], strict=True)]
                f.difference[other] = (statistics.fmean(gaps) if gaps else 0.0, _ci(gaps))
    return figs


def table(figs: dict[str, NiujiuFigures]) -> str:
    """The figures as the text ``paiju arena niujiu`` prints."""
    lines = [
        f"{'robot':<14} {'enough rate':>24} {'as head':>8} {'accepted':>9} {'…enough':>8} {'cpu p50':>8} {'cpu p99':>8}"
        "   enough-rate gap (paired)"
    ]
    for n, f in figs.items():
        ci = f"[{f.enough_ci[0]:.3f}, {f.enough_ci[1]:.3f}]" if f.enough_ci else "[n/a]"
        gaps = ", ".join(
            f"vs {o} {g:+.3f} " + (f"[{c[0]:+.3f}, {c[1]:+.3f}]" if c else "[n/a]")
            for o, (g, c) in f.difference.items()
        )
        head = f"{f.head_hands:>8} {f.head_accepted:>9} {f.head_accepted_enough:>8}"
        cpu = f"{f.cpu_p50_ms:>8.3f} {f.cpu_p99_ms:>8.3f}"
        lines.append(f"{n:<14} {f.enough:>8.3f} {ci:>15} {head} {cpu}   {gaps}")
    return "\n".join(lines)
