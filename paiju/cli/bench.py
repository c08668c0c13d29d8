"""`paiju bench TARGET`: benchmark commands (timing targets live here, never in unit tests).

Each target is a module ``bench.<target>`` of the top-level package paiju/bench/, with
``add_arguments(parser)`` and ``run(args)``; this module imports it only when it is asked for.
"""

from __future__ import annotations

import argparse
import importlib

TARGETS: dict[str, str] = {  # target -> one-line help
    "mahjong": "hu distance vs the mahjong package's shanten calculator",
    "tricks": "the trick-taking solver against plain alpha-beta, orders 8 to 14",
    "db": "the records API (history, leaderboards) with 100,000 stored matches: p99 answer times",
    "server": "paiju serve against a bare WebSocket echo under the same load generator, in one run",
    "fuzz": "malformed frames against a live paiju serve: every one answered, no crash",
    "churn": "clients dropping and resuming at random in every game: gaps, duplicates, leaks",
    "cluster": "several paiju serve --redis nodes, one killed mid-hand: takeover, lost and duplicated actions",
    "nonreaders": "clients that send but never read, then vanish: counts, RSS and idle CPU back to baseline",
    "records": "the CPU a finished hand's record costs: one transaction a job against batches",
    "pool": "a robot's decision in another process: the CPU it costs the serving process, executor against pipes",
    "peers": "paiju against Colyseus on the same tricks game: server CPU a move, side by side",
    "explain": "the cost of explaining a bridge call (its meaning in the bidding system) on the event loop",
    "parfloor": "bridge: how far from par a side stays when it sees its own 26 cards (what no bidder can win back)",
    "loop": "the event loop's lag with every core busy: robot processes at the server's priority against below it",
    "leads": "the bridge opening lead: DD tricks the simulated lead and the rules' lead give away, and its CPU",
    "judge": "the bridge bidding's simulation against the rows alone on the same deals, scored against par",
    "conformance": "the conformance kit over thousands of random hands of a game (the suite's long form)",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="target", metavar="TARGET", required=True)
    for target, text in TARGETS.items():
        p = sub.add_parser(target, help=text, description=text)
        importlib.import_module(f"paiju.bench.{target}").add_arguments(p)


def run(args: argparse.Namespace) -> int:
    code: int = importlib.import_module(f"paiju.bench.{args.target}").run(args)
    return code
