"""`paiju loadtest URL`: drive real protocol clients against a paiju server and report.

Tables of simulated players create and join rooms and play real hands (uniformly random
legal moves, robots in ``--robots-per-room`` seats), ``--idle`` connections only ping,
``--drops`` connections are cut and resume. The run stops by itself after ``--ramp`` +
``--duration`` seconds; the report gives the rates, the latency percentiles, the errors
and the server's own figures read from its ``/metrics``. With ``--max-errors``,
``--max-p99-ms`` or ``--max-disconnects`` the exit status is 1 when the run passes them
(a deployment gate); 2 when the run cannot start.

Measured throughput is the server's *and* this generator's: on a shared machine the
generator takes CPU from the server (``paiju bench server`` compares the two under the
same generator).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import sys
from typing import TYPE_CHECKING

from paiju.cli.args import nonnegative_float, nonnegative_int, plot_file, positive_float, positive_int

if TYPE_CHECKING:
    from paiju.loadtest import Options, Report

DEFAULT_URL = "ws://127.0.0.1:8765/ws"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("url", nargs="?", default=DEFAULT_URL, help="the server's WebSocket URL (default %(default)s)")
    p.add_argument("--game", default="tricks", help="game of the rooms (default %(default)s)")
    g = p.add_mutually_exclusive_group()
    g.add_argument(
        "--rooms", type=nonnegative_int, default=None, help="tables at once (default 10; 0 with --idle: idle only)"
    )
    g.add_argument("--clients", type=positive_int, default=None, help="players at once (rooms = players / human seats)")
    p.add_argument(
        "--robots-per-room",
        type=nonnegative_int,
        default=0,
        help="robot seats in each room (all seats: one client watches)",
    )
    p.add_argument("--robot", default=None, help="robot of the robot seats (default: the server's best for the game)")
    p.add_argument(
        "--pace",
        type=positive_float,
        default=None,
        metavar="A",
        help="our players' actions/s in all (default: unpaced)",
    )
    p.add_argument(
        "--hands", type=positive_int, default=4, help="hands per match; each table plays match after match (4)"
    )
    p.add_argument(
        "--duration", type=positive_float, default=10.0, help="seconds measured after the ramp (%(default)s)"
    )
    p.add_argument(
        "--ramp", type=nonnegative_float, default=1.0, help="seconds over which connections open (%(default)s)"
    )
    p.add_argument("--idle", type=nonnegative_int, default=0, help="extra connections that only ping (%(default)s)")
    p.add_argument("--ping-interval", type=positive_float, default=2.0, help="seconds between an idle client's pings")
    p.add_argument(
        "--drops", type=nonnegative_int, default=0, help="players cut off during the run; they resume (%(default)s)"
    )
    p.add_argument("--seed", type=int, default=None, help="seed of the players' choices")
    p.add_argument(
        "--batch",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="the players ask for batches, several frames a WebSocket message (SPEC.md §1); "
        "--no-batch: one frame a message, as a client that does not ask (default: batches)",
    )
    p.add_argument(
        "--metrics-url", default=None, help="the server's metrics (default: /metrics beside URL; '' for none)"
    )
    p.add_argument("--json", action="store_true", help="print one JSON object instead of the report")
    p.add_argument("--plot", type=plot_file, default=None, metavar="F.png", help="draw the run over time into F.png")
    p.add_argument("--quiet", action="store_true", help="no live progress display")
    t = p.add_argument_group("thresholds (exit 1 when passed)")
    t.add_argument("--max-errors", type=nonnegative_int, default=None, help="ERROR frames and failed connects allowed")
    t.add_argument("--max-p99-ms", type=positive_float, default=None, help="p99 of action -> next prompt, in ms")
    t.add_argument(
        "--max-disconnects", type=nonnegative_int, default=None, help="connections the server or network closed"
    )


def run(args: argparse.Namespace) -> int:
    from paiju.loadtest import LoadError, Options
    from paiju.loadtest.report import failures, jsonable, plot, text

    o = Options(
        url=args.url,
        game=args.game,
        rooms=args.rooms,
        clients=args.clients,
        robots_per_room=args.robots_per_room,
        hands=args.hands,
        robot=args.robot,
        pace=args.pace,
        duration=args.duration,
        ramp=args.ramp,
        idle=args.idle,
        ping_interval=args.ping_interval,
        drops=args.drops,
        seed=args.seed,
        metrics=args.metrics_url,
        batch=args.batch,
    )
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # one socket per client
    try:
        report = asyncio.run(_with_progress(o, quiet=args.quiet))
    except LoadError as e:
        print(f"paiju loadtest: {e}", file=sys.stderr)
        return 2
    r = report.as_dict()
    if args.json:
        print(json.dumps(jsonable(r)))
    else:
        print(text(r))
    if args.plot is not None:
        plot(r, args.plot)
        if not args.json:
            print(f"  plot              {args.plot}")
    bad = failures(r, args.max_errors, args.max_p99_ms, args.max_disconnects)
    for b in bad:
        print(f"paiju loadtest: threshold passed: {b}", file=sys.stderr)
    return 1 if bad else 0


async def _with_progress(o: Options, quiet: bool) -> Report:
    """The run, with a live tqdm line on stderr (when it is a terminal and not ``quiet``)."""
    from tqdm import tqdm  # type: ignore[import-untyped]

    from paiju.loadtest import run as load
    from paiju.loadtest.stats import Stats, Tick

    bar = tqdm(
        total=int(o.ramp + o.duration),
        unit="s",
        desc=f"loadtest {o.game if not o.echo else 'echo'}",
        disable=True if quiet else None,
        file=sys.stderr,
        leave=False,
    )

    def show(t: Tick, s: Stats) -> None:
        bar.update(1)
        bar.set_postfix_str(
            f"conns {s.connections} act/s {t.actions} next p99 {t.next_p99:.1f} ms err {sum(s.errors.values())}",
            refresh=False,
        )

    try:
        return await load(o, on_tick=show)
    finally:
        bar.close()
