"""`paiju bench explain`: what explaining a bridge call costs the server's event loop.

The game reads each call as it is made (paiju/games/bridge/explain.py: :class:`Reading`'s ``add``,
the call's promise from the system's rows, then its words) and sends the words with the call.
This deals ``--auctions`` random boards, lets the system bid all four seats (not timed), then
times ``Reading.add`` on every call of those auctions, warm (the tables read once, as in a
running server): the mean, p50, p99 and the slowest, in milliseconds, of the thread's CPU time
(what a call costs the loop) and of the wall clock (which a loaded machine's preemption adds to).

    paiju bench explain --auctions 500
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time

from tqdm import tqdm

from paiju.cli.args import positive_int


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--auctions", type=positive_int, default=500, help="random boards bid by the system (default 500)"
    )
    parser.add_argument("--seed", type=int, default=36, help="the deals' seed (default 36)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    from paiju.games.bridge.bidding import choose
    from paiju.games.bridge.explain import Reading
    from paiju.protocol.cards import BRIDGE_CARDS, PASS

    rng = random.Random(args.seed)
    auctions: list[tuple[int, list[int]]] = []
    for k in tqdm(range(args.auctions), desc="bidding", unit="board", disable=args.json, file=sys.stderr):
        deck = sorted(BRIDGE_CARDS)
        rng.shuffle(deck)
        hands = [deck[13 * s : 13 * s + 13] for s in range(4)]
        dealer, calls = k % 4, list[int]()
        while not (len(calls) >= 4 and calls[-3:] == [PASS] * 3) and len(calls) < 60:
            calls.append(choose(hands[(dealer + len(calls)) % 4], calls, dealer)[0])
        auctions.append((dealer, calls))
    Reading.start(0).add(PASS)  # the tables read, as in a server that has explained a call
    cpu: list[int] = []  # the thread's CPU time (ns): what the call costs the loop, preemption aside
    wall: list[int] = []
    for dealer, calls in auctions:
        r = Reading.start(dealer)
        for c in calls:
            t, w = time.thread_time_ns(), time.perf_counter_ns()
            r = r.add(c)
            cpu.append(time.thread_time_ns() - t)
            wall.append(time.perf_counter_ns() - w)

    def stats(ns: list[int]) -> dict[str, float]:
        ms = sorted(x / 1e6 for x in ns)
        return {
            "mean_ms": round(statistics.fmean(ms), 4),
            "p50_ms": round(ms[len(ms) // 2], 4),
            "p99_ms": round(ms[min(len(ms) - 1, int(len(ms) * 0.99))], 4),
            "max_ms": round(ms[-1], 4),
        }

    out = {"auctions": len(auctions), "calls": len(cpu), "cpu": stats(cpu), "wall": stats(wall)}
    if args.json:
        print(json.dumps(out))
    else:
        print(f"{out['calls']} calls of {out['auctions']} auctions explained, milliseconds a call:")
        for kind in ("cpu", "wall"):
            st = out[kind]
            assert isinstance(st, dict)
            print(
                f"  {kind:4}  mean {st['mean_ms']:.3f}  p50 {st['p50_ms']:.3f}  p99 {st['p99_ms']:.3f}"
                f"  slowest {st['max_ms']:.3f}"
            )
    return 0
