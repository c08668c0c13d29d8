"""`paiju bench records`: the CPU a finished hand's record costs the server, by how the
recorder groups its writes.

Hands of real games (random legal play, in matches of ``--match-hands``) end one every
``--gap`` seconds, as the rooms of a busy server end them, and go through
:class:`paiju.records.recorder.Recorder` into a new SQLite file (or ``--database URL``). The
figure is the CPU time of the whole process (the event loop and the database driver's
thread) from the first hand's end until everything is written, per hand, for each
``--linger`` given: 0 writes every job in a transaction of its own (the recorder before
batching), the default is :data:`paiju.records.recorder.LINGER`; and for each ``--group``: how
long at most a batch waits for more jobs when they come faster than that (0: never; the
default, :data:`paiju.records.recorder.GROUP_WAIT`, is what ``paiju serve`` does). The pacing loop's own CPU (the
same loop with nothing written) is measured too and taken off.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import tempfile
import time
from typing import Any

from paiju.cli.args import positive_int
from paiju.testing.launch import cpu_of


def add_arguments(parser: argparse.ArgumentParser) -> None:
    # the recorder's defaults are read when the command runs: importing the recorder (SQLAlchemy,
    # alembic) costs every `paiju` command, whose parser holds this one, some 2 s of CPU
    parser.add_argument("--hands", type=positive_int, default=400, help="hands written per run (default %(default)s)")
    parser.add_argument("--match-hands", type=positive_int, default=8, help="hands a match (default %(default)s)")
    parser.add_argument(
        "--gap", type=float, default=0.03, help="seconds between two hands' ends (default %(default)s: 33 a second)"
    )
    parser.add_argument(
        "--linger",
        type=float,
        nargs="+",
        help="the recorder's lingers to compare, seconds (default 0 and the recorder's own, "
        "paiju.records.recorder.LINGER: one transaction a job, and batches)",
    )
    parser.add_argument(
        "--group",
        type=float,
        nargs="+",
        help="the recorder's group waits to compare, seconds (default the recorder's own, "
        "paiju.records.recorder.GROUP_WAIT: at most that long a batch waits for more jobs when they come "
        "faster; 0: never)",
    )
    parser.add_argument(
        "--process",
        action="store_true",
        help="also each linger with the writer process of paiju serve (Recorder(writer=...)): "
        "the CPU the server's own process then spends, and the writer's",
    )
    parser.add_argument("--game", default="mahjong", help="the game of the hands (default %(default)s)")
    parser.add_argument("--database", help="a database URL holding no match (default: a new SQLite file)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    from paiju.records.recorder import GROUP_WAIT, LINGER

    args.linger = args.linger or [0.0, LINGER]
    args.group = args.group or [GROUP_WAIT]
    if args.gap < 0 or any(x < 0 for x in (*args.linger, *args.group)):
        raise SystemExit("paiju bench records: --gap, --linger and --group are seconds, at least 0")
    out = asyncio.run(_main(args))
    if args.json:
        print(json.dumps(out))
    return 0


def _hands(game: str, n: int) -> list[Any]:
    """``n`` distinct finished hands of random legal play, as a room records them."""
    from paiju.records.matches import random_hand

    rng = random.Random(1)
    return [random_hand(game, 1, h, rng) for h in range(n)]


async def _pace(n: int, gap: float, each: Any) -> float:
    """Call ``each(i)`` for i < n, one every ``gap`` seconds; the process CPU it took."""
    c = time.process_time()
    for i in range(n):
        each(i)
        await asyncio.sleep(gap)
    return time.process_time() - c


async def _main(args: argparse.Namespace) -> dict[str, Any]:
    from paiju import games
    from paiju.cli.serve import records_writer
    from paiju.records.database import Database
    from paiju.records.matches import MatchInfo, SeatHolder
    from paiju.records.models import ROBOT
    from paiju.records.recorder import Recorder

    hands = _hands(args.game, args.match_hands)
    seats = [SeatHolder(ROBOT, "bench@1")] * games.create(args.game, 1).num_seats
    ruleset = games.get(args.game).ruleset().name
    scratch = tempfile.TemporaryDirectory(prefix="paiju-bench-records-")
    db = Database(args.database or f"sqlite:///{scratch.name}/records.sqlite3")
    await db.upgrade()
    idle = await _pace(args.hands, args.gap, lambda i: None)
    out: dict[str, Any] = {"hands": args.hands, "gap_s": args.gap, "game": args.game, "runs": []}
    out["pacing_cpu_ms"] = round(1000 * idle / args.hands, 3)
    say = (lambda text: None) if args.json else print
    say(f"paiju bench records: {args.hands} {args.game} hands, one every {args.gap:g} s, matches of {args.match_hands}")
    try:
        runs = [
            (linger, group, process)
            for linger in args.linger
            for group in args.group
            for process in ((False, True) if args.process else (False,))
        ]
        for k, (linger, group, process) in enumerate(runs):
            rec = Recorder(db, linger=linger, group=group, writer=records_writer if process else None)
            rec.start()
            await rec.ready()  # the writer's start (imports, connect) is not a hand's cost
            writer0 = sum(cpu_of(pid) for pid in rec.writer_pids())
            started = time.time()

            def end(i: int, k: int = k, rec: Recorder = rec, started: float = started) -> None:
                m, h = divmod(i, args.match_hands)
                info = MatchInfo(f"bench-{k}-{m}", args.game, ruleset, {}, 1, args.match_hands, started + m)
                rec.hand_ended(info, hands[h], seats)
                if h == args.match_hands - 1 or i == args.hands - 1:
                    rec.match_ended(info, seats, [0] * len(seats), complete=h == args.match_hands - 1)

            c = time.process_time()
            await _pace(args.hands, args.gap, end)
            await rec.flush()
            cpu = time.process_time() - c
            writer = sum(cpu_of(pid) for pid in rec.writer_pids()) - writer0
            await rec.close()
            per_hand = 1000 * (cpu - idle) / args.hands
            run = {"linger_s": linger, "group_s": group, "cpu_ms_per_hand": round(per_hand, 3)}
            run |= {"failures": rec.failures, "batches": rec.batches}
            line = f"  linger {linger:5.2f} s, group {group:5.3f} s: {per_hand:6.2f} ms of CPU a hand (all threads)"
            if process:
                run |= {"process": True, "writer_cpu_ms_per_hand": round(1000 * writer / args.hands, 3)}
                line += f" + {1000 * writer / args.hands:.2f} ms in the writer process"
            out["runs"].append(run)
            say(f"{line}, {rec.batches} batches, {rec.failures} failures")
    finally:
        await db.close()
        scratch.cleanup()
    return out
