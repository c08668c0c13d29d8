"""`paiju bench judge`: the bridge bidding's simulation against the rows alone, on the same deals.

Every board of the arena's seed is bid twice by ``hybrid`` in all four seats: once with the
judgement by simulation (:mod:`paiju.bots.bridge.judge`, ``--samples`` deals a decision, the
``--scorer``), once by the rows alone. Where the two auctions end in different contracts, both
are scored at their double-dummy result (DDS through the arena's ``dd_table``) and compared
with the deal's par; the figure is the mean, over all the boards, of |IMPs against par| by the
rows minus by the judgement (positive: simulation bids closer to par), with its 95 % interval.
Only the boards whose contracts differ cost a double-dummy table, so it runs several times
faster than two arena runs, and the pairing removes the deals' own noise.

    paiju bench judge --boards 80 --seed 12   # docs/robots.md has the figures
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys

from tqdm import tqdm

from paiju.cli.args import positive_int


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--boards", type=positive_int, default=80, help="the arena's boards (default 80)")
    parser.add_argument("--seed", type=int, default=12, help="the deals' seed, as the arena's (default 12)")
    parser.add_argument("--samples", type=positive_int, default=16, help="deals a judged decision (default 16)")
    parser.add_argument(
        "--scorer",
        choices=("estimate", "dd"),
        default="estimate",
        help="how a contract is scored: the trick estimate (default) or DDS (about 50 ms of CPU a strain a deal)",
    )
    parser.add_argument(
        "--budget-ms", type=float, default=None, help="CPU a decision may spend (default: the robot's, 300)"
    )
    parser.add_argument(
        "--fit",
        type=positive_int,
        default=None,
        metavar="DEALS",
        help="instead: solve DEALS random deals double dummy and fit the trick estimate's weights to them",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def fit_estimate(deals: int, seed: int) -> None:
    """Solve ``deals`` random deals double dummy (every strain and declarer), fit
    :mod:`paiju.bots.bridge.tricks`' two models to them and print their weights."""
    from endplay.dds import calc_all_tables
    from endplay.types import Deal

    from paiju.bots.bridge.arena import tricks_of
    from paiju.bots.bridge.tricks import NT, features, fit
    from paiju.games.bridge.deal import format_deal

    rng = random.Random(seed)
    deck = [s << 4 | r for s in range(4) for r in range(2, 15)]
    rows: dict[bool, list[tuple[list[float], float]]] = {True: [], False: []}
    for _ in tqdm(range(0, deals, 10), desc="fit", unit="10 deals", file=sys.stderr):
        batch = []
        for _ in range(10):
            rng.shuffle(deck)
            batch.append([sorted(deck[13 * k : 13 * k + 13]) for k in range(4)])
        tables = calc_all_tables([Deal(format_deal([bytes(h) for h in hands])) for hands in batch])
        for hands, table in zip(batch, tables, strict=True):
            tricks = tricks_of(table)
            for strain in range(5):
                for seat in range(4):
                    rows[strain == NT].append((features(hands, strain, seat), float(tricks[strain][seat])))
    for name, nt in (("SUIT", False), ("NOTRUMP", True)):
        w, rms = fit(rows[nt])
        mae = sum(abs(sum(a * b for a, b in zip(w, x, strict=True)) - y) for x, y in rows[nt]) / len(rows[nt])
        print(f"{name} = ({tuple(round(v, 4) for v in w)}, {rms:.2f})  # mean absolute error {mae:.2f}")


def run(args: argparse.Namespace) -> int:
    from paiju import games
    from paiju.bots.bridge.arena import dd_table
    from paiju.bots.bridge.judge import BUDGET_MS, final_contract, judge
    from paiju.bots.bridge.judge import auction_over as over
    from paiju.games.bridge.bidding import choose
    from paiju.games.bridge.deal import is_vulnerable
    from paiju.games.bridge.game import Bridge
    from paiju.games.bridge.scoring import contract_score, imps

    if args.fit:
        fit_estimate(args.fit, args.seed)
        return 0
    budget = args.budget_ms if args.budget_ms is not None else BUDGET_MS

    def bid(game: Bridge, judged: bool, board: int) -> tuple[list[int], list[float]]:
        calls: list[int] = []
        cpu: list[float] = []
        while not over(calls):
            seat = (game.dealer + len(calls)) % 4
            hand = list(game.dealt[seat])
            if not judged:
                calls.append(choose(hand, calls, game.dealer)[0])
                continue
            rng = random.Random(f"{args.seed}:{board}:{seat}:{len(calls)}")
            j = judge(
                hand,
                calls,
                game.dealer,
                game.vulnerable,
                rng,
                samples=args.samples,
                budget_ms=budget,
                scorer=args.scorer,
            )
            if j.samples:
                cpu.append(j.cpu_ms)
            calls.append(j.call)
        return calls, cpu

    def vs_par(game: Bridge, calls: list[int]) -> int:
        par_ns, tricks = dd_table(game.dealt, game.vulnerable, game.dealer)
        reached = final_contract(calls, game.dealer)
        score = 0
        if reached is not None:
            c, declarer = reached
            score = contract_score(c, is_vulnerable(game.vulnerable, declarer), tricks[c.strain][declarer])
            score = score if declarer % 2 == 0 else -score
        return abs(imps(score - par_ns))

    gains: list[int] = []
    cpu: list[float] = []
    changed = 0
    for d in tqdm(range(args.boards), desc="judge", unit="board", disable=args.json, file=sys.stderr):
        game = games.create("bridge", args.seed, None, hand=d)
        assert isinstance(game, Bridge)
        judged, spent = bid(game, True, d)
        rows, _ = bid(game, False, d)
        cpu += spent
        if final_contract(judged, game.dealer) == final_contract(rows, game.dealer):
            gains.append(0)
            continue
        changed += 1
        gains.append(vs_par(game, rows) - vs_par(game, judged))
    mean = statistics.fmean(gains)
    half = 1.96 * statistics.stdev(gains) / len(gains) ** 0.5 if len(gains) > 1 else 0.0
    cpu.sort()
    out = {
        "boards": len(gains),
        "seed": args.seed,
        "samples": args.samples,
        "scorer": args.scorer,
        "changed": changed,
        "gain": round(mean, 3),
        "ci": [round(mean - half, 3), round(mean + half, 3)],
        "decisions": len(cpu),
        "cpu_p50_ms": round(cpu[len(cpu) // 2], 1) if cpu else 0.0,
        "cpu_p99_ms": round(cpu[min(len(cpu) - 1, int(len(cpu) * 0.99))], 1) if cpu else 0.0,
    }
    if args.json:
        print(json.dumps(out))
    else:
        print(
            f"{out['boards']} boards of seed {args.seed}, {args.samples} deals a decision scored by {args.scorer}: "
            f"contracts differ on {changed}; |IMPs against par| the rows minus the judgement "
            f"{mean:+.2f} a board [{mean - half:+.2f}, {mean + half:+.2f}]; {len(cpu)} decisions simulated, "
            f"CPU p50/p99 {out['cpu_p50_ms']}/{out['cpu_p99_ms']} ms"
        )
    return 0
