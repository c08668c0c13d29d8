"""The bridge arena: duplicate boards scored in IMPs, with par, double-dummy and latency figures.

Each deal is played at two tables: at the first, ``seats[0..3]`` sit North, East, South,
West; at the second, everyone moves one seat clockwise, so the pair that held North-South
cards holds East-West ones and the luck of the cards cancels. The pair of ``seats[0]``
scores ``imps(NS score at table 1 - NS score at table 2)`` on the board.

Per robot the report gives: IMPs per board with a 95% confidence interval (the pair of
``seats[0]`` and of ``seats[1]``); *par*: the IMPs between the contract each table reached,
scored at its double-dummy result, and the deal's par (both from DDS through ``endplay``),
for the side the robot sat on, averaged over its tables; *declarer play*: the tricks the
robot took as declarer minus the double-dummy tricks of the contract it reached (mean and
distribution), and the same for its defence (tricks the defence took beyond double dummy);
and decision latency per phase (bid, card), p50 and p99.
"""

from __future__ import annotations

import concurrent.futures
import functools
import statistics
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from paiju import games
from paiju.bots import registry
from paiju.bots.arena import _ci, _percentile, play_hand
from paiju.bots.base import Robot
from paiju.bots.bridge.oracle import LEVELS, Oracle
from paiju.bots.bridge.robot import HybridRobot
from paiju.bots.bridge.table import NT
from paiju.games.bridge.bidding import GAME_LEVEL
from paiju.games.bridge.deal import format_deal, is_vulnerable
from paiju.games.bridge.game import Bridge
from paiju.games.bridge.pbn import board_from_game, write_pbn
from paiju.games.bridge.scoring import contract_score, imps
from paiju.protocol import DecisionRequest
from paiju.protocol.cards import format_card

SEAT_TAGS = ("North", "East", "South", "West")


class _Timed(Robot):
    """A robot wrapped to time its decisions by phase (with ``cards``, another robot plays its cards)."""

    game = "bridge"

    def __init__(self, inner: Robot, times: dict[str, list[float]], cards: Robot | None = None) -> None:
        self.inner = inner
        self.name = inner.name  # type: ignore[misc]
        self.times = times
        self.cards = cards

    def decide(self, request: DecisionRequest):  # type: ignore[no-untyped-def]
        start, cpu = time.perf_counter(), time.process_time()
        try:
            if self.cards is not None and request.view["phase"] != "auction":
                return self.cards.decide(request)
            return self.inner.decide(request)
        finally:
            phase = "bid" if request.view["phase"] == "auction" else "card"
            judged = getattr(self.inner, "last_judgement", None)
            if phase == "bid" and judged is not None:  # a call simulation weighed (paiju.bots.bridge.judge)
                self.inner.last_judgement = None  # type: ignore[attr-defined]
                for key, value in (
                    ("judged_samples", judged.samples),
                    ("judged_cpu", judged.cpu_ms),
                    ("judged_changed", judged.changed),
                    ("judged_degraded", judged.degraded),
                ):
                    self.times.setdefault(key, []).append(float(value))
            self.times[phase].append((time.perf_counter() - start) * 1000)
            # CPU time (all of the process's threads: DDS's too) is what a busy machine does not inflate
            self.times[phase + "_cpu"].append((time.process_time() - cpu) * 1000)


@dataclass
class PlayFigures:
    """Tricks against double dummy: ``diffs`` one per board the robot declared (or defended)."""

    diffs: list[int] = field(default_factory=list)

    @property
    def mean(self) -> float:
        return statistics.fmean(self.diffs) if self.diffs else 0.0

    def distribution(self) -> dict[int, int]:
        return dict(sorted(Counter(self.diffs).items()))


@dataclass
class BridgeRobotReport:
    name: str
    boards: int = 0
    imps: list[float] = field(default_factory=list)  # per board, for the robot's pair
    par: list[int] = field(default_factory=list)  # per table: IMPs of the contract at DD against par
    par_boards: list[float] = field(default_factory=list)  # per board: the mean of its tables' par figures
    par_abs: list[int] = field(default_factory=list)  # per table its pair sat at: |IMPs of the table's score - par|
    par_abs_dd: list[int] = field(default_factory=list)  # ... of the contract scored at its double-dummy result
    # contracts double dummy makes for the side that owns the deal (par's side), and how many it bid
    reach: Counter[str] = field(default_factory=Counter)
    par_causes: Counter[str] = field(default_factory=Counter)  # |IMPs against par| (DD) summed by cause
    declarer: PlayFigures = field(default_factory=PlayFigures)
    defence: PlayFigures = field(default_factory=PlayFigures)
    declarer_loss: PlayFigures = field(default_factory=PlayFigures)  # DD tricks its own cards gave away
    defence_loss: PlayFigures = field(default_factory=PlayFigures)
    declarer_loss_by_trick: list[int] = field(default_factory=lambda: [0] * 13)
    defence_loss_by_trick: list[int] = field(default_factory=lambda: [0] * 13)
    declarer_loss_by_kind: Counter[str] = field(default_factory=Counter)
    defence_loss_by_kind: Counter[str] = field(default_factory=Counter)
    times: dict[str, list[float]] = field(
        default_factory=lambda: {"bid": [], "card": [], "bid_cpu": [], "card_cpu": []}
    )
    illegal: int = 0

    @property
    def imps_per_board(self) -> float:
        return statistics.fmean(self.imps) if self.imps else 0.0

    @property
    def imps_ci(self) -> tuple[float, float] | None:
        return _ci(self.imps)

    @property
    def par_imps(self) -> float:
        return statistics.fmean(self.par) if self.par else 0.0

    @property
    def par_abs_mean(self) -> float:
        return statistics.fmean(self.par_abs) if self.par_abs else 0.0

    @property
    def par_abs_dd_mean(self) -> float:
        return statistics.fmean(self.par_abs_dd) if self.par_abs_dd else 0.0

    def reached(self, kind: str) -> tuple[int, int]:
        """``(bid, made double dummy)`` for ``kind`` ``game``, ``slam`` or ``grand`` (see :func:`reach`)."""
        return self.reach[kind + " bid"], self.reach[kind]

    @property
    def par_ci(self) -> tuple[float, float] | None:
        """95% interval of the par figure, over boards (a board's two tables share the deal)."""
        return _ci(self.par_boards)

    def latency(self, phase: str) -> tuple[int, float, float]:
        ts = sorted(self.times[phase])
        return len(ts), _percentile(ts, 50), _percentile(ts, 99)

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "boards": len(self.imps),
            "imps_per_board": self.imps_per_board,
            "imps_ci": list(self.imps_ci) if self.imps_ci else None,
            "par_imps": self.par_imps,
            "par_tables": len(self.par),
            "par_ci": list(self.par_ci) if self.par_ci else None,
            "par_abs_imps": self.par_abs_mean,
            "par_abs_imps_dd": self.par_abs_dd_mean,
            "dd_games": self.reach["game"],
            "dd_games_bid": self.reach["game bid"],
            "dd_slams": self.reach["slam"],
            "dd_slams_bid": self.reach["slam bid"],
            "dd_grands": self.reach["grand"],
            "dd_grands_bid": self.reach["grand bid"],
            "par_abs_imps_dd_by_cause": dict(self.par_causes),
            "declarer_vs_dd": self.declarer.mean,
            "declarer_boards": len(self.declarer.diffs),
            "declarer_distribution": self.declarer.distribution(),
            "defence_vs_dd": self.defence.mean,
            "defence_boards": len(self.defence.diffs),
            "defence_distribution": self.defence.distribution(),
            "declarer_dd_loss": self.declarer_loss.mean,
            "declarer_dd_loss_distribution": self.declarer_loss.distribution(),
            "defence_dd_loss": self.defence_loss.mean,
            "defence_dd_loss_distribution": self.defence_loss.distribution(),
            "declarer_dd_loss_by_trick": self.declarer_loss_by_trick,
            "defence_dd_loss_by_trick": self.defence_loss_by_trick,
            "declarer_dd_loss_by_kind": dict(self.declarer_loss_by_kind),
            "defence_dd_loss_by_kind": dict(self.defence_loss_by_kind),
            "illegal": self.illegal,
        }
        for phase in ("bid", "card", "bid_cpu", "card_cpu"):
            n, p50, p99 = self.latency(phase)
            out[f"{phase}_decisions"], out[f"{phase}_p50_ms"], out[f"{phase}_p99_ms"] = n, p50, p99
        samples = self.times.get("judged_samples", [])
        out["judged_calls"] = sum(1 for s in samples if s)
        out["judged_samples"] = sum(samples)
        out["judged_cpu_ms"] = sum(self.times.get("judged_cpu", []))
        out["judged_changed"] = int(sum(self.times.get("judged_changed", [])))
        out["judged_degraded"] = int(sum(self.times.get("judged_degraded", [])))
        return out


@dataclass
class BridgeReport:
    seats: list[str]
    boards: int
    seed: int
    samples: int
    robots: dict[str, BridgeRobotReport] = field(default_factory=dict)
    games: list[Bridge] = field(default_factory=list)
    interrupted: bool = False
    oracle: str | None = None  # the diagnosis's peeking sampler for `hybrid` (paiju/bots/bridge/oracle.py)
    bidding_only: bool = False  # the robots bid, `basic` plays every card: the figures of the auction only

    def as_dict(self) -> dict[str, Any]:
        return {
            "game": "bridge",
            "seats": self.seats,
            "boards": self.boards,
            "seed": self.seed,
            "samples": self.samples,
            "oracle": self.oracle,
            "bidding_only": self.bidding_only,
            "interrupted": self.interrupted,
            "robots": {n: r.as_dict() for n, r in self.robots.items()},
        }


def dd_figures(game: Bridge) -> tuple[int, int | None]:
    """The deal's par score (North-South) and the double-dummy tricks of the contract reached."""
    par_ns, table = dd_table(game.dealt, game.vulnerable, game.dealer)
    if game.contract is None or game.declarer is None:
        return par_ns, None
    return par_ns, table[game.contract.strain][game.declarer]


@functools.lru_cache(maxsize=4)
def dd_table(dealt: tuple[bytes, ...], vulnerable: str, dealer: int) -> tuple[int, list[list[int]]]:
    """Par (North-South) and the double-dummy tricks by strain (C D H S NT) and declarer, once per deal."""
    from endplay.dds import calc_dd_table, par
    from endplay.types import Deal, Player, Vul

    table = calc_dd_table(Deal(format_deal(dealt)))
    vul = {"None": Vul.none, "NS": Vul.ns, "EW": Vul.ew, "All": Vul.both}[vulnerable]
    return int(par(table, vul, Player(dealer)).score), tricks_of(table)


def tricks_of(table: Any) -> list[list[int]]:
    """An endplay ``DDTable`` as paiju's ``tricks[strain][seat]`` (strains C D H S NT)."""
    from endplay.types import Denom, Player

    return [
        [int(table[Denom.nt if strain == NT else Denom(3 - strain), Player(seat)]) for seat in range(4)]
        for strain in range(5)
    ]


def reach(game: Bridge) -> tuple[int | None, set[str], set[str]]:
    """The side that owns the deal (par's sign: 0 North-South, 1 East-West, None at par 0), what
    double dummy makes for it (``game``: some strain makes game; ``slam``: twelve tricks;
    ``grand``: thirteen) and which of those levels its contract reached (a game is bid
    when the side's contract is at game level or higher, whether it makes or not)."""
    par_ns, tricks = dd_table(game.dealt, game.vulnerable, game.dealer)
    if par_ns == 0:
        return None, set(), set()
    side = 0 if par_ns > 0 else 1
    best = [max(tricks[strain][side], tricks[strain][side + 2]) for strain in range(5)]
    makes = set()
    if any(best[strain] >= 6 + GAME_LEVEL[strain] for strain in range(5)):
        makes.add("game")
    if max(best) >= 12:
        makes.add("slam")
    if max(best) >= 13:
        makes.add("grand")
    bid = set()
    c = game.contract
    if c is not None and game.declarer is not None and game.declarer % 2 == side:
        if c.level >= GAME_LEVEL[c.strain]:
            bid.add("game")
        if c.level >= 6:
            bid.add("slam")
        if c.level == 7:
            bid.add("grand")
    return side, makes, bid & makes


# what a table's contract did wrong against par, seen from the side that owns the deal (par_cause)
PAR_CAUSES = (
    "missed game",
    "missed slam",
    "missed grand",
    "failed game",
    "failed slam",
    "failed partscore",
    "strain",
    "partscore",
    "they play",
    "they go down",
    "sacrifice missed",
)


def par_cause(game: Bridge) -> str | None:
    """Why the contract, scored at its double-dummy result, is off par (None when it is at
    par to the IMP), from the side that owns the deal (par's sign; at par 0 the declaring side):

    - it declared and made: ``missed game``/``missed slam``/``missed grand`` (double dummy
      makes the higher level for it in some strain), else ``strain`` (game or slam level, a
      strain that scores less) or ``partscore`` (no game to bid); ``sacrifice missed`` when it
      scored more than par (par is the other side's sacrifice, not taken);
    - it declared and went down: ``strain`` when the level makes in another strain, else
      ``failed slam``/``failed game`` (no strain makes it) or ``failed partscore``;
    - the other side declared: ``they play`` (making) or ``they go down`` (a sacrifice or an
      overbid, doubled or not). A deal passed out counts as the owner's contract at level 0.

    >>> from paiju.games.bridge import BridgeRules
    >>> deal = "N:AKQJ.AKQ.AKQ.AKQ T98.T98.T987.T98 5432.J32.J32.J32 76.7654.654.7654"
    >>> g = Bridge(0, BridgeRules("x", deals=("1 N None " + deal,)))
    >>> for call in ("3NT", "P", "P", "P"):
    ...     _ = g.call(g.to_act()[0], call)
    >>> par_cause(g)
    'missed slam'
    """
    par_ns, tricks = dd_table(game.dealt, game.vulnerable, game.dealer)
    _, dd = dd_figures(game)
    score = ns_score_at(game, dd)
    if imps(score - par_ns) == 0:
        return None
    c, declarer = game.contract, game.declarer
    owner = (0 if par_ns > 0 else 1) if par_ns else (declarer or 0) % 2
    if c is not None and declarer is not None and declarer % 2 != owner:
        return "they play" if dd is not None and dd >= c.level + 6 else "they go down"
    if (score - par_ns) * (1 if owner == 0 else -1) > 0:
        return "sacrifice missed"
    level = c.level if c is not None else 0
    best = [max(tricks[strain][owner], tricks[strain][owner + 2]) for strain in range(5)]
    game_made = any(best[s] >= 6 + GAME_LEVEL[s] for s in range(5))
    if c is not None and dd is not None and dd < c.level + 6:
        if level >= 6:
            return "strain" if max(best) >= 12 else "failed slam"
        if level >= GAME_LEVEL[c.strain]:
            return "strain" if game_made else "failed game"
        return "failed partscore"
    if max(best) >= 13 and level < 7:
        return "missed grand" if level == 6 else "missed slam"
    if max(best) >= 12 and level < 6:
        return "missed slam"
    if game_made and (c is None or level < GAME_LEVEL[c.strain]):
        return "missed game"
    return "strain" if game_made else "partscore"


@dataclass
class LossBreakdown:
    """Where the double-dummy tricks a side gave away went: by trick (1-13) and by kind of card.

    ``kind`` is ``"lead"`` or ``"follow"``, with ``" dummy"`` for a card from dummy and
    ``"opening lead"`` for the first card of the play.
    """

    declarer: int = 0
    defence: int = 0
    declarer_by_trick: list[int] = field(default_factory=lambda: [0] * 13)
    defence_by_trick: list[int] = field(default_factory=lambda: [0] * 13)
    declarer_by_kind: Counter[str] = field(default_factory=Counter)
    defence_by_kind: Counter[str] = field(default_factory=Counter)


def dd_losses(game: Bridge) -> tuple[int, int]:
    """The double-dummy tricks each side gave away with its own cards: (declarer's, defence's).

    DDS's ``AnalysePlayBin`` gives declarer's double-dummy tricks before the play and after
    every card; a card of declarer's side that lowers that value is a declarer error, a card
    of the defence that raises it a defence error. Declarer's tricks minus the double-dummy
    tricks of the contract is then the defence's loss minus declarer's, so these two numbers
    separate what declarer did from what the opponents gave (a weak defence makes any
    declarer look better than double dummy).
    """
    b = dd_loss_breakdown(game)
    return b.declarer, b.defence


def dd_loss_breakdown(game: Bridge) -> LossBreakdown:
    """:func:`dd_losses`, with each lost trick placed by trick number and kind of card."""
    from endplay.dds import analyse_play
    from endplay.types import Deal, Denom, Player

    assert game.contract is not None and game.declarer is not None
    deal = Deal(format_deal(game.dealt))
    deal.first = Player((game.declarer + 1) % 4)
    strain = game.contract.strain
    deal.trump = Denom.nt if strain == NT else Denom(3 - strain)
    cards: list[str] = []
    where: list[tuple[int, int, int]] = []  # (trick, seat, position in the trick) of each card
    for t, (leader, trick) in enumerate(
        zip([*game.leaders, game.leader], [*game.tricks, bytes(game.trick)], strict=True)
    ):
        for i, c in enumerate(trick):
            cards.append(format_card(c))
            where.append((t, (leader + i) % 4, i))
    values = list(analyse_play(deal, cards))
    out = LossBreakdown()
    dummy = (game.declarer + 2) % 4
    # DDS stops reporting inside the last trick, whose cards are forced (one card a hand)
    for n, (t, seat, pos) in enumerate(where[: len(values) - 1]):
        change = values[n + 1] - values[n]
        kind = "opening lead" if n == 0 else "lead" if pos == 0 else "follow"
        if seat % 2 == game.declarer % 2:
            lost = max(0, -change)
            out.declarer += lost
            out.declarer_by_trick[t] += lost
            out.declarer_by_kind[kind + (" dummy" if seat == dummy else "")] += lost
        else:
            lost = max(0, change)
            out.defence += lost
            out.defence_by_trick[t] += lost
            out.defence_by_kind[kind] += lost
    return out


def _add(into: list[int], more: Sequence[int]) -> None:
    """Add ``more`` to ``into`` element by element."""
    for i, x in enumerate(more):
        into[i] += x


def ns_score_at(game: Bridge, tricks: int | None) -> int:
    if game.contract is None or game.declarer is None or tricks is None:
        return 0
    s = contract_score(game.contract, is_vulnerable(game.vulnerable, game.declarer), tricks)
    return s if game.declarer % 2 == 0 else -s


def play(
    seats: Sequence[str],
    boards: int,
    seed: int = 0,
    samples: int | None = None,
    progress: bool = False,
    keep_games: bool = False,
    jobs: int = 1,
    oracle: str | None = None,
    bidding_only: bool = False,
) -> BridgeReport:
    """Play ``boards`` deals at two tables each (see the module's docstring) and report per robot.

    ``jobs`` processes play boards side by side; the report is the same as with one (each
    board depends only on the seed and its number). Interrupted (Ctrl-C), the report holds
    the boards finished so far and says so. ``oracle`` (a level of :mod:`paiju.bots.bridge.oracle`)
    lets `hybrid`'s Monte Carlo peek at the deal: a diagnosis, not a robot. ``bidding_only``:
    the robots bid and ``basic`` plays every card (fast); the par and reach figures, which
    score the contract at its double-dummy result, are the bidding's, and the play's figures
    are left out.
    """
    if len(seats) != 4:
        raise ValueError(f"bridge has 4 seats; --seats names {len(seats)} robots")
    for name in seats:
        registry.get("bridge", name)  # KeyError naming the known robots
    if oracle is not None and oracle not in LEVELS:
        raise ValueError(f"--oracle {oracle}: one of {', '.join(LEVELS)}")
    report = _empty_report(seats, seed, samples, oracle, bidding_only)
    bar = None
    if progress:
        from tqdm import tqdm  # type: ignore[import-untyped]

        bar = tqdm(total=boards, unit="board", desc="bridge arena", leave=False)
    pool = concurrent.futures.ProcessPoolExecutor(jobs) if jobs > 1 else None
    try:
        if pool is None:
            parts: Iterator[BridgeReport] = (
                _one_board(tuple(seats), seed, d, samples, keep_games, oracle, bidding_only) for d in range(boards)
            )
        else:
            one = functools.partial(
                _one_board,
                tuple(seats),
                seed,
                samples=samples,
                keep_games=keep_games,
                oracle=oracle,
                bidding_only=bidding_only,
            )
            parts = pool.map(one, range(boards))
        for part in parts:
            _merge(report, part)
            if bar is not None:
                bar.update()
    except KeyboardInterrupt:  # an interrupted run reports the boards it finished
        report.interrupted = True
    finally:
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
        if bar is not None:
            bar.close()
    return report


def _empty_report(
    seats: Sequence[str], seed: int, samples: int | None, oracle: str | None, bidding_only: bool = False
) -> BridgeReport:
    from paiju.bots.bridge.montecarlo import DEFAULT_SAMPLES

    report = BridgeReport(list(seats), 0, seed, samples or DEFAULT_SAMPLES, oracle=oracle, bidding_only=bidding_only)
    for n in seats:
        report.robots.setdefault(n, BridgeRobotReport(n))
    return report


def _one_board(
    seats: tuple[str, ...],
    seed: int,
    deal: int,
    samples: int | None,
    keep_games: bool,
    oracle: str | None = None,
    bidding_only: bool = False,
) -> BridgeReport:
    """One board at its two tables, as a report of its own (module-level: a pool process runs it)."""
    report = _empty_report(seats, seed, samples, oracle, bidding_only)
    tables = [list(seats), [seats[(s + 3) % 4] for s in range(4)]]  # table 2: everyone one seat clockwise
    _play_board(report, report.robots, tables, seed, deal, samples, keep_games)
    report.boards = 1
    return report


def _merge(into: BridgeReport, part: BridgeReport) -> None:
    into.boards += part.boards
    into.games += part.games
    for name, r in part.robots.items():
        t = into.robots[name]
        t.imps += r.imps
        t.par += r.par
        t.par_boards += r.par_boards
        t.par_abs += r.par_abs
        t.par_abs_dd += r.par_abs_dd
        t.reach += r.reach
        t.par_causes += r.par_causes
        t.declarer.diffs += r.declarer.diffs
        t.defence.diffs += r.defence.diffs
        t.declarer_loss.diffs += r.declarer_loss.diffs
        t.defence_loss.diffs += r.defence_loss.diffs
        _add(t.declarer_loss_by_trick, r.declarer_loss_by_trick)
        _add(t.defence_loss_by_trick, r.defence_loss_by_trick)
        t.declarer_loss_by_kind += r.declarer_loss_by_kind
        t.defence_loss_by_kind += r.defence_loss_by_kind
        t.illegal += r.illegal
        for phase, ts in r.times.items():
            t.times.setdefault(phase, []).extend(ts)


def _play_board(
    report: BridgeReport,
    reps: dict[str, BridgeRobotReport],
    tables: list[list[str]],
    seed: int,
    deal: int,
    samples: int | None,
    keep_games: bool,
) -> None:
    seats = report.seats
    ns_scores = []
    dealt: tuple[bytes, ...] = ()
    if report.oracle:  # the diagnosis's oracle knows the deal (the same one play_hand makes)
        board = games.create("bridge", seed, None, hand=deal)
        assert isinstance(board, Bridge)
        dealt = board.dealt
    par_tables = {name: len(r.par) for name, r in reps.items()}
    for t, seating in enumerate(tables):
        robots: list[Robot] = []
        for name in seating:
            r = registry.get("bridge", name)
            if samples and hasattr(r, "samples"):
                r.samples = samples
            if report.oracle and isinstance(r, HybridRobot):
                r.dealer = Oracle(dealt, report.oracle)
            cards = registry.get("bridge", "basic") if report.bidding_only else None
            robots.append(_Timed(r, reps[name].times, cards))
        game, bad = play_hand("bridge", None, seed, deal, robots, f"arena-{seed}-{deal}-{t}")
        assert isinstance(game, Bridge)
        if keep_games:
            report.games.append(game)
        ns = game.score_ns or 0
        ns_scores.append(ns)
        par_ns, dd = dd_figures(game)
        for s, name in enumerate(seating):
            reps[name].illegal += bad[s]
        vs_par = imps(ns_score_at(game, dd) - par_ns)
        for side in (0, 1):
            if s_is_pair(seating, side):
                reps[seating[side]].par.append(vs_par if side == 0 else -vs_par)
        cause = par_cause(game) if vs_par else None
        for name in {seating[side] for side in (0, 1) if s_is_pair(seating, side)}:
            reps[name].par_abs.append(abs(imps(ns - par_ns)))
            reps[name].par_abs_dd.append(abs(vs_par))
            if cause is not None:
                reps[name].par_causes[cause] += abs(vs_par)
        owner, makes, bid = reach(game)
        if owner is not None and s_is_pair(seating, owner):
            reps[seating[owner]].reach.update([*makes, *(f"{kind} bid" for kind in bid)])
        if game.declarer is not None and dd is not None and not report.bidding_only:
            decl = seating[game.declarer]
            if s_is_pair(seating, game.declarer):
                reps[decl].declarer.diffs.append(game.declarer_tricks - dd)
            defender = seating[(game.declarer + 1) % 4]
            if s_is_pair(seating, (game.declarer + 1) % 4):
                reps[defender].defence.diffs.append(dd - game.declarer_tricks)
            lost = dd_loss_breakdown(game)
            if s_is_pair(seating, game.declarer):
                rep = reps[decl]
                rep.declarer_loss.diffs.append(lost.declarer)
                _add(rep.declarer_loss_by_trick, lost.declarer_by_trick)
                rep.declarer_loss_by_kind += lost.declarer_by_kind
            if s_is_pair(seating, (game.declarer + 1) % 4):
                rep = reps[defender]
                rep.defence_loss.diffs.append(lost.defence)
                _add(rep.defence_loss_by_trick, lost.defence_by_trick)
                rep.defence_loss_by_kind += lost.defence_by_kind
    for name, rep in reps.items():
        if len(rep.par) > par_tables[name]:
            rep.par_boards.append(statistics.fmean(rep.par[par_tables[name] :]))
    board_imps = imps(ns_scores[0] - ns_scores[1])
    reps[seats[0]].imps.append(board_imps)
    if seats[1] != seats[0]:
        reps[seats[1]].imps.append(-board_imps)


def s_is_pair(seating: Sequence[str], seat: int) -> bool:
    """Whether ``seat`` and its partner are the same robot (figures credit a pair, not a mixed side)."""
    return seating[seat] == seating[(seat + 2) % 4]


def write_tables(report: BridgeReport, path: str) -> None:
    """Every table played, as PBN 2.1 (deal, auction, play, contract, declarer, result)."""
    boards = []
    for i, game in enumerate(report.games):
        seating = report.seats if i % 2 == 0 else [report.seats[(s + 3) % 4] for s in range(4)]
        tags = [(SEAT_TAGS[s], seating[s]) for s in range(4)] + [("Room", "Open" if i % 2 == 0 else "Closed")]
        boards.append(board_from_game(game, event=f"paiju arena seed {report.seed}", tags=tags))
    with open(path, "w", encoding="utf-8") as f:
        f.write(write_pbn(boards))


def judged_line(name: str, r: BridgeRobotReport) -> str:
    """How many of the robot's calls simulation weighed, with how many deals and how much CPU."""
    samples = [s for s in r.times["judged_samples"] if s]
    cpu = sorted(c for c, s in zip(r.times["judged_cpu"], r.times["judged_samples"], strict=True) if s)
    calls = len(r.times["bid"])
    changed = int(sum(r.times["judged_changed"]))
    degraded = int(sum(r.times["judged_degraded"]))
    if not samples:
        return f"{name}: calls judged by simulation: 0 of {calls}"
    return (
        f"{name}: calls judged by simulation: {len(samples)} of {calls} ({100 * len(samples) / calls:.1f}%), "
        f"deals a decision mean {statistics.fmean(samples):.1f} (min {min(samples):.0f}), CPU a decision "
        f"p50/p99 ms {_percentile(cpu, 50):.0f}/{_percentile(cpu, 99):.0f}; another call than the rows' {changed}, "
        f"degraded to the rows (budget spent) {degraded}"
    )


def format_report(report: BridgeReport) -> str:
    lines = [
        f"bridge: {report.boards} boards x 2 tables, seed {report.seed}, {report.samples} samples a Monte Carlo card"
        + (f"; oracle {report.oracle}: hybrid's samples peek (a diagnosis)" if report.oracle else "")
        + ("; bidding only: `basic` plays the cards (IMPs, play figures not the robots)" if report.bidding_only else "")
        + (" (interrupted: the boards finished so far)" if report.interrupted else ""),
        f"{'robot':<8} {'IMP/board':>10} {'95% CI':>18} {'par IMP':>8} {'decl-DD':>8} {'def-DD':>8} "
        f"{'bid p50/p99 ms':>16} {'card p50/p99 ms':>17} {'illegal':>7}",
    ]
    for name, r in report.robots.items():
        ci = r.imps_ci
        ci_text = f"[{ci[0]:+.2f}, {ci[1]:+.2f}]" if ci else "[n/a]"
        _, b50, b99 = r.latency("bid")
        _, c50, c99 = r.latency("card")
        lines.append(
            f"{name:<8} {r.imps_per_board:>+10.2f} {ci_text:>18} {r.par_imps:>+8.2f} {r.declarer.mean:>+8.2f} "
            f"{r.defence.mean:>+8.2f} {f'{b50:.2f}/{b99:.2f}':>16} {f'{c50:.1f}/{c99:.1f}':>17} {r.illegal:>7}"
        )
    for name, r in report.robots.items():
        pci = r.par_ci
        if pci:
            lines.append(
                f"{name}: par IMP {r.par_imps:+.2f} over {len(r.par)} tables, "
                f"95% CI over boards [{pci[0]:+.2f}, {pci[1]:+.2f}]"
            )
    for name, r in report.robots.items():
        if r.par_abs:
            shares = ", ".join(
                f"{kind}s {b} of {m}" + (f" ({100 * b / m:.0f}%)" if m else "")
                for kind in ("game", "slam", "grand")
                for b, m in [r.reached(kind)]
            )
            played = "" if report.bidding_only else f"the table's score {r.par_abs_mean:.2f}, "
            lines.append(
                f"{name}: |IMPs against par| a table over {len(r.par_abs)} tables: {played}"
                f"the contract at double dummy {r.par_abs_dd_mean:.2f}; "
                f"double-dummy contracts of its side bid: {shares}"
            )
            if r.par_causes:
                n = len(r.par_abs_dd)
                causes = ", ".join(f"{k} {v / n:.2f}" for k, v in r.par_causes.most_common())
                lines.append(f"{name}: where |IMPs against par| (DD) goes, a table: {causes}")
    for name, r in report.robots.items():
        if r.times.get("judged_samples"):
            lines.append(judged_line(name, r))
    for name, r in report.robots.items():
        _, b50, b99 = r.latency("bid_cpu")
        _, c50, c99 = r.latency("card_cpu")
        lines.append(f"{name}: CPU time a decision, p50/p99 ms: bid {b50:.2f}/{b99:.2f}, card {c50:.1f}/{c99:.1f}")
    for name, r in report.robots.items():
        lines.append(
            f"{name}: declarer tricks - DD tricks over {len(r.declarer.diffs)} boards: {r.declarer.distribution()}"
        )
        lines.append(f"{name}: defence tricks beyond DD over {len(r.defence.diffs)} boards: {r.defence.distribution()}")
        lines.append(
            f"{name}: DD tricks its own cards gave away: as declarer {r.declarer_loss.mean:.2f} a board "
            f"{r.declarer_loss.distribution()}, in defence {r.defence_loss.mean:.2f} {r.defence_loss.distribution()}"
        )
        for side, by_trick, by_kind in (
            ("declarer", r.declarer_loss_by_trick, r.declarer_loss_by_kind),
            ("defence", r.defence_loss_by_trick, r.defence_loss_by_kind),
        ):
            if sum(by_trick):
                kinds = ", ".join(f"{k} {v}" for k, v in sorted(by_kind.items()))
                lines.append(f"{name}: DD tricks given away in {side}, trick 1-13: {by_trick}; by card: {kinds}")
    return "\n".join(lines)


def run_cli(args: Any) -> int:
    """``paiju arena bridge``: the command's bridge branch."""
    import json
    import signal
    import sys

    seats = [s.strip() for s in args.seats.split(",") if s.strip()]
    # Ctrl-C, or SIGTERM (a background run ignores SIGINT), ends the run with the boards finished
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        report = play(
            seats,
            args.hands,
            seed=args.seed,
            samples=args.samples,
            progress=not args.no_progress,
            keep_games=bool(args.pbn),
            jobs=args.jobs,
            oracle=args.oracle,
            bidding_only=args.bidding_only,
        )
    except (KeyError, ValueError) as e:
        print(f"paiju arena: {e.args[0] if e.args else e}", file=sys.stderr)
        return 2
    if args.pbn:
        write_tables(report, args.pbn)
    if args.json:
        print(json.dumps(report.as_dict()))
    else:
        print(format_report(report))
        if args.pbn:
            print(f"PBN: {args.pbn}")
    return 0
