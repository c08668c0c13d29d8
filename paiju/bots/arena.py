"""The arena: robots play each other headless (engine and robots directly, no network).

Matches are played *duplicate style*: every deal is played once per rotation of the
robots around the table, so each robot holds each seat of each deal once and the luck
of the deal cancels. A robot receives exactly what a room would publish on the bus
(a :class:`protocol.DecisionRequest` with the view of the seat's controller, the mask
and the options) and answers an action; an answer the game refuses (or a robot that
raises) counts as illegal, and the game's default action is played instead.

Per robot the arena reports the share of hands won (a hand's win is shared equally
between the seats with the top score), the mean score per hand, 95% confidence
intervals of both (normal approximation over deals, the independent unit of a
duplicate match), illegal actions, and the decision latency p50/p99 (wall clock, and the
deciding thread's CPU time, which a loaded machine does not lengthen).

>>> report = play("tricks", ["random", "random"], hands=2, seed=1, ruleset="standard")
>>> report.games, sorted(report.robots), report.robots["random"].illegal
(4, ['random'], 0)
"""

from __future__ import annotations

import itertools
import math
import statistics
import time
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from paiju import games
from paiju.bots import registry
from paiju.bots.base import Robot
from paiju.games import GameAction, GameError, decision_request
from paiju.protocol import DecisionRequest

Z95 = 1.959963984540054


@dataclass
class HandRecord:
    """One hand as played: which robot sat where, the scores and the revealed hands."""

    deal: int
    rotation: int
    dealer: int
    robots: list[str]  # by seat
    scores: list[int]
    hands: list[str]  # the dealt hands, hex of the card bytes, by seat
    illegal: list[int]  # by seat
    detail: dict[str, Any] = field(default_factory=dict)  # the outcome's detail, bytes as hex


@dataclass
class RobotReport:
    name: str
    hands: int = 0
    win_share: float = 0.0
    win_share_ci: tuple[float, float] | None = None
    mean_score: float = 0.0
    mean_score_ci: tuple[float, float] | None = None
    illegal: int = 0
    decisions: int = 0
    p50_ms: float = 0.0
    p99_ms: float = 0.0
    cpu_p50_ms: float = 0.0  # the deciding thread's CPU time: what the robot costs, whatever the machine's load
    cpu_p99_ms: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "hands": self.hands,
            "win_share": self.win_share,
            "win_share_ci": list(self.win_share_ci) if self.win_share_ci else None,
            "mean_score": self.mean_score,
            "mean_score_ci": list(self.mean_score_ci) if self.mean_score_ci else None,
            "illegal": self.illegal,
            "decisions": self.decisions,
            "p50_ms": self.p50_ms,
            "p99_ms": self.p99_ms,
            "cpu_p50_ms": self.cpu_p50_ms,
            "cpu_p99_ms": self.cpu_p99_ms,
        }


@dataclass
class ArenaReport:
    game: str
    ruleset: str
    seats: list[str]
    deals: int
    seed: int
    games: int = 0
    robots: dict[str, RobotReport] = field(default_factory=dict)
    records: list[HandRecord] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "ruleset": self.ruleset,
            "seats": self.seats,
            "deals": self.deals,
            "seed": self.seed,
            "games": self.games,
            "robots": {name: r.as_dict() for name, r in self.robots.items()},
        }


def rotations(robots: Sequence[str]) -> list[list[str]]:
    """The seatings of a duplicate match: seat ``s`` of rotation ``r`` holds ``robots[(s + r) % n]``.

    >>> rotations(["a", "b", "c"])
    [['a', 'b', 'c'], ['b', 'c', 'a'], ['c', 'a', 'b']]
    """
    n = len(robots)
    return [[robots[(s + r) % n] for s in range(n)] for r in range(n)]


def play_hand(
    game_name: str,
    ruleset: str | None,
    seed: int,
    deal: int,
    robots: Sequence[Robot],
    room: str,
    latencies: Callable[[int, float], None] | None = None,
    max_actions: int = 100_000,
    cpu_latencies: Callable[[int, float], None] | None = None,
) -> tuple[games.Game[Any], list[int]]:
    """Play deal number ``deal`` with ``robots[s]`` deciding for seat ``s``; return the game and illegal counts."""
    game = games.create(game_name, seed, ruleset, hand=deal)
    illegal = play_out(game, robots, room, itertools.count(1), latencies, max_actions, cpu_latencies)
    return game, illegal


def play_out(
    game: games.Game[Any],
    robots: Sequence[Robot],
    room: str,
    prompt_ids: Iterator[int],
    latencies: Callable[[int, float], None] | None = None,
    max_actions: int = 100_000,
    cpu_latencies: Callable[[int, float], None] | None = None,
    decided: Callable[[DecisionRequest, GameAction], None] | None = None,
) -> list[int]:
    """Play ``game`` on from where it stands to its end (``robots[s]`` deciding for seat ``s``);
    return the illegal answers by seat. ``decided`` sees each request and the robot's answer
    before it is applied. A copy of a game in progress plays on unchanged from the
    original: how :mod:`paiju.bots.mahjong.deviations` values the actions not taken."""
    illegal = [0] * game.num_seats
    for _ in range(max_actions):
        seats = game.to_act()
        if not seats:
            return illegal
        seat = seats[0]
        controller = game.controller(seat)
        legal = game.legal(seat)
        request = decision_request(
            game, seat, room=room, prompt_id=next(prompt_ids), deadline_ms=0, robot=robots[controller].name, legal=legal
        )
        start, cpu = time.perf_counter(), time.thread_time()
        try:
            action: GameAction | None = robots[controller].decide(request)
        except Exception:  # a crashing robot is an illegal answer, not the end of the match
            action = None
        if latencies is not None:
            latencies(controller, (time.perf_counter() - start) * 1000)
        if cpu_latencies is not None:
            cpu_latencies(controller, (time.thread_time() - cpu) * 1000)
        if decided is not None and action is not None:
            decided(request, action)
        try:
            if action is None:
                raise GameError(0, "no action")
            game.apply(seat, action)
        except GameError:
            illegal[controller] += 1
            game.apply(seat, game.default_action(seat))
    raise RuntimeError(f"{game!r} did not end within {max_actions} actions")


def play(
    game_name: str,
    seats: Sequence[str],
    hands: int,
    seed: int = 0,
    ruleset: str | None = None,
    progress: bool = False,
) -> ArenaReport:
    """Play ``hands`` deals, each once per rotation of ``seats`` (robot names), and report per robot."""
    cls = games.get(game_name)
    probe = cls(seed, ruleset)
    n = probe.num_seats
    if len(seats) != n:
        raise ValueError(f"{game_name} has {n} seats; --seats names {len(seats)} robots")
    for name in seats:
        registry.get(game_name, name)  # KeyError naming the known robots
    rules_name = probe.rules.name
    seatings = rotations(seats)
    report = ArenaReport(game_name, rules_name, list(seats), hands, seed)
    lat: dict[str, list[float]] = defaultdict(list)
    cpu_lat: dict[str, list[float]] = defaultdict(list)
    illegal: dict[str, int] = defaultdict(int)
    # per robot, per deal: the scores and win credits of its seats over the rotations
    per_deal_score: dict[str, list[list[float]]] = {s: [[] for _ in range(hands)] for s in seats}
    per_deal_win: dict[str, list[list[float]]] = {s: [[] for _ in range(hands)] for s in seats}
    bar = None
    if progress:
        from tqdm import tqdm  # type: ignore[import-untyped]

        bar = tqdm(total=hands * len(seatings), unit="hand", desc=f"{game_name} arena", leave=False)
    for deal in range(hands):
        for r, seating in enumerate(seatings):
            robots = [registry.get(game_name, name) for name in seating]
            game, bad = play_hand(
                game_name,
                ruleset,
                seed,
                deal,
                robots,
                f"arena-{seed}-{deal}-{r}",
                lambda seat, ms, seating=seating: lat[seating[seat]].append(ms),  # type: ignore[misc]
                cpu_latencies=lambda seat, ms, seating=seating: cpu_lat[seating[seat]].append(ms),  # type: ignore[misc]
            )
            out = game.outcome()
            scores = list(out.scores)
            top = max(scores)
            winners = [s for s in range(n) if scores[s] == top]
            for s, name in enumerate(seating):
                per_deal_score[name][deal].append(scores[s])
                per_deal_win[name][deal].append(1 / len(winners) if s in winners else 0.0)
                illegal[name] += bad[s]
            report.records.append(
                HandRecord(
                    deal, r, game.dealer, list(seating), scores, [h.hex() for h in out.hands], bad, _plain(out.detail)
                )
            )
            report.games += 1
            if bar is not None:
                bar.update()
    if bar is not None:
        bar.close()
    for name in dict.fromkeys(seats):
        scores_flat = [x for d in per_deal_score[name] for x in d]
        wins_flat = [x for d in per_deal_win[name] for x in d]
        times = sorted(lat[name])
        report.robots[name] = RobotReport(
            name,
            hands=len(scores_flat),
            win_share=statistics.fmean(wins_flat),
            win_share_ci=_ci([statistics.fmean(d) for d in per_deal_win[name]], 0.0, 1.0),
            mean_score=statistics.fmean(scores_flat),
            mean_score_ci=_ci([statistics.fmean(d) for d in per_deal_score[name]]),
            illegal=illegal[name],
            decisions=len(times),
            p50_ms=_percentile(times, 50),
            p99_ms=_percentile(times, 99),
            cpu_p50_ms=_percentile(sorted(cpu_lat[name]), 50),
            cpu_p99_ms=_percentile(sorted(cpu_lat[name]), 99),
        )
    return report


def _plain(value: Any) -> Any:
    """``value`` with bytes as hex and tuples as lists, as JSON writes them."""
    if isinstance(value, bytes):
        return value.hex()
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def _ci(samples: list[float], lo: float = -math.inf, hi: float = math.inf) -> tuple[float, float] | None:
    """95% confidence interval of the mean (normal approximation, clipped to [lo, hi]); None below 2 samples."""
    if len(samples) < 2:
        return None
    mean = statistics.fmean(samples)
    half = Z95 * statistics.stdev(samples) / math.sqrt(len(samples))
    return (max(lo, mean - half), min(hi, mean + half))


def _percentile(sorted_values: list[float], p: float) -> float:
    """Nearest-rank percentile of sorted values (0.0 when there are none).

    >>> _percentile([1.0, 2.0, 3.0, 4.0], 50), _percentile([1.0, 2.0, 3.0, 4.0], 99)
    (2.0, 4.0)
    """
    if not sorted_values:
        return 0.0
    k = max(0, math.ceil(p / 100 * len(sorted_values)) - 1)
    return sorted_values[k]


def plot(report: ArenaReport, path: str) -> None:
    """A PNG of the report: win share and mean score with their 95% intervals, latency, illegal actions."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = list(report.robots)
    rs = [report.robots[n] for n in names]
    fig, axes = plt.subplots(2, 2, figsize=(10, 7))

    def bars(ax: Any, values: list[float], cis: list[tuple[float, float] | None], title: str) -> None:
        err = [
            [v - (c[0] if c else v) for v, c in zip(values, cis, strict=True)],
            [(c[1] if c else v) - v for v, c in zip(values, cis, strict=True)],
        ]
        ax.bar(names, values, yerr=err, capsize=6, color="#4c72b0")
        ax.set_title(title)
        ax.axhline(0, color="black", linewidth=0.6)

    bars(axes[0][0], [r.win_share for r in rs], [r.win_share_ci for r in rs], "share of hands won (95% CI)")
    bars(axes[0][1], [r.mean_score for r in rs], [r.mean_score_ci for r in rs], "mean score per hand (95% CI)")
    x = range(len(names))
    axes[1][0].bar([i - 0.2 for i in x], [r.p50_ms for r in rs], width=0.4, label="p50")
    axes[1][0].bar([i + 0.2 for i in x], [r.p99_ms for r in rs], width=0.4, label="p99")
    axes[1][0].set_xticks(list(x), names)
    axes[1][0].set_title("decision latency (ms)")
    axes[1][0].legend()
    axes[1][1].bar(names, [r.illegal for r in rs], color="#c44e52")
    axes[1][1].set_ylim(0, max([1, *(r.illegal for r in rs)]))
    axes[1][1].set_title("illegal actions (must be 0)")
    fig.suptitle(
        f"paiju arena: {report.game}/{report.ruleset}, {report.deals} deals x {len(report.seats)} rotations, "
        f"seed {report.seed}"
    )
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
