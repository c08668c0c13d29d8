"""`paiju solve tricks "1 4 5 8" "2 3 6 7"`: the exact value of a position and the optimal first plays.

The first hand leads. Cards are numbers (any distinct integers; only their order matters),
separated by spaces or commas.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time

from paiju.cli.args import nonnegative_int, out_file, plot_file


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", choices=["tricks"], help="the game (only the simple trick-taking game has a solver)")
    parser.add_argument("leader", nargs="?", help='the leader\'s cards, e.g. "1 4 5 8"')
    parser.add_argument("follower", nargs="?", help='the follower\'s cards, e.g. "2 3 6 7"')
    parser.add_argument(
        "--distribution", action="store_true", help="print how many instances of each order have each value"
    )
    parser.add_argument(
        "--plot", type=plot_file, metavar="FILE.png", help="with --distribution: draw it (needs paiju[plot])"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--cache", type=out_file, metavar="PATH", help="the solved-instances cache file (default: user cache dir)"
    )
    parser.add_argument(
        "--cache-order", type=nonnegative_int, default=None, metavar="N", help="cache every instance up to N"
    )


def _cards(text: str) -> list[int]:
    return [int(t) for t in re.split(r"[\s,]+", text.strip()) if t]


def run(args: argparse.Namespace) -> int:
    from paiju.bots.tricks import solver as tricks_solver
    from paiju.bots.tricks.graph import key_of, strategy_graph

    if args.distribution:
        return _distribution(args)
    if args.leader is None or args.follower is None:
        print("paiju solve: give the leader's and the follower's cards (or --distribution)", file=sys.stderr)
        return 2
    try:
        leader, follower = _cards(args.leader), _cards(args.follower)
        key_of(leader, follower)
        if len(leader) != len(follower):
            raise ValueError("both hands must hold the same number of cards")
    except ValueError as e:
        print(f"paiju solve: {e}", file=sys.stderr)
        return 2
    if args.cache or args.cache_order is not None:
        order = tricks_solver.DEFAULT_ORDER if args.cache_order is None else args.cache_order
        tricks_solver._default = tricks_solver.Solver(tricks_solver.Cache.load_or_build(order, args.cache))
    start = time.perf_counter()
    value = tricks_solver.solve(leader, follower)
    elapsed = time.perf_counter() - start
    attacks = tricks_solver.attack_values(leader, follower)
    best = [list(cards) for cards, v in attacks if v == value]
    graph = strategy_graph(leader, follower)
    if args.json:
        print(
            json.dumps(
                {
                    "value": value,
                    "optimal_attacks": best,
                    "attack_values": [[list(c), v] for c, v in attacks],
                    "strategy_graph": [[who, list(c)] for who, c in graph.nodes],
                    "seconds": round(elapsed, 6),
                }
            )
        )
        return 0
    n = len(leader)
    print(
        f"order {n}: the leader holds {' '.join(map(str, sorted(leader)))}, "
        f"the follower {' '.join(map(str, sorted(follower)))}"
    )
    print("strategy graph: " + "  ".join(f"{who}[{' '.join(map(str, c))}]" for who, c in graph.nodes))
    print(f"value: {value:+d} (leader's tricks minus follower's: {(n + value) // 2} to {(n - value) // 2})")
    print(
        "optimal first plays: "
        + ", ".join(" ".join(map(str, c)) for c in map(tuple, best))
        + "  (any card of an interval)"
    )
    print("each lead: " + ", ".join(f"{' '.join(map(str, c))} -> {v:+d}" for c, v in attacks))
    print(f"solved in {elapsed * 1000:.1f} ms")
    return 0


def _distribution(args: argparse.Namespace) -> int:
    """The seed's table: for each order, how many instances have each optimal value (from the cache)."""
    from paiju.bots.tricks.solver import DEFAULT_ORDER, Cache

    order = DEFAULT_ORDER if args.cache_order is None else args.cache_order
    dist = Cache.load_or_build(order, args.cache).distribution()
    if args.json:
        print(json.dumps({str(m): {str(v): c for v, c in counts.items()} for m, counts in dist.items()}))
    else:
        values = range(-order, order + 1)
        print("value " + " ".join(f"{v:>+7d}" for v in values))
        for m, counts in dist.items():
            print(f"n={m:<3} " + " ".join(f"{counts.get(v, 0) or '':>7}" for v in values))
    if args.plot:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=(9, 5))
        for m, counts in dist.items():
            total = sum(counts.values())
            xs = sorted(counts)
            ax.plot(xs, [counts[v] / total for v in xs], marker="o", label=f"order {m}")
        ax.set_xlabel("optimal value (leader's tricks minus follower's)")
        ax.set_ylabel("share of the instances of that order")
        ax.set_title("simple trick-taking game: optimal values of all instances, by order")
        ax.legend(ncol=2, fontsize=8)
        ax.grid(alpha=0.3)
        fig.tight_layout()
        fig.savefig(args.plot, dpi=100)
        plt.close(fig)
        print(f"chart: {args.plot}")
    return 0
