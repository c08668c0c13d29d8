"""`paiju bench conformance`: the conformance kit over thousands of random hands of a game.

The kit (paiju/games/testing.py: :func:`~paiju.games.testing.check_game`) plays one random hand
per seed with random legal actions and checks every invariant a game must keep at every step:
the legal sets, the hidden cards of every view and event (each seat, a spectator), the views'
declarations, illegal actions refused with a code and no change, the end, the outcome, the
replay of the log. The test suite runs it over a few hundred hands a game; this is its long
form (the suite's figures once came from 2,000 hands a game, a minute or more each). Each
game has its own sampling: every ``--sample-every``-th step tries every legal option and a
sample of illegal ones, every ``--hidden-every``-th checks the hidden cards (the deal always).
Exit 0 when every hand conforms, 1 at the first that does not (its seed and step named).

    paiju bench conformance --game bridge --hands 2000
    paiju bench conformance --game mahjong --ruleset classic --hands 2000 --first 0
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from tqdm import tqdm

from paiju import games
from paiju.cli.args import positive_int

# game -> (sample_every, hidden_every): how the suite's conformance tests sample each game
SAMPLING = {"bridge": (9, 3), "niujiu": (11, 2), "tricks": (11, 1), "mahjong": (50, 20)}


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--game", choices=games.names(), required=True, help="the game to play random hands of")
    p.add_argument("--ruleset", help="one ruleset (default: each of the game's rulesets in turn)")
    p.add_argument("--hands", type=positive_int, default=2000, help="random hands a ruleset (%(default)s)")
    p.add_argument("--first", type=int, default=0, help="the first hand's seed; the others follow (%(default)s)")
    p.add_argument("--sample-every", type=positive_int, help="try every option every Nth step (default: the game's)")
    p.add_argument("--hidden-every", type=positive_int, help="check hidden cards every Nth step (default: the game's)")
    p.add_argument("--json", action="store_true", help="print one JSON object a ruleset instead of the text")


def run(args: argparse.Namespace) -> int:
    from paiju.games.testing import ConformanceError, Report, check_game

    cls = games.get(args.game)
    if args.ruleset is not None and args.ruleset not in cls.RULESETS:
        known = ", ".join(cls.RULESETS)
        print(f"paiju bench conformance: {args.game} has no ruleset {args.ruleset!r}; known: {known}", file=sys.stderr)
        return 2
    sample_every, hidden_every = SAMPLING.get(args.game, (7, 1))
    sample_every = args.sample_every or sample_every
    hidden_every = args.hidden_every or hidden_every
    for ruleset in [args.ruleset] if args.ruleset else list(cls.RULESETS):
        report = Report()
        t0 = time.perf_counter()
        seeds = range(args.first, args.first + args.hands)
        bar = tqdm(seeds, desc=f"{args.game}/{ruleset}", unit="hand", disable=args.json, file=sys.stderr)
        try:
            for seed in bar:
                check_game(cls, ruleset, [seed], sample_every=sample_every, hidden_every=hidden_every, report=report)
        except ConformanceError as e:
            bar.close()
            print(f"{args.game}/{ruleset}: FAILED: {e}")
            return 1
        seconds = time.perf_counter() - t0
        codes = {str(code): n for code, n in sorted(report.refusal_codes.items())}
        if args.json:
            figures = {"game": args.game, "ruleset": ruleset, "hands": report.games, "steps": report.steps}
            figures |= {"max_steps": report.max_steps_seen, "options_tried": report.options_tried}
            figures |= {"illegal_refused": report.illegal_refused, "refusal_codes": codes, "seconds": round(seconds, 1)}
            print(json.dumps(figures))
        else:
            print(
                f"{args.game}/{ruleset}: {report.games} hands conform (seeds {seeds.start}..{seeds.stop - 1}, "
                f"{seconds:.0f} s): {report.steps} steps (at most {report.max_steps_seen} a hand), "
                f"{report.options_tried} legal options tried, {report.illegal_refused} illegal actions refused; "
                f"refusal codes: {', '.join(f'{c} x{n}' for c, n in codes.items())}"
            )
    return 0
