"""`paiju bench server`: paiju's rooms against a bare WebSocket echo, in one run.

One process tree: this process (the load generator, paiju/loadtest/), a bare ``websockets`` echo
server (paiju/loadtest/echo.py) and ``paiju serve`` (no pause between hands, no rate limit), each
a child process. For every scenario (game x robot seats) the same generator first drives
the echo server with as many connections as the scenario has players (closed loop: one
message in flight each), then the rooms (closed loop: each player answers its prompt at
once); the ratio is the server's actions applied per second (its /metrics, robot actions
included) to the echo's round trips per second. Between the two, the **floor**: the echo
server's table relay (paiju/loadtest/echo.py) with the scenario's tables, players and robot
seats, every move read once and written to every player, no game: what a table game's
server on ``websockets`` pays at least for a move. Then, paced at half the actions/s just
measured, the p99 of action -> next prompt. Then the memory of idle connections (RSS of
each server before and with ``--idle`` connections open, held ``--hold`` seconds: drops
counted), and robot-filled mahjong rooms (every seat a robot, one watcher each) against
``paiju arena`` with the same robot in this process.

The generator and both servers share the machine: figures move with whatever else runs
(the load average is printed); compare figures of one run, not across runs.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import resource
import select
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from paiju.cli.args import nonnegative_float
from paiju.cli.serve import LINGER_MS
from paiju.testing.launch import ROOT, Child, end, serve

# no pause between hands, no rate limit, robots at full speed (no pace for people to follow)
SERVE_OPTIONS = (
    "--hand-pause",
    "0",
    "--rate",
    "1000000",
    "--burst",
    "1000000",
    "--robot-pace",
    "0",
    "--log-level",
    "WARNING",
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--games", nargs="*", default=["tricks", "mahjong"], help="default: tricks mahjong; none: skip")
    p.add_argument("--rooms", type=int, default=16, help="rooms per scenario (default %(default)s)")
    p.add_argument("--duration", type=float, default=8.0, help="seconds measured per run (default %(default)s)")
    p.add_argument("--ramp", type=float, default=1.0, help="seconds to open the connections (default %(default)s)")
    p.add_argument("--idle", type=int, default=2000, help="idle connections for the memory figure (0: skip)")
    p.add_argument("--hold", type=float, default=10.0, help="seconds the idle connections are held (default 10)")
    p.add_argument(
        "--holder-share",
        type=int,
        default=HOLDER_SHARE,
        help=f"idle connections per holding process, 64 handshakes in flight each at most (default {HOLDER_SHARE:,})",
    )
    p.add_argument(
        "--robot-rooms",
        type=int,
        default=8,
        help="robot-filled mahjong rooms, measured for --duration, --robot-window at least (0: skip; default 8)",
    )
    p.add_argument(
        "--robot-window",
        type=nonnegative_float,
        default=ROBOT_WINDOW_S,
        help="seconds the robot-filled rooms are measured at least: a hand of strong robots takes a second "
        "or more (default %(default)s)",
    )
    p.add_argument("--arena-hands", type=int, default=60, help="arena deals for the robot comparison (default 60)")
    p.add_argument("--robot", default=None, help="robot of the robot seats (default: the server's choice)")
    p.add_argument("--uvloop", action="store_true", help="run both servers and the generator on uvloop")
    p.add_argument(
        "--linger-ms",
        type=nonnegative_float,
        default=LINGER_MS,
        help="paiju serve --linger-ms: batching of frames that ask nothing (default %(default)s, the server's default)",
    )
    p.add_argument(
        "--baseline",
        type=Path,
        default=None,
        metavar="DIR",
        help="also run `paiju serve` from another checkout (an older commit) under the same load, for before/after: "
        "its actions/s and CPU a client action, its p99 at full and half its rate, its idle connections' RSS, "
        "its robot-filled rooms",
    )
    p.add_argument(
        "--baseline-single-frames",
        action="store_true",
        help="the baseline's players do not ask for batches (HELLO's features): a checkout from before them",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    # children inherit it: thousands of sockets each (past the hard limit only as root)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (max(hard, 65536), max(hard, 65536)))
    except (ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    loop = ["--uvloop"] if args.uvloop else []
    # each server keeps its records in a database of its own, made for this run (not the
    # user's, which other runs fill): the same start for every run
    scratch = tempfile.TemporaryDirectory(prefix="paiju-bench-")
    # the echo server starts while paiju serve does: both are waited for below
    echo = Child([sys.executable, "-m", "paiju.loadtest.echo", "--port", "0", *loop])
    children = [echo]
    try:
        limits: tuple[str, ...] = ("--max-connections", str(max(10_000, args.idle + 1000)), "--max-rooms", "10000")
        limits += ("--address-connections", "0", "--address-rooms", "0", "--address-rooms-per-minute", "0")
        opts = (*SERVE_OPTIONS, *limits, "--linger-ms", f"{args.linger_ms:g}")
        db = f"sqlite:///{scratch.name}/serve.sqlite3"
        paiju = serve(*opts, "--database", db, *loop)
        children.append(paiju)
        echo.started(r"echo serving on ws://[^:]+:(\d+)/")
        base = None
        if args.baseline is not None:
            # an older checkout may not know --uvloop or print the same log level: plain options
            db = f"sqlite:///{scratch.name}/baseline.sqlite3"
            base = serve(*opts, "--database", db, cwd=args.baseline.resolve())
            children.append(base)
        if args.uvloop:
            import uvloop

            out = uvloop.run(bench(args, echo, paiju, base))
        else:
            out = asyncio.run(bench(args, echo, paiju, base))
    finally:
        for c in children:
            c.stop()
        scratch.cleanup()
    if args.json:
        print(json.dumps(out))
    return 0


def say(args: argparse.Namespace, text: str) -> None:
    if not args.json:
        print(text, flush=True)


async def bench(args: argparse.Namespace, echo: Child, serve: Child, base: Child | None) -> dict[str, Any]:
    from paiju.loadtest import Options
    from paiju.loadtest import run as load
    from paiju.loadtest.run import probe

    eurl, purl = f"ws://127.0.0.1:{echo.port}/", f"ws://127.0.0.1:{serve.port}/ws"
    common: dict[str, Any] = {"duration": args.duration, "ramp": args.ramp, "robot": args.robot}
    out: dict[str, Any] = {"load_average_start": os.getloadavg(), "uvloop": args.uvloop, "scenarios": []}
    say(args, f"paiju bench server: one run, load average {os.getloadavg()[0]:.2f} (2-minute figures; shared machine)")
    say(
        args,
        f"  {'scenario':<26}{'echo rt/s':>11}{'paiju act/s':>13}{'ratio':>7}{'per CPU-s':>10}"
        f"{'next p99 ms':>13}{'paced at':>10}{'p99 ms':>8}  CPU % echo/paiju/generator",
    )
    floors: list[str] = []
    for game in args.games:
        seats = await probe(purl, game)
        for robots in sorted({0, seats // 2}):
            players = args.rooms * (seats - robots)
            e, e_cpu = await measured(echo, Options(eurl, echo=True, connections=players, metrics="", **common))
            tables = {"echo_tables": args.rooms, "echo_humans": seats - robots, "robots_per_room": robots}
            f, f_cpu = await measured(echo, Options(eurl, echo=True, metrics="", **tables, **common))

            def rooms(
                url: str, pace: float | None = None, game: str = game, robots: int = robots, batch: bool = True
            ) -> Options:
                return Options(
                    url, game=game, rooms=args.rooms, robots_per_room=robots, pace=pace, batch=batch, **common
                )

            p, p_cpu = await measured(serve, rooms(purl))
            applied = p["server"]["actions_per_s"] if p["server"] else p["actions_per_s"]
            # per CPU-second of each server: what the same work costs, whatever else the machine runs
            e_eff = e["round_trips_per_s"] * e["duration_s"] / max(e_cpu["server"], 1e-3)
            f_eff = f["round_trips_per_s"] * f["duration_s"] / max(f_cpu["server"], 1e-3)
            p_eff = applied * p["duration_s"] / max(p_cpu["server"], 1e-3)
            if base is not None:
                base_url = f"ws://127.0.0.1:{base.port}/ws"
                b, b_cpu = await measured(base, rooms(base_url, batch=not args.baseline_single_frames))
            half = p["actions_per_s"] / 2
            paced = (await load(rooms(purl, half))).as_dict()
            if base is not None:  # the baseline paced at half its own rate
                b_paced = (
                    await load(rooms(base_url, b["actions_per_s"] / 2, batch=not args.baseline_single_frames))
                ).as_dict()
            row = {
                "game": game,
                "rooms": args.rooms,
                "robots_per_room": robots,
                "connections": players,
                "echo_round_trips_per_s": e["round_trips_per_s"],
                "echo_round_trip_p99_ms": e["latency_ms"]["ack"]["p99"],
                "floor_moves_per_s": f["round_trips_per_s"],
                "floor_ratio": round(f["round_trips_per_s"] / e["round_trips_per_s"], 3)
                if e["round_trips_per_s"]
                else None,
                "floor_errors": f["error_count"],
                "paiju_actions_applied_per_s": applied,
                "paiju_client_actions_per_s": p["actions_per_s"],
                "ratio": round(applied / e["round_trips_per_s"], 3) if e["round_trips_per_s"] else None,
                "next_prompt_p99_ms": p["latency_ms"]["next_prompt"]["p99"],
                "paced_actions_per_s": paced["actions_per_s"],
                "paced_next_prompt_p99_ms": paced["latency_ms"]["next_prompt"]["p99"],
                "paced_next_prompt_p50_ms": paced["latency_ms"]["next_prompt"]["p50"],
                "errors": p["error_count"] + paced["error_count"],
                "echo_cpu": e_cpu,
                "paiju_cpu": p_cpu,
                "echo_round_trips_per_cpu_s": round(e_eff, 1),
                "floor_cpu": f_cpu,
                "floor_moves_per_cpu_s": round(f_eff, 1),
                "floor_ratio_per_cpu_s": round(f_eff / e_eff, 3) if e_eff else None,
                "paiju_of_floor_per_cpu_s": round(p_eff / f_eff, 3) if f_eff else None,
                "paiju_actions_per_cpu_s": round(p_eff, 1),
                "ratio_per_cpu_s": round(p_eff / e_eff, 3) if e_eff else None,
                "paiju_cpu_ms_per_client_action": round(1000 * p_cpu["server"] / max(p["actions"], 1), 3),
            }
            if base is not None:
                row["baseline_client_actions_per_s"] = b["actions_per_s"]
                row["baseline_cpu_ms_per_client_action"] = round(1000 * b_cpu["server"] / max(b["actions"], 1), 3)
                row["baseline_next_prompt_p99_ms"] = b["latency_ms"]["next_prompt"]["p99"]
                row["baseline_paced_actions_per_s"] = b_paced["actions_per_s"]
                row["baseline_paced_next_prompt_p99_ms"] = b_paced["latency_ms"]["next_prompt"]["p99"]
            out["scenarios"].append(row)
            say(
                args,
                f"  {f'{game}, {robots} robots, {args.rooms} rooms':<26}{row['echo_round_trips_per_s']:>11,.0f}"
                f"{applied:>13,.0f}{row['ratio'] or 0:>7.3f}{row['ratio_per_cpu_s'] or 0:>10.3f}"
                f"{row['next_prompt_p99_ms']:>13.1f}"
                f"{row['paced_actions_per_s']:>10,.0f}{row['paced_next_prompt_p99_ms']:>8.1f}"
                f"  {e_cpu['server_percent']:.0f}/{p_cpu['server_percent']:.0f}/"
                f"{(e_cpu['generator_percent'] + p_cpu['generator_percent']) / 2:.0f}",
            )
            floors.append(
                f"  floor {f'{game}, {robots} robots':<20}{f['round_trips_per_s']:>11,.0f} moves/s through the relay, "
                f"{row['floor_ratio'] or 0:.3f} of the echo ({row['floor_ratio_per_cpu_s'] or 0:.3f} per CPU-second, "
                f"CPU % relay/generator {f_cpu['server_percent']:.0f}/{f_cpu['generator_percent']:.0f}); "
                f"paiju {row['paiju_of_floor_per_cpu_s'] or 0:.3f} of the floor per CPU-second; "
                f"server CPU µs a move: echo {_us(e_eff):.0f}, relay {_us(f_eff):.0f}, paiju {_us(p_eff):.0f}"
            )
            if base is not None:
                say(
                    args,
                    f"    baseline {args.baseline}: {row['baseline_client_actions_per_s']:,.0f} client act/s, "
                    f"{row['baseline_cpu_ms_per_client_action']:.3f} server CPU ms each, next p99 "
                    f"{row['baseline_next_prompt_p99_ms']:.1f} ms, paced at {row['baseline_paced_actions_per_s']:,.0f} "
                    f"p99 {row['baseline_paced_next_prompt_p99_ms']:.1f} ms; this checkout "
                    f"{p['actions_per_s']:,.0f} client act/s, {row['paiju_cpu_ms_per_client_action']:.3f} ms each",
                )
    for line in floors:
        say(args, line)
    if args.idle:
        out["idle"] = {}
        idle = [("echo", echo, eurl), ("paiju", serve, purl)]
        if base is not None:
            idle.append(("baseline", base, f"ws://127.0.0.1:{base.port}/ws"))
        for name, child, url in idle:
            out["idle"][name] = await idle_cost(child, url, args)
            i = out["idle"][name]
            if i["asked"] > i["connections"] and i["asked"] > i["file_limit"] - FILE_RESERVE:
                say(
                    args,
                    f"  idle: {i['asked']:,} asked, but one process may open {i['file_limit']:,} files here "
                    f"(ulimit -n; its hard limit needs privilege to raise): each server gets at most "
                    f"{i['file_limit'] - FILE_RESERVE:,}",
                )
            say(
                args,
                f"  idle {name:<6} {i['connections']:,} connections ({i['held_throughout']:,} throughout) "
                f"held {args.hold:g} s by {i['holders']} processes: "
                f"{i['kib_per_connection']:.1f} KiB RSS each ({i['rss_before_kib']:,} -> {i['rss_held_kib']:,} KiB), "
                f"{i['disconnects']} drops, {i['connect_failures']} failed connects",
            )
    if args.robot_rooms:
        out["robots"] = await robot_rooms(serve, purl, args)
        r = out["robots"]
        say(
            args,
            f"  robot-filled mahjong ({r['robot']}): rooms {r['rooms_hands_per_s']:.2f} hands/s "
            f"({args.robot_rooms} rooms), arena {r['arena_hands_per_s']:.2f} hands/s ({r['arena_hands']} new deals): "
            f"ratio {r['ratio']:.3f}; per CPU-second {r['rooms_hands_per_cpu_s']:.2f} / "
            f"{r['arena_hands_per_cpu_s']:.2f} = {r['ratio_per_cpu_s']:.3f} "
            f"(CPU ms a hand: server {r['rooms_server_cpu_ms_per_hand']:.1f}, arena {r['arena_cpu_ms_per_hand']:.1f}); "
            f"`paiju arena`'s duplicate match (each deal in four rotations): "
            f"{r['duplicate_arena_hands_per_cpu_s']:.2f} hands per CPU-second",
        )
        if base is not None:  # the same robot-filled rooms, in the baseline (its robot: its own choice)
            out["robots_baseline"] = rb = await robot_rooms(
                base, f"ws://127.0.0.1:{base.port}/ws", args, with_arena=False
            )
            say(
                args,
                f"  robot-filled mahjong, baseline {args.baseline} ({rb['robot']}): "
                f"rooms {rb['rooms_hands_per_s']:.2f} hands/s, {rb['rooms_hands_per_cpu_s']:.2f} per CPU-second "
                f"(server CPU ms a hand {rb['rooms_server_cpu_ms_per_hand']:.1f})",
            )
    out["load_average_end"] = os.getloadavg()
    say(args, f"  load average at the end {os.getloadavg()[0]:.2f}")
    return out


def _us(per_cpu_s: float) -> float:
    """Microseconds of CPU a move, from moves per CPU-second."""
    return 1e6 / per_cpu_s if per_cpu_s else 0.0


async def measured(child: Child, o: Any) -> tuple[dict[str, Any], dict[str, float]]:
    """Run the load ``o`` against ``child``; its report, and the CPU the server and this
    generator used in the measured window."""
    from paiju.loadtest import run as load

    marks: list[tuple[float, float, float]] = []

    def mark(_: bool) -> None:
        marks.append((child.cpu_seconds(), time.process_time(), time.perf_counter()))

    r = (await load(o, on_window=mark)).as_dict()
    (c0, g0, t0), (c1, g1, t1) = marks
    wall = t1 - t0
    cpu = {
        "server": round(c1 - c0, 3),
        "server_percent": round(100 * (c1 - c0) / wall, 1),
        "generator_percent": round(100 * (g1 - g0) / wall, 1),
    }
    return r, cpu


HOLDER_SHARE = 8_000  # idle connections per holding process (paiju.loadtest.hold): handshakes on both cores
FILE_RESERVE = 64  # files a server process holds besides its connections (listener, epoll, database, logs)


async def idle_cost(child: Child, url: str, args: argparse.Namespace) -> dict[str, Any]:
    """RSS of ``child`` before and with ``--idle`` connections open (HELLO said, pinging
    every 20 s, like a browser tab left open), held ``--hold`` seconds; drops counted.

    The connections are held by processes of their own (paiju.loadtest.hold), at most
    ``--holder-share`` each (HOLDER_SHARE unless told): one process holds only as many
    sockets as its file limit allows, and the handshakes then run on every core. The server
    is a single process too: the count asked is cut to its file limit (less FILE_RESERVE),
    and the output says so."""
    limit = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    want = min(args.idle, limit - FILE_RESERVE)
    parts = -(-want // max(1, args.holder_share))
    # the holders hold 64 handshakes in flight each: about 100 a second each on a busy machine
    ramp = max(args.ramp, want / parts / 100)
    settle = 2 * ramp + 30  # the window opens when all are connected, or after this
    before = child.rss_kib()
    loop = ["--uvloop"] if args.uvloop else []
    holders = []
    for i in range(parts):
        n = want // parts + (1 if i < want % parts else 0)
        cmd = [sys.executable, "-m", "paiju.loadtest.hold", url, "--idle", str(n), "--ramp", f"{ramp:g}"]
        cmd += ["--for", f"{settle + args.hold + 30:g}", *loop]
        holders.append(subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, text=True, bufsize=1))
    last: list[dict[str, int]] = [{"connections": 0, "disconnects": 0, "connect_failures": 0} for _ in holders]

    def read(timeout: float) -> None:
        """The holders' latest lines (waits at most ``timeout`` for one)."""
        pipes = {h.stdout: i for i, h in enumerate(holders) if h.stdout is not None}
        end = time.monotonic() + timeout
        while pipes:
            ready = select.select(list(pipes), [], [], max(0.0, end - time.monotonic()))[0]
            if not ready:
                return
            for f in ready:
                line = f.readline()
                if not line:
                    pipes.pop(f)
                    continue
                with contextlib.suppress(ValueError):
                    last[pipes[f]] = json.loads(line)

    def total(key: str) -> int:
        return sum(x[key] for x in last)

    try:
        deadline = time.monotonic() + settle
        while time.monotonic() < deadline and total("connections") < want:
            await asyncio.to_thread(read, 1.0)
        held: list[int] = []
        drops0 = total("disconnects")
        until = time.monotonic() + args.hold
        low = start = total("connections")
        while time.monotonic() < until:
            await asyncio.to_thread(read, 1.0)
            held.append(child.rss_kib())
            low = min(low, total("connections"))
        drops = total("disconnects") - drops0
    finally:
        for h in holders:  # all at once, then each waited for
            h.terminate()
        for h in holders:
            end(h, 30)
    top = max(held) if held else child.rss_kib()
    connections = start
    return {
        "asked": args.idle,
        "file_limit": limit,
        "connections": connections,
        "held_throughout": low,
        "holders": parts,
        "rss_before_kib": before,
        "rss_held_kib": top,
        "kib_per_connection": round((top - before) / max(connections, 1), 2),
        "disconnects": drops,
        "connect_failures": total("connect_failures"),
    }


def arena_hands(robot: str, deals: range) -> tuple[int, float, float]:
    """``paiju arena``'s loop (paiju.bots.arena.play_hand) on ``deals``, each dealt once with four
    fresh copies of ``robot``: ``(hands, wall seconds, CPU seconds)``.

    Not ``arena.play``: its duplicate match plays each deal once per rotation of the seats,
    and with the same deterministic robot in all four seats the four rotations are the same
    game, which the robots' memoised analyses then replay at a fraction of the cost; a room
    deals a new hand every time."""
    from paiju.bots import arena, registry

    t, c = time.perf_counter(), time.process_time()
    for deal in deals:
        robots = [registry.get("mahjong", robot) for _ in range(4)]
        arena.play_hand("mahjong", None, 0, deal, robots, f"bench-{deal}")
    return len(deals), time.perf_counter() - t, time.process_time() - c


ROBOT_WINDOW_S = 3.0


async def robot_rooms(serve: Child, url: str, args: argparse.Namespace, with_arena: bool = True) -> dict[str, Any]:
    """Hands/s of robot-filled mahjong rooms in ``paiju serve`` (robots on its in-process
    bus) against ``paiju arena``'s loop for the same robot on as many new deals, here; and
    per CPU-second of each. Both are warmed up first (the robots' memoised analyses).
    Without ``with_arena``, the rooms' figures alone."""
    from paiju.bots import arena
    from paiju.loadtest import Options
    from paiju.loadtest import run as load

    def rooms(duration: float) -> Options:
        return Options(
            url,
            game="mahjong",
            rooms=args.robot_rooms,
            robots_per_room=4,
            robot=args.robot,
            hands=8,
            duration=duration,
            ramp=args.ramp,
        )

    await load(rooms(min(2.0, args.duration)))  # warm-up, not measured
    # a window of a few seconds at least: a robot-filled mahjong hand takes a second or more
    d, cpu = await measured(serve, rooms(max(args.duration, args.robot_window)))
    robot = d["robot"] or "random"  # the robot the server seated
    rooms_per_cpu = d["hands"] / max(cpu["server"], 1e-3)
    measured_rooms = {
        "robot": robot,
        "rooms_hands_per_s": d["hands_per_s"],
        "rooms_hands_per_cpu_s": round(rooms_per_cpu, 2),
        "rooms_server_cpu_percent": cpu["server_percent"],
        "rooms_server_cpu_ms_per_hand": round(1000 * cpu["server"] / max(d["hands"], 1), 2),
    }
    if not with_arena:
        return measured_rooms
    warm = max(4, args.arena_hands // 4)
    await asyncio.to_thread(arena_hands, robot, range(10_000, 10_000 + warm))
    games, wall, spent = await asyncio.to_thread(arena_hands, robot, range(args.arena_hands))
    # for comparison, `paiju arena`'s own duplicate match: a quarter of the deals, four rotations each
    c = time.process_time()
    dup = await asyncio.to_thread(arena.play, "mahjong", [robot] * 4, max(1, args.arena_hands // 4), 0)
    dup_per_cpu = dup.games / max(time.process_time() - c, 1e-3)
    arena_rate = games / wall
    arena_per_cpu = games / max(spent, 1e-3)
    return {
        **measured_rooms,
        "arena_hands": games,
        "arena_hands_per_s": round(arena_rate, 2),
        "ratio": round(d["hands_per_s"] / arena_rate, 3) if arena_rate else 0.0,
        "arena_hands_per_cpu_s": round(arena_per_cpu, 2),
        "ratio_per_cpu_s": round(rooms_per_cpu / arena_per_cpu, 3),
        "arena_cpu_ms_per_hand": round(1000 * spent / max(games, 1), 2),
        "duplicate_arena_hands_per_cpu_s": round(dup_per_cpu, 2),
    }
