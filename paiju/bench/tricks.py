"""`paiju bench tricks`: the seed-002 solver against plain alpha-beta, and the largest order it solves in 1 s.

For each order from 8 to ``--ab-max`` the same random deals go to both searches (the
solver's transposition table is emptied before each deal; its cache of small instances
stays loaded, as in use), and the values must agree. Then the solver alone runs on
``--deals-solver`` deals of every order up to 26 (a whole 52-card pack); the largest
order whose *slowest* deal finishes within one second is reported.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from paiju.cli.args import positive_int


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--deals", type=positive_int, default=3, help="deals per order against alpha-beta (default 3)")
    parser.add_argument(
        "--ab-max", type=positive_int, default=14, help="highest order run with alpha-beta (default 14)"
    )
    parser.add_argument(
        "--deals-solver", type=positive_int, default=20, help="deals per order, solver alone (default 20)"
    )
    parser.add_argument("--seed", type=int, default=2019)
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def _deal(rng: random.Random, n: int) -> tuple[list[int], list[int]]:
    cards = list(range(1, 2 * n + 1))
    rng.shuffle(cards)
    return sorted(cards[:n]), sorted(cards[n:])


def run(args: argparse.Namespace) -> int:
    from paiju.bots.tricks.graph import key_of
    from paiju.bots.tricks.minimax import alphabeta
    from paiju.bots.tricks.solver import DEFAULT_ORDER, Cache, Solver

    out: dict[str, object] = {}
    t = time.perf_counter()
    cache = Cache.build(DEFAULT_ORDER)
    out["cache"] = {"order": DEFAULT_ORDER, "build_s": round(time.perf_counter() - t, 3)}
    if not args.json:
        print(f"cache of every instance up to order {DEFAULT_ORDER}: built in {time.perf_counter() - t:.2f} s")
    solver = Solver(cache)

    def timed(leader: list[int], follower: list[int]) -> tuple[int, float]:
        solver.clear()
        start = time.perf_counter()
        v = solver.value(key_of(leader, follower))
        return v, time.perf_counter() - start

    rows = []
    if not args.json:
        print(f"\n{'order':>5} {'deals':>5} {'solver ms':>10} {'alpha-beta s':>13} {'speed-up':>9}  values agree")
    for n in range(8, args.ab_max + 1):
        rng = random.Random(f"{args.seed}:{n}")
        s_times, ab_times, agree = [], [], True
        for _ in range(args.deals):
            a, b = _deal(rng, n)
            v, dt = timed(a, b)
            s_times.append(dt)
            start = time.perf_counter()
            w = alphabeta(a, b)
            ab_times.append(time.perf_counter() - start)
            agree &= v == w
        s, ab = statistics.mean(s_times), statistics.mean(ab_times)
        rows.append(
            {
                "order": n,
                "deals": args.deals,
                "solver_ms": s * 1e3,
                "alphabeta_s": ab,
                "speedup": ab / s,
                "agree": agree,
            }
        )
        if not args.json:
            print(
                f"{n:>5} {args.deals:>5} {s * 1e3:>10.3f} {ab:>13.3f} {ab / s:>8.0f}x  {'yes' if agree else 'NO'}",
                flush=True,
            )
    out["against_alphabeta"] = rows

    if not args.json:
        print(f"\n{'order':>5} {'deals':>5} {'mean ms':>9} {'max ms':>9}")
    alone, largest = [], 0
    for n in range(8, 27):
        rng = random.Random(f"{args.seed}:alone:{n}")
        times = [timed(*_deal(rng, n))[1] for _ in range(args.deals_solver)]
        alone.append(
            {
                "order": n,
                "deals": args.deals_solver,
                "mean_ms": statistics.mean(times) * 1e3,
                "max_ms": max(times) * 1e3,
            }
        )
        if max(times) < 1.0:
            largest = n
        if not args.json:
            print(
                f"{n:>5} {args.deals_solver:>5} {statistics.mean(times) * 1e3:>9.2f} {max(times) * 1e3:>9.2f}",
                flush=True,
            )
    out["solver_alone"] = alone
    out["largest_order_within_1s"] = largest
    if args.json:
        print(json.dumps(out))
    else:
        print(f"\nlargest order whose slowest deal is solved within 1 s: {largest}")
    return 0 if all(r["agree"] for r in rows) else 1
