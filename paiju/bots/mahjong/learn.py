"""Learning a correction to ``hudist``'s discard from played-out alternatives.

The data: ``bdi-hudist`` plays the deals of the training seeds against three ``ukeire``,
every deal once per rotation, as the arena does. At each of its discards where E leaves
more than one candidate (the best ``--top`` by E at the least distance, not while it
folds: :meth:`~.strategies.HuDist.candidates`), the game is copied for every other
candidate and the copy played to the end by the same robots (:mod:`.deviations`' way: the
wall is the same, so the difference is the consequence of that one choice). The label of a
candidate is the robot's final score with it less its score with E's choice; the features
are those of :mod:`.learned`, read from the robot's own view.

The fit: ridge regression, without intercept, of the labels on the feature differences
``f(c) - f(E's choice)``; the ridge weight and the margin are chosen by the points per hand
that the model's picks gain on deals held out (folds by deal), the same one-step
estimate as :mod:`.deviations` (``--margin`` sets the margin instead), and the held-out
predictions are set against what the alternatives scored. The model goes to ``--out``
(JSON) for ``HuDist(learned=PATH)``. Seeds 1, 2 and 3 are refused: 1 is the acceptance
run's, 2 and 3 the evaluation's. ``paiju/bots/mahjong/learned-classic.json`` is (each seed's
data is kept under ``--data`` and not played again)::

    python -m paiju.bots.mahjong.learn --seeds 10-29 --deals 100 --ruleset classic --margin 0.05 \
        --out paiju/bots/mahjong/learned-classic.json
"""

from __future__ import annotations

import argparse
import itertools
import math
import statistics
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from paiju import games
from paiju.bots import registry
from paiju.bots.arena import Z95, _ci, play_out, rotations
from paiju.bots.mahjong.defence import Danger, declared_against
from paiju.bots.mahjong.deviations import _value
from paiju.bots.mahjong.learned import FEATURES, Model, features
from paiju.bots.mahjong.perceptor import perceive
from paiju.bots.mahjong.robots import rules_of
from paiju.bots.mahjong.strategies import HuDist, remove
from paiju.games import GameAction
from paiju.protocol import DecisionRequest
from paiju.protocol.mahjong import ActCode

RESERVED = (1, 2, 3)  # the acceptance seed and the evaluation seeds: never trained on
Array = npt.NDArray[np.float64]


@dataclass
class Decision:
    """One sampled discard: its candidates' features (E's choice first) and scores."""

    seed: int
    deal: int
    rotation: int
    distance: int
    declared: bool
    rows: list[list[float]]
    scores: list[int]


def hand(
    seating: Sequence[str], me: int, seed: int, ruleset: str, deal: int, rotation: int, top: int
) -> list[Decision]:
    """The sampled discards of seat ``me`` in one hand, each candidate valued by playing on."""
    robots = [registry.get("mahjong", name) for name in seating]
    strategy = HuDist()
    rules = strategy.planning_rules(rules_of(ruleset))
    game = games.create("mahjong", seed, ruleset, hand=deal)
    room = f"learn-{seed}-{deal}-{rotation}"
    found: list[Decision] = []

    def decided(request: DecisionRequest, action: GameAction) -> None:
        if game.controller(request.seat) != me or action.code not in (ActCode.DISCARD, ActCode.READY):
            return
        memory = perceive(request)
        if memory.offer or memory.ready[memory.seat]:
            return
        danger = Danger.of(memory, strategy.read_passed)
        opts = strategy.options(memory, rules, memory.hand, memory.own_melds, danger)
        cands = strategy.candidates(memory, opts, top, danger)
        if not cands or action.cards[0] != cands[0].tile:
            return
        legal = games.ActionSet(request.mask, tuple(request.options))
        scores = [0]  # E's choice: the game's own end, filled in below
        kept = [cands[0]]
        for c in cands[1:]:
            ready = strategy.ready_wanted(memory, rules, remove(memory.hand, c.tile))
            alt = GameAction(int(ActCode.READY if ready else ActCode.DISCARD), bytes([c.tile]))
            if not legal.allows(alt):
                alt = GameAction(int(ActCode.DISCARD), bytes([c.tile]))
                if not legal.allows(alt):
                    continue
            scores.append(_value(game, request.seat, alt, robots, room))
            kept.append(c)
        if len(kept) > 1:
            found.append(
                Decision(
                    seed,
                    deal,
                    rotation,
                    cands[0].distance,
                    declared_against(memory),
                    features(memory, kept),
                    scores,
                )
            )

    play_out(game, robots, room, itertools.count(1), decided=decided)
    final = int(game.outcome().scores[me])  # the robots decide alike in every copy: E's choice's score
    for d in found:
        d.scores[0] = final
    return found


def collect(
    seed: int, deals: int, ruleset: str, top: int = 4, done: Callable[[int], None] | None = None
) -> list[Decision]:
    """Every sampled discard of ``bdi-hudist`` against three ``ukeire`` in ``deals`` deals of ``seed``."""
    if seed in RESERVED:
        raise ValueError(f"seed {seed} is reserved (1: acceptance; 2, 3: evaluation)")
    out: list[Decision] = []
    for deal in range(deals):
        for r, seating in enumerate(rotations(["bdi-hudist", "ukeire", "ukeire", "ukeire"])):
            out += hand(seating, seating.index("bdi-hudist"), seed, ruleset, deal, r, top)
        if done is not None:
            done(deal)
    return out


def save(path: Path, decisions: Sequence[Decision], deals: int) -> None:
    """The decisions of one seed as a ``.npz``: one row per candidate."""
    rows, scores, group, rank, meta = [], [], [], [], []
    for g, d in enumerate(decisions):
        for i, (row, q) in enumerate(zip(d.rows, d.scores, strict=True)):
            rows.append(row)
            scores.append(q)
            group.append(g)
            rank.append(i)
        meta.append((d.seed, d.deal, d.rotation, d.distance, int(d.declared)))
    np.savez_compressed(
        path,
        x=np.array(rows, dtype=np.float64).reshape(-1, len(FEATURES)),
        q=np.array(scores, dtype=np.int64),
        group=np.array(group, dtype=np.int64),
        rank=np.array(rank, dtype=np.int64),
        meta=np.array(meta, dtype=np.int64).reshape(-1, 5),
        deals=np.array(deals),
        names=np.array(FEATURES),
    )


@dataclass
class Data:
    """Candidates other than E's choice, as differences from it, by decision."""

    x: Array  # f(c) - f(E's choice), one row per candidate
    y: Array  # Q(c) - Q(E's choice)
    group: npt.NDArray[np.int64]  # the decision of each row
    deal: npt.NDArray[np.int64]  # per decision: a deal number unique over the seeds
    seed: npt.NDArray[np.int64]  # per decision
    deals: dict[int, int]  # deals per seed


def load(paths: Sequence[Path]) -> Data:
    xs, ys, groups, deal_ids, seeds = [], [], [], [], []
    deals: dict[int, int] = {}
    offset = 0
    deal_offset = 0
    for p in paths:
        z = np.load(p)
        if tuple(str(n) for n in z["names"]) != FEATURES:
            raise ValueError(f"{p}: made with other features; make it again")
        x, q, group, rank, meta = z["x"], z["q"], z["group"], z["rank"], z["meta"]
        n_deals = int(z["deals"])
        if len(meta):
            deals[int(meta[0, 0])] = n_deals
        first = np.zeros(len(meta), dtype=np.int64)
        first[group[rank == 0]] = np.nonzero(rank == 0)[0]
        other = rank > 0
        xs.append(x[other] - x[first[group[other]]])
        ys.append((q[other] - q[first[group[other]]]).astype(np.float64))
        groups.append(group[other] + offset)
        deal_ids.append(meta[:, 1] + deal_offset)
        seeds.append(meta[:, 0])
        offset += len(meta)
        deal_offset += n_deals
    return Data(
        np.concatenate(xs),
        np.concatenate(ys),
        np.concatenate(groups),
        np.concatenate(deal_ids),
        np.concatenate(seeds),
        deals,
    )


def ridge(x: Array, y: Array, lam: float) -> Array:
    """Ridge weights without intercept, ``lam`` on the features scaled to unit root mean square."""
    scale = np.sqrt((x**2).mean(axis=0)) + 1e-9
    xs = x / scale
    w = np.linalg.solve(xs.T @ xs + lam * len(y) * np.eye(x.shape[1]), xs.T @ y)
    return np.asarray(w / scale, dtype=np.float64)


def picks_gain(data: Data, w: Array, margin: float, rows: npt.NDArray[np.bool_]) -> tuple[float, float, float, float]:
    """What the model's picks gain on the decisions of ``rows``: points a hand (4 a deal) with
    its 95% interval over deals, and the share of those decisions where it leaves E's choice."""
    pred = data.x[rows] @ w
    y = data.y[rows]
    g = data.group[rows]
    best: dict[int, tuple[float, float]] = {}
    for p, yy, gg in zip(pred.tolist(), y.tolist(), g.tolist(), strict=True):
        if p > margin and (gg not in best or p > best[gg][0]):
            best[gg] = (p, yy)
    decisions = set(g.tolist())
    per_deal: dict[int, float] = defaultdict(float)
    for gg, (_, yy) in best.items():
        per_deal[int(data.deal[gg])] += yy
    seeds = {int(data.seed[gg]) for gg in decisions}
    n_deals = sum(data.deals[s] for s in seeds)
    # every deal of those seeds counts, the ones without a switch as 0 (4 hands a deal)
    values = [v / 4 for v in per_deal.values()] + [0.0] * (n_deals - len(per_deal))
    mean = statistics.fmean(values) if values else 0.0
    lo, hi = _ci(values) or (mean, mean)
    return mean, lo, hi, len(best) / max(1, len(decisions))


def fit(
    data: Data, lams: Sequence[float], margins: Sequence[float], folds: int = 4, report: Callable[[str], None] = print
) -> tuple[float, float, Array]:
    """The ridge weight and margin of best held-out gain (``folds`` folds by deal: a deal's
    decisions are never split), and the weights on all the data."""
    row_fold = data.deal[data.group] % folds
    results = []
    for lam in lams:
        pred = np.zeros(len(data.y))
        for f in range(folds):
            train = row_fold != f
            pred[~train] = data.x[~train] @ ridge(data.x[train], data.y[train], lam)
        for margin in margins:
            gain = _gain_of_predictions(data, pred, margin)  # every fold's held-out predictions together
            results.append((gain[0], lam, margin))
            report(
                f"ridge {lam:g} margin {margin:g}: held-out gain {gain[0]:+.4f} [{gain[1]:+.4f}, {gain[2]:+.4f}] "
                f"points a hand, leaves E's choice at {gain[3]:.3f} of the decisions"
            )
    _, lam, margin = max(results)
    pred = np.zeros(len(data.y))
    for f in range(folds):
        train = row_fold != f
        pred[~train] = data.x[~train] @ ridge(data.x[train], data.y[train], lam)
    report(f"ridge {lam:g}, held out, by predicted Q(alternative) - Q(E's choice):")
    for line in calibration(pred, data.y):
        report(line)
    return lam, margin, ridge(data.x, data.y, lam)


def calibration(pred: Array, y: Array, cuts: Sequence[float] = (0.5, 0.8, 0.9, 0.95, 0.98, 0.99)) -> list[str]:
    """Held-out predictions against what the alternatives scored, by quantile of the prediction:
    where the model says an alternative beats E's choice, does it?"""
    edges = np.quantile(pred, [0.0, *cuts, 1.0])
    lines = []
    for lo, hi in itertools.pairwise(edges.tolist()):
        rows = (pred >= lo) & (pred <= hi)
        n = int(rows.sum())
        if n < 2:
            continue
        half = Z95 * float(y[rows].std()) / math.sqrt(n)
        lines.append(
            f"  predicted [{lo:+.3f}, {hi:+.3f}]: {n:6d} alternatives, predicted {pred[rows].mean():+.3f}, "
            f"scored {y[rows].mean():+.3f} [{y[rows].mean() - half:+.3f}, {y[rows].mean() + half:+.3f}]"
        )
    return lines


def _gain_of_predictions(data: Data, pred: Array, margin: float) -> tuple[float, float, float, float]:
    """:func:`picks_gain` with the predictions given (the identity weights on a one-column x)."""
    one = Data(pred.reshape(-1, 1), data.y, data.group, data.deal, data.seed, data.deals)
    return picks_gain(one, np.ones(1), margin, np.ones(len(pred), dtype=bool))


def seeds_of(text: str) -> list[int]:
    """``10-29`` or ``10,12,14`` (or both, comma-separated) as a list of seeds."""
    out: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out += list(range(int(lo), int(hi or lo) + 1))
    return out


def main(argv: list[str] | None = None) -> None:
    assert __doc__ is not None
    ap = argparse.ArgumentParser(prog="python -m paiju.bots.mahjong.learn", description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", default="10-29", help="training seeds, e.g. 10-29 (1, 2 and 3 are refused)")
    ap.add_argument("--deals", type=int, default=100, help="deals a seed, each played once per rotation (default 100)")
    ap.add_argument("--ruleset", default="classic", help="classic (default) or championship")
    ap.add_argument("--top", type=int, default=4, help="the best discards by E that are played out (default 4)")
    ap.add_argument("--data", default="build/learn", help="where each seed's data is kept (default build/learn)")
    ap.add_argument("--again", action="store_true", help="play the seeds again even where their data is kept")
    ap.add_argument("--out", help="where to write the fitted model (JSON); without it, only the data and the report")
    ap.add_argument("--ridge", default="0.001,0.01,0.1,1", help="ridge weights to try (default 0.001,0.01,0.1,1)")
    ap.add_argument(
        "--margins", default="0,0.05,0.1,0.25,0.5", help="margins to try, points (default 0,0.05,0.1,0.25,0.5)"
    )
    ap.add_argument("--margin", type=float, help="the margin written with the model (default: the best held out)")
    args = ap.parse_args(argv)
    seeds = seeds_of(args.seeds)
    if reserved := sorted(set(seeds) & set(RESERVED)):
        ap.error(f"seeds {reserved} are reserved: 1 for the acceptance run, 2 and 3 for the evaluation")
    from tqdm import tqdm  # type: ignore[import-untyped]

    folder = Path(args.data)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    todo = []
    for s in seeds:
        p = folder / f"{args.ruleset}-seed{s}-deals{args.deals}-top{args.top}.npz"
        paths.append(p)
        if args.again or not p.exists():
            todo.append((s, p))
    with tqdm(total=len(todo) * args.deals, unit="deal", desc="playing out", leave=False) as bar:

        def done(_: int) -> None:
            bar.update()

        for s, p in todo:
            found = collect(s, args.deals, args.ruleset, args.top, done)
            save(p, found, args.deals)
    data = load(paths)
    print(
        f"{args.ruleset}, seeds {args.seeds}, {args.deals} deals x 4 rotations each: "
        f"{len(set(data.group.tolist()))} decisions, {len(data.y)} alternatives; "
        f"mean Q(alternative) - Q(E's choice) {data.y.mean():+.3f}"
    )
    lam, margin, w = fit(data, [float(v) for v in args.ridge.split(",")], [float(v) for v in args.margins.split(",")])
    if args.margin is not None:
        margin = args.margin
    print(f"kept: ridge {lam:g}, margin {margin:g}")
    for name, v in zip(FEATURES, w.tolist(), strict=True):
        print(f"  {name:<16} {v:+.4f}")
    if args.out:
        honours = bool(games.get("mahjong").ruleset(args.ruleset).honours)
        Model(tuple(w.tolist()), margin, args.top, honours=honours).save(args.out)
        print(f"model written to {args.out}")


if __name__ == "__main__":
    main()
