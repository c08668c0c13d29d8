"""Tuning ``hudist`` in the arena: its variants against one opponent, on the same deals.

Each variant is a set of :class:`~paiju.bots.mahjong.strategies.HuDist` settings (JSON: ``{}`` is
the robot as registered, ``{"push": null}`` turns fold/push off). Every variant plays the
same deals, seat-rotated, against three copies of ``--against``; the figures are those of
:mod:`paiju.bots.arena_mahjong`, and each variant after the first is also given as the paired
difference of the robot's points per hand from the first, deal by deal (steadier than
comparing two means). docs/robots.md's tuning tables come from this command::

    python -m paiju.bots.mahjong.tuning --hands 300 --seed 2 '{}' '{"read_passed": false}'
"""

from __future__ import annotations

import argparse
import json
import statistics
from typing import Any

from paiju.bots import registry
from paiju.bots.arena import _ci, play
from paiju.bots.arena_mahjong import points_by_deal, stats
from paiju.bots.mahjong.robots import BDIRobot
from paiju.bots.mahjong.strategies import HuDist


def variant(name: str, settings: dict[str, Any]) -> str:
    """Register ``name``: a ``hudist`` robot with ``settings`` (HuDist's keyword arguments)."""
    HuDist(**settings)  # a bad setting fails here, by name

    class Variant(BDIRobot):
        def __init__(self) -> None:
            super().__init__(HuDist(**settings))

    Variant.name = name
    Variant.description = f"hudist with {json.dumps(settings)} (a tuning variant)"[:100]
    registry.names("mahjong")  # load the registry before adding to it
    registry.register(Variant)
    return name


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m paiju.bots.mahjong.tuning", description=__doc__.split("\n\n")[0])
    ap.add_argument("variants", nargs="+", help='HuDist settings as JSON, e.g. {} {"push": 0.25}')
    ap.add_argument("--hands", type=int, default=300, help="deals, each played once per rotation (default 300)")
    ap.add_argument("--seed", type=int, default=2, help="the seed of the deals (default 2)")
    ap.add_argument("--ruleset", default="championship", help="championship (default) or classic")
    ap.add_argument("--against", default="ukeire", help="the robot in the other three seats (default ukeire)")
    args = ap.parse_args(argv)
    first: list[float] = []
    for i, text in enumerate(args.variants):
        name = variant(f"hudist-{i}", json.loads(text))
        try:
            seats = [name, args.against, args.against, args.against]
            report = play("mahjong", seats, args.hands, args.seed, args.ruleset)
        finally:  # the variant lives for its run only: nobody else's menu lists it
            registry.unregister("mahjong", name)
        s = stats(report)[name]
        points = points_by_deal(report, name)
        line = (
            f"{text}: win {s.win.mean:.3f} deal-in {s.deal_in.mean:.3f} points won {s.points_won.mean:+.2f} "
            f"points/hand {s.points.mean:+.3f} cpu p99 {report.robots[name].cpu_p99_ms:.2f} ms"
        )
        if i == 0:
            first = points
        else:
            diff = [a - b for a, b in zip(points, first, strict=True)]
            lo, hi = _ci(diff) or (0.0, 0.0)
            line += f" paired difference {statistics.fmean(diff):+.3f} [{lo:+.3f}, {hi:+.3f}]"
        print(line, flush=True)


if __name__ == "__main__":
    main()
