"""`paiju arena GAME --seats A,B[,C,D] --hands N --seed S [--json] [--plot FILE.png]`.

Plays N deals headless, each once per rotation of the robots around the table (duplicate
style), with a progress bar on stderr, and reports per robot the share of hands won,
the mean score per hand with 95% confidence intervals, illegal actions and decision
latency p50/p99. For mahjong it adds the win, self-draw and deal-in rates and the mean
points per hand, when winning and when dealing in, with 95% intervals, and the paired
difference of points per hand between the robots (bots/arena_mahjong.py).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="a registered game (tricks, mahjong, bridge, niujiu, ...)")
    parser.add_argument("--seats", required=True, help="robot names, one per seat, comma-separated: perfect,random")
    parser.add_argument("--hands", type=int, default=100, help="deals; each is played once per rotation (default 100)")
    parser.add_argument("--seed", type=int, default=0, help="the seed of the deals (default 0)")
    parser.add_argument("--ruleset", default=None, help="the game's ruleset (default: its first)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--plot", metavar="FILE.png", help="write a PNG chart of the report")
    parser.add_argument("--records", metavar="FILE.jsonl", help="write every hand played, one JSON object a line")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


def run(args: argparse.Namespace) -> int:
    from bots import arena

    seats = [s.strip() for s in args.seats.split(",") if s.strip()]
    try:
        report = arena.play(
            args.game, seats, args.hands, seed=args.seed, ruleset=args.ruleset, progress=not args.no_progress
        )
    except (KeyError, ValueError) as e:
        print(f"paiju arena: {e.args[0] if e.args else e}", file=sys.stderr)
        return 2
    if args.records:
        with open(args.records, "w", encoding="utf-8") as f:
            for rec in report.records:
                f.write(json.dumps(rec.__dict__) + "\n")
    if args.plot:
        arena.plot(report, args.plot)
    extra = _game_figures(report)
    if args.json:
        out = report.as_dict()
        if extra is not None:
            out[report.game] = {name: f.as_dict() for name, f in extra.items()}
        print(json.dumps(out))
        return 0
    print(
        f"{report.game}/{report.ruleset}: {report.deals} deals x {len(seats)} rotations = {report.games} hands, "
        f"seed {report.seed}"
    )
    print(f"{'robot':<12} {'hands':>6} {'win share':>22} {'mean score':>24} {'illegal':>8} {'p50 ms':>8} {'p99 ms':>8}")
    for name, r in report.robots.items():
        print(
            f"{name:<12} {r.hands:>6} {r.win_share:>8.3f} {_ci(r.win_share_ci):>13} "
            f"{r.mean_score:>+9.3f} {_ci(r.mean_score_ci):>14} {r.illegal:>8} {r.p50_ms:>8.3f} {r.p99_ms:>8.3f}"
        )
    if extra is not None:
        from bots import arena_mahjong

        print(arena_mahjong.table(extra))
    if args.plot:
        print(f"chart: {args.plot}")
    return 0


def _game_figures(report: Any) -> dict[str, Any] | None:
    """A game's own figures (mahjong: win, self-draw and deal-in rates, points; bots/arena_mahjong.py)."""
    if report.game == "mahjong":
        from bots import arena_mahjong

        return dict(arena_mahjong.stats(report))
    return None


def _ci(ci: tuple[float, float] | None) -> str:
    return f"[{ci[0]:+.3f}, {ci[1]:+.3f}]" if ci else "[n/a]"
