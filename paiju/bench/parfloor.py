"""`paiju bench parfloor`: how close to par a bidder can come when it sees its partner's hand.

The arena's |IMPs against par| compares each table's contract, scored at double dummy, with
the deal's par: the contract both sides would reach if each saw all 52 cards. No bidder sees
the opponents' cards, so part of that figure is out of any robot's reach. This bench measures
that part on the arena's deals. For each board, the side that owns par (par's sign) is
given both its hands, 26 cards; it deals the other 26 cards ``--samples`` times at random
between the two opponents (the opponents are silent: they pass) and bids the contract
(level, strain and which of its two hands declares) with the best mean score over those
layouts, undoubled. That contract is scored at its double-dummy result on the real deal and
compared with par in IMPs, like the arena's "contract at double dummy" figure.

What the opponents would do is left out: where par is a sacrifice (the side that does not
own the deal plays a doubled contract that goes down), the silent opponents do not take it,
and the board counts against the floor. The loss is reported by the arena's causes
(:func:`paiju.bots.bridge.arena.par_cause`: ``sacrifice missed`` is that one), so that each can be
set beside the robot's.

    paiju bench parfloor --boards 150 --seed 500   # 2.27 IMPs a board (docs/robots.md)
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
    parser.add_argument("--boards", type=positive_int, default=100, help="the arena's boards (default 100)")
    parser.add_argument("--seed", type=int, default=500, help="the deals' seed, as the arena's (default 500)")
    parser.add_argument(
        "--samples",
        type=positive_int,
        default=20,
        help="layouts of the opponents' 26 cards a board (default 20; DDS solves each in all strains)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def best_contract(
    tricks: list[list[list[int]]], seats: tuple[int, int], vulnerable: bool
) -> tuple[int, int, int, float]:
    """The contract (level, strain, declarer) with the best mean score over the layouts, and that mean.

    ``tricks[k][strain][seat]`` are the double-dummy tricks of layout ``k`` (strains C D H S NT).

    >>> layouts = [[[7] * 4, [7] * 4, [10] * 4, [7] * 4, [9] * 4], [[7] * 4, [7] * 4, [9] * 4, [7] * 4, [9] * 4]]
    >>> best_contract(layouts, (0, 2), False)  # 4H makes on one layout of two, 3NT on both
    (3, 4, 0, 400.0)
    """
    from paiju.games.bridge.scoring import Contract, contract_score

    best: tuple[int, int, int, float] | None = None
    for strain in range(5):
        for seat in seats:
            for level in range(1, 8):
                c = Contract(level, strain, 0)
                mean = statistics.fmean(contract_score(c, vulnerable, t[strain][seat]) for t in tricks)
                if best is None or mean > best[3]:
                    best = (level, strain, seat, mean)
    assert best is not None
    return best


def layouts(hands: tuple[bytes, ...], side: int, n: int, rng: random.Random) -> list[str]:
    """``n`` deals (PBN) that keep ``side``'s two hands and deal the other 26 cards at random."""
    from paiju.games.bridge.deal import format_deal

    others = [c for seat in (1 - side, 3 - side) for c in hands[seat]]
    out = []
    for _ in range(n):
        rng.shuffle(others)
        dealt = list(hands)
        dealt[1 - side], dealt[3 - side] = bytes(sorted(others[:13])), bytes(sorted(others[13:]))
        out.append(format_deal(dealt))
    return out


def run(args: argparse.Namespace) -> int:
    from collections import Counter

    from endplay.dds import calc_all_tables
    from endplay.types import Deal

    from paiju import games
    from paiju.bots.bridge.arena import dd_figures, dd_table, ns_score_at, par_cause, tricks_of
    from paiju.games.bridge.deal import is_vulnerable
    from paiju.games.bridge.game import Bridge
    from paiju.games.bridge.scoring import Contract, imps

    rng = random.Random(args.seed)
    floor: list[int] = []
    causes: Counter[str] = Counter()
    for d in tqdm(range(args.boards), desc="parfloor", unit="board", disable=args.json, file=sys.stderr):
        game = games.create("bridge", args.seed, None, hand=d)
        assert isinstance(game, Bridge)
        par_ns, _ = dd_table(game.dealt, game.vulnerable, game.dealer)
        if par_ns == 0:  # passed out at par: the owner passes too
            floor.append(0)
            continue
        side = 0 if par_ns > 0 else 1
        tables = calc_all_tables([Deal(p) for p in layouts(game.dealt, side, args.samples, rng)])
        tricks = [tricks_of(t) for t in tables]
        level, strain, seat, _ = best_contract(tricks, (side, side + 2), is_vulnerable(game.vulnerable, side))
        while game.to_act()[0] != seat:  # the others pass, the declarer bids the contract
            game.call(game.to_act()[0], "P")
        game.call(seat, str(Contract(level, strain, 0)))
        while game.phase == "auction":
            game.call(game.to_act()[0], "P")
        vs_par = abs(imps(ns_score_at(game, dd_figures(game)[1]) - par_ns))
        floor.append(vs_par)
        if vs_par:
            causes[par_cause(game) or "?"] += vs_par
    n = len(floor)
    out = {
        "boards": n,
        "seed": args.seed,
        "samples": args.samples,
        "par_abs_imps": round(statistics.fmean(floor), 3),
        "par_abs_imps_by_cause": {k: round(v / n, 3) for k, v in causes.most_common()},
    }
    if args.json:
        print(json.dumps(out))
    else:
        print(
            f"{n} boards of seed {args.seed}: the side that owns par, seeing its 26 cards and bidding the best "
            f"contract over {args.samples} layouts of the others' cards (they pass), is {out['par_abs_imps']:.2f} "
            "IMPs a board from par (the contract at double dummy, as the arena's)"
        )
        print("where it goes, a board: " + ", ".join(f"{k} {v:.2f}" for k, v in out["par_abs_imps_by_cause"].items()))
    return 0
