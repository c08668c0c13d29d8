"""`paiju arena GAME --seats A,B[,C,D] --hands N --seed S [--json] [--plot FILE.png]`.

Plays N deals headless, each once per rotation of the robots around the table (duplicate
style), with a progress bar on stderr, and reports per robot the share of hands won,
the mean score per hand with 95% confidence intervals, illegal actions and decision
latency p50/p99 (wall clock and the deciding thread's CPU time). A game may add figures of
its own (`GAME_FIGURES`): for niujiu each robot's enough rate with its 95% interval and the
paired gap to the others, and, as head, the hands the seed's automaton accepts at the deal and
how many of them ended enough (paiju/bots/niujiu/arena.py); for mahjong the win, self-draw and
deal-in rates and the mean points per hand, when winning and when dealing in, with 95%
intervals, and the paired difference of points per hand (paiju/bots/arena_mahjong.py). Bridge is
played as a duplicate match in IMPs with its own report (paiju/bots/bridge/arena.py).
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys

from paiju.cli.args import out_file, plot_file, positive_int

# a game's own figures: a module with `stats(report) -> {robot: figures}` and `table(figures) -> str`
GAME_FIGURES = {"niujiu": "paiju.bots.niujiu.arena", "mahjong": "paiju.bots.arena_mahjong"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="a registered game (tricks, mahjong, bridge, niujiu, ...)")
    parser.add_argument("--seats", required=True, help="robot names, one per seat, comma-separated: perfect,random")
    parser.add_argument(
        "--hands", type=positive_int, default=100, help="deals; each is played once per rotation (default 100)"
    )
    parser.add_argument("--seed", type=int, default=0, help="the seed of the deals (default 0)")
    parser.add_argument("--ruleset", default=None, help="the game's ruleset (default: its first)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--plot", type=plot_file, metavar="FILE.png", help="write a PNG chart of the report (needs paiju[plot])"
    )
    parser.add_argument(
        "--records", type=out_file, metavar="FILE.jsonl", help="write every hand played, one JSON object a line"
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    bridge = parser.add_argument_group("bridge (duplicate IMPs, par, double dummy; see docs/robots.md)")
    bridge.add_argument("--samples", type=int, default=None, help="Monte Carlo samples a card of `hybrid` (default 32)")
    bridge.add_argument("--jobs", type=int, default=1, help="processes playing boards side by side (default 1)")
    bridge.add_argument("--pbn", metavar="FILE.pbn", help="write every table played as PBN 2.1")
    bridge.add_argument(
        "--bidding-only",
        action="store_true",
        help="the robots bid and `basic` plays every card: fast figures of the auctions alone (par, |IMPs against "
        "par|, games and slams bid, all scored at the contract's double-dummy result)",
    )
    bridge.add_argument(
        "--oracle",
        choices=("shape", "lengths", "points", "honours"),
        default=None,
        help="a diagnosis, not a robot: `hybrid`'s Monte Carlo deals the hidden hands with their real suit lengths "
        "and points (shape), lengths only, points only, or real honours (honours), to measure what better sampling "
        "could save (paiju/bots/bridge/oracle.py)",
    )


def run(args: argparse.Namespace) -> int:
    from paiju.bots import arena

    if args.game == "bridge":  # two tables a board, IMPs: its own report
        from paiju.bots.bridge.arena import run_cli

        return run_cli(args)

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
    figures = importlib.import_module(GAME_FIGURES[report.game]) if report.game in GAME_FIGURES else None
    extra = dict(figures.stats(report)) if figures is not None else None
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
    print(
        f"{'robot':<12} {'hands':>6} {'win share':>22} {'mean score':>24} {'illegal':>8} "
        f"{'p50 ms':>8} {'p99 ms':>8} {'cpu p99':>8}"
    )
    for name, r in report.robots.items():
        print(
            f"{name:<12} {r.hands:>6} {r.win_share:>8.3f} {_ci(r.win_share_ci):>13} "
            f"{r.mean_score:>+9.3f} {_ci(r.mean_score_ci):>14} {r.illegal:>8} "
            f"{r.p50_ms:>8.3f} {r.p99_ms:>8.3f} {r.cpu_p99_ms:>8.3f}"
        )
    if figures is not None and extra is not None:
        print(figures.table(extra))
    if args.plot:
        print(f"chart: {args.plot}")
    return 0


def _ci(ci: tuple[float, float] | None) -> str:
    return f"[{ci[0]:+.3f}, {ci[1]:+.3f}]" if ci else "[n/a]"
