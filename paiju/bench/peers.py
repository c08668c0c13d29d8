"""`paiju bench peers`: paiju against Colyseus on the same tricks game, server CPU a move side by side.

The same two-player ``tricks`` game (docs/rules/tricks.md) with the same authority (the server
deals, checks each move, tells both players, hides the other hand) served by ``paiju serve``
(no pause between hands, robots at full speed, no rate or address limits, records in a SQLite
file of this run) and by Colyseus (paiju/bench/colyseus/room.js: the public state in a Schema, hands
and prompts by ``client.send``) in two modes: a patch broadcast after every move (``patchRate``
0 and ``broadcastPatch()``), and Colyseus's default of a patch every 50 ms. One load generator
(paiju/bench/colyseus/loadgen.js, one Node process) drives each server in turn with the same logic:
``--rooms`` tables of two players who answer every prompt at once with a random legal card,
and take a new room after each match of ``--hands`` hands. paiju's players ask for batches in
HELLO (paiju/protocol/SPEC.md §1), as paiju's client library and web client do (``--no-batch``: one
frame a message).

Beside them, the **floor** (paiju/bench/floor.py): the least a Python server on paiju's own
stack (websockets on uvloop, paiju.protocol's msgpack frames, one write a connection a turn)
does for the same game, the same wire and the same authority, and nothing else (no records,
log, resume, clocks, metrics or limits). paiju over the floor is what paiju's features cost
a move; the floor over Colyseus is what the stack costs. ``floor_callback`` (by name only) is
the floor with each message handed over by websockets' parser instead of a ``recv()`` coroutine
a message.

Each measure is a window of ``--seconds`` after ``--warmup``; the server's CPU time (user +
system of its process and its children, from /proc) is read as the window opens and closes,
by process: the table and ``--json`` (``cpu_by_process`` of each run) split paiju's into its
serving process (user and system) and its children (the records writer, the robots' pools).
Each server first plays a pass of ``--warm`` seconds that is not counted (what it does once:
paiju's records writer process starts, Node compiles). The runs are interleaved (run 1 of
every room count and server, then run 2, ..., the servers' order reversed every other run)
and each figure is the median of the ``--runs`` runs. The headline is actions per
server-CPU-second, and the ratio paiju / Colyseus-with-a-patch-per-move in it.

The generator and the servers share the machine, and so does whatever else runs on it (the
load average is printed): compare the figures of one run, and measure on a quiet machine.

The Node packages (Colyseus, colyseus.js, @msgpack/msgpack; exact versions in
paiju/bench/colyseus/package-lock.json) are installed by ``npm ci`` into paiju/bench/colyseus/node_modules
the first time.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from paiju.bench.server import SERVE_OPTIONS
from paiju.cli.args import fail, nonnegative_float, positive_float, positive_int
from paiju.testing.launch import ROOT, Child, cpu_by_process, cpu_of, end, serve

HERE = Path(__file__).resolve().parent
COLYSEUS = HERE / "colyseus"
PACKAGES = ("@colyseus/core", "@colyseus/schema", "@colyseus/ws-transport", "colyseus.js", "@msgpack/msgpack")
NODE_MAJOR = 20  # the Node the figures of docs/performance.md were taken on, and the least this runs on

# server key -> (label, the generator's target)
SERVERS: dict[str, tuple[str, str]] = {
    "paiju": ("paiju", "paiju"),
    "colyseus_per_move": ("Colyseus, patch after every move", "colyseus"),
    "colyseus_default": ("Colyseus, default 50 ms patches", "colyseus"),
    "floor": ("Python floor, recv() a message", "paiju"),
    "floor_callback": ("Python floor, callback reader", "paiju"),
    "baseline": ("paiju, the --baseline checkout", "paiju"),  # only with --baseline
}
SERVERS_NAMED = [k for k in SERVERS if k != "baseline"]  # what --servers names
SERVERS_DEFAULT = [k for k in SERVERS_NAMED if k != "floor_callback"]  # (the floor's variant: asked for by name)
FLOORS = {"floor": "recv", "floor_callback": "callback"}  # paiju.bench.floor's --reader
MODES = {"colyseus_per_move": "per-move", "colyseus_default": "default"}
# the limits of paiju serve that a load from one address would hit (connections, rooms a minute)
PAIJU_LIMITS = (
    "--address-connections",
    "0",
    "--address-rooms",
    "0",
    "--address-rooms-per-minute",
    "0",
    "--max-rooms",
    "10000",
)
SETTLE_S = 1.0  # between two measures: the rooms of the last one close
WARM_S = 3.0  # each server's first pass, not counted


def room_counts(text: str) -> list[int]:
    """``16,64`` -> [16, 64]."""
    try:
        counts = [int(part) for part in text.split(",")]
    except ValueError:
        counts = []
    if not counts or any(c < 1 or c > 5000 for c in counts):
        raise argparse.ArgumentTypeError(f"{text!r} is not a comma-separated list of room counts (1..5000)")
    return counts


def hand_counts(text: str) -> list[int]:
    """``4,20`` -> [4, 20]: the mixes, hands a match.

    >>> hand_counts("4,20")
    [4, 20]
    """
    try:
        counts = [int(part) for part in text.split(",")]
    except ValueError:
        counts = []
    if not counts or any(c < 1 or c > 1000 for c in counts) or len(set(counts)) != len(counts):
        raise argparse.ArgumentTypeError(f"{text!r} is not a comma-separated list of distinct hand counts (1..1000)")
    return counts


def server_keys(text: str) -> list[str]:
    """``paiju,colyseus_per_move`` -> the servers to measure, in the table's order."""
    keys = text.split(",")
    unknown = [k for k in keys if k not in SERVERS or k == "baseline"]
    if unknown or not keys:
        raise argparse.ArgumentTypeError(f"{text!r}: the servers are {', '.join(SERVERS_NAMED)} (comma-separated)")
    return [k for k in SERVERS if k in keys]


def json_target(text: str) -> str:
    """``-`` (stdout) or a file to write."""
    if text == "-":
        return text
    from paiju.cli.args import out_file

    return out_file(text)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.description = (
        "paiju against Colyseus 0.16 on the same two-player tricks game (the same deal, checks and hidden "
        "hands): one Node load generator drives `paiju serve` and a Colyseus server in two modes (a patch "
        "after every move; the default 50 ms patches), --rooms tables whose players answer every prompt at "
        "once with a random legal card. For each room count and server: actions/s, server CPU µs an action "
        "(/proc: the process and its children), actions per server-CPU-second, p50/p99 ms of action -> next "
        "prompt, WebSocket messages and bytes received an action; medians of --runs interleaved runs; and "
        "the ratio paiju / Colyseus-with-a-patch-per-move in actions per server-CPU-second; beside them the "
        "floor, the least a Python server on paiju's stack does for the same game and wire. Exit 1 when a "
        "server played no action or left a table idle."
    )
    p.epilog = (
        "Needs Node.js 20 or later and npm on PATH; the first run installs the pinned Colyseus packages "
        "with npm ci into paiju/bench/colyseus/node_modules. Figures move with whatever else runs on the "
        "machine: take them on a quiet one."
    )
    p.add_argument(
        "--rooms",
        type=room_counts,
        default=[16, 64],
        metavar="N,N",
        help="room counts, comma-separated; each a table of two players (default 16,64)",
    )
    p.add_argument(
        "--seconds", type=positive_float, default=20.0, help="seconds measured per run and server (default 20)"
    )
    p.add_argument("--runs", type=positive_int, default=3, help="interleaved runs; figures are medians (default 3)")
    p.add_argument(
        "--warmup", type=nonnegative_float, default=2.0, help="seconds of play before each window opens (default 2)"
    )
    p.add_argument(
        "--warm",
        type=nonnegative_float,
        default=WARM_S,
        help=f"seconds of each server's first pass, not counted (default {WARM_S:g}; 0: none)",
    )
    p.add_argument(
        "--hands",
        type=hand_counts,
        default=[4],
        metavar="H,H",
        help="hands per match, then a new room; several (e.g. 4,20) measure each mix, interleaved, print them "
        "side by side and split each server's CPU into a cost per match and a cost per move (default 4)",
    )
    p.add_argument("--seed", type=int, default=1, help="seed of the players' choices (default 1)")
    p.add_argument(
        "--no-batch",
        dest="batch",
        action="store_false",
        help="paiju's players do not ask for batches in HELLO: one frame a WebSocket message",
    )
    p.add_argument(
        "--servers",
        type=server_keys,
        default=SERVERS_DEFAULT,
        metavar="S,S",
        help=f"the servers to measure, of {','.join(SERVERS_NAMED)} (default {','.join(SERVERS_DEFAULT)}); "
        "floor is the least a Python server on paiju's stack does for the same game (paiju/bench/floor.py), "
        "floor_callback the same with its messages handed over by websockets' parser rather than recv()",
    )
    p.add_argument(
        "--baseline",
        type=Path,
        default=None,
        metavar="DIR",
        help="also measure `paiju serve` run from checkout DIR (e.g. `git archive COMMIT | tar -x -C DIR`, or "
        "a pure-Python copy beside a compiled install), interleaved with the others under the same load: "
        "the ratio paiju / baseline in actions per server-CPU-second is printed",
    )
    p.add_argument(
        "--baseline-python",
        default=None,
        metavar="PATH",
        help="the interpreter that runs the --baseline checkout (default this one): e.g. the python of a venv "
        "where DIR is installed compiled (`pip install -e DIR`), to compare compiled builds",
    )
    p.add_argument(
        "--json",
        type=json_target,
        default=None,
        metavar="FILE",
        help="also write the figures as one JSON object to FILE ('-': to stdout, instead of the tables)",
    )


def run(args: argparse.Namespace) -> int:
    if args.baseline_python is not None and args.baseline is None:
        return fail(
            "bench peers", "--baseline-python names the interpreter of the --baseline checkout: give --baseline DIR"
        )
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        missing = " and ".join(n for n, w in (("node", node), ("npm", npm)) if w is None)
        return fail(
            "bench peers",
            f"{missing} not found on PATH: the Colyseus peer needs Node.js {NODE_MAJOR}+ and npm "
            "(e.g. apt-get install nodejs npm)",
        )
    version = _node_version(node)
    if version is None or version[0] < NODE_MAJOR:
        shown = ".".join(map(str, version)) if version else "unknown"
        return fail("bench peers", f"node {shown} is too old: the Colyseus peer needs Node.js {NODE_MAJOR} or later")
    problem = install(npm)
    if problem:
        return fail("bench peers", problem)
    versions = json.loads(_node_output(node, "versions.js"))
    to_stdout = args.json == "-"

    def say(text: str) -> None:
        if not to_stdout:
            print(text, flush=True)

    say(
        f"paiju bench peers: node {versions['node']}, colyseus {versions['@colyseus/core']} "
        f"(schema {versions['@colyseus/schema']}, ws-transport {versions['@colyseus/ws-transport']}, "
        f"colyseus.js {versions['colyseus.js']}), python {sys.version.split()[0]}"
    )
    say(
        f"  rooms {','.join(map(str, args.rooms))}, {args.runs} interleaved run(s) of {args.seconds:g} s "
        f"after {args.warmup:g} s, {' and '.join(map(str, args.hands))} hands a match, paiju's players "
        f"{'asking for batches' if args.batch else 'taking one frame a message'}; "
        f"load average {os.getloadavg()[0]:.2f} "
        "(shared machine: figures move with it)"
    )
    builds = {"paiju": build_of(sys.executable, None)}
    if args.baseline is not None:
        builds["baseline"] = build_of(args.baseline_python or sys.executable, args.baseline.resolve())
    for key, text in builds.items():
        say(f"  {key}: {text}")
    scratch = tempfile.TemporaryDirectory(prefix="paiju-peers-")
    children: dict[str, Child] = {}
    try:
        db = f"sqlite:///{scratch.name}/peers.sqlite3"
        if "paiju" in args.servers:
            children["paiju"] = serve(*SERVE_OPTIONS, *PAIJU_LIMITS, "--database", db)
        if args.baseline is not None:  # (python -m paiju from DIR imports DIR's paiju)
            base_db = f"sqlite:///{scratch.name}/baseline.sqlite3"
            children["baseline"] = serve(
                *SERVE_OPTIONS,
                *PAIJU_LIMITS,
                "--database",
                base_db,
                cwd=args.baseline.resolve(),
                python=args.baseline_python,
            )
            args.servers = [*args.servers, "baseline"]
        for key, mode in MODES.items():
            if key not in args.servers:
                continue
            children[key] = Child(
                [node, "server.js", "--port", "0", "--mode", mode],
                r"colyseus serving on ws://[^:]+:(\d+)/",
                cwd=COLYSEUS,
            )
        for key, reader in FLOORS.items():
            if key in args.servers:
                cmd = [sys.executable, "-m", "paiju.bench.floor", "--port", "0", "--reader", reader]
                children[key] = Child(cmd, r"floor serving on ws://[^:]+:(\d+)/")
        out = measure_all(args, node, children)
    except ServerGone as e:
        return fail("bench peers", str(e), 1)
    finally:
        for c in children.values():
            c.stop()
        scratch.cleanup()
    out["versions"] = versions
    out["builds"] = builds
    out["python"] = sys.version.split()[0]
    out["serve_options"] = [*SERVE_OPTIONS, *PAIJU_LIMITS, "--database", "sqlite:///…"]
    for hands in args.hands:
        for rooms in args.rooms:
            say("")
            say(table(out["mixes"][str(hands)][str(rooms)], rooms, hands))
    if len(args.hands) > 1:
        say("")
        say(side_by_side(out, args.rooms, args.hands))
    if args.json is not None:
        text = json.dumps(out, indent=None if to_stdout else 1)
        if to_stdout:
            print(text)
        else:
            Path(args.json).write_text(text + "\n", encoding="utf-8")
    bad = [r for r in out["runs"] if r["actions"] == 0 or r["idle_tables"]]
    for r in bad:
        print(
            f"paiju bench peers: {r['server']} with {r['rooms']} rooms: {r['actions']} actions, "
            f"{r['idle_tables']} table(s) idle, errors {r['errors']}",
            file=sys.stderr,
        )
    return 1 if bad else 0


def build_of(python: str, cwd: Path | None) -> str:
    """What ``python -m paiju --version`` says, run in ``cwd`` (a checkout; None: this one's
    root): the build (compiled or pure Python) and the event loop."""
    try:
        done = subprocess.run(
            [python, "-m", "paiju", "--version"], cwd=cwd or ROOT, capture_output=True, text=True, timeout=120
        )
    except (OSError, subprocess.TimeoutExpired) as e:
        return f"unknown ({e})"
    return done.stdout.strip() or f"unknown (exit {done.returncode}: {done.stderr.strip()[-200:]})"


def _node_version(node: str) -> tuple[int, ...] | None:
    try:
        text = subprocess.run([node, "--version"], capture_output=True, text=True, timeout=30).stdout.strip()
        return tuple(int(x) for x in text.lstrip("v").split("."))
    except (OSError, ValueError, subprocess.TimeoutExpired):
        return None


def _node_output(node: str, script: str, *argv: str) -> str:
    return subprocess.run(
        [node, script, *argv], cwd=COLYSEUS, capture_output=True, text=True, check=True, timeout=60
    ).stdout


def installed() -> bool:
    """Whether paiju/bench/colyseus/node_modules holds the locked packages (npm ci's own record of
    them, no older than the lock file, and each package's folder)."""
    record = COLYSEUS / "node_modules" / ".package-lock.json"
    if not record.is_file() or record.stat().st_mtime < (COLYSEUS / "package-lock.json").stat().st_mtime:
        return False
    return all((COLYSEUS / "node_modules" / name / "package.json").is_file() for name in PACKAGES)


def install(npm: str) -> str | None:
    """``npm ci`` into paiju/bench/colyseus/node_modules when it is not there yet; the problem, or None.
    One process at a time (a lock file beside the packages): the others wait, then find them."""
    import fcntl

    with open(COLYSEUS / ".install.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return _install(npm)


def _install(npm: str) -> str | None:
    if installed():
        return None
    print(
        "paiju bench peers: installing the Colyseus peer's npm packages (npm ci in paiju/bench/colyseus; once)...",
        file=sys.stderr,
        flush=True,
    )
    try:
        done = subprocess.run(
            [npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"],
            cwd=COLYSEUS,
            capture_output=True,
            text=True,
            timeout=600,
        )
    except (OSError, subprocess.TimeoutExpired) as e:
        return f"npm ci in {COLYSEUS} failed: {e}"
    if done.returncode != 0:
        last = (done.stderr.strip() or done.stdout.strip() or "no output").splitlines()[-1]
        return f"npm ci in {COLYSEUS} failed ({done.returncode}): {last}"
    return None


def measure_all(args: argparse.Namespace, node: str, children: dict[str, Child]) -> dict[str, Any]:
    """Every run of every room count and server, interleaved; the medians and ratios."""
    from tqdm import tqdm  # type: ignore[import-untyped]

    total = args.runs * len(args.rooms) * len(args.servers) * len(args.hands)
    bar = tqdm(
        total=round(total * (args.seconds + args.warmup)),
        unit="s",
        desc="bench peers",
        disable=None,
        file=sys.stderr,
        leave=False,
    )
    runs: list[dict[str, Any]] = []
    load = [os.getloadavg()[0]]
    try:
        # a pass of each server first, not counted: what a server does once (paiju's records
        # writer process starts with the first records, Node compiles the hot code) stays out
        for key in args.servers if args.warm else ():
            bar.set_postfix_str(f"warming {key}", refresh=True)
            measure(args, node, key, children[key], min(args.rooms), args.hands[0], None, seconds=args.warm, warmup=1.0)
            time.sleep(SETTLE_S)
        for n in range(args.runs):
            for hands in args.hands:
                for rooms in args.rooms:
                    # the servers in turn, in the reverse order every other run: with one order
                    # for all runs, the server measured first came out 8-15 % dearer an action
                    # than the same build measured second (two checkouts, load average 7-15)
                    for key in args.servers if n % 2 == 0 else args.servers[::-1]:
                        bar.set_postfix_str(f"run {n + 1} {key} {rooms} rooms {hands} hands", refresh=True)
                        r = measure(args, node, key, children[key], rooms, hands, bar)
                        r["run"] = n + 1
                        runs.append(r)
                        time.sleep(SETTLE_S)
                        load.append(os.getloadavg()[0])
    finally:
        bar.close()
    out: dict[str, Any] = {
        "seconds": args.seconds,
        "warmup": args.warmup,
        "warm": args.warm,
        "runs_per_figure": args.runs,
        "hands_per_match": args.hands,
        "paiju_batches": args.batch,
        "load_average": {"start": load[0], "max": max(load), "end": load[-1]},
        "mixes": {},
        "runs": runs,
    }
    for hands in args.hands:
        mix = out["mixes"][str(hands)] = {}
        for rooms in args.rooms:
            rows = [r for r in runs if r["rooms"] == rooms and r["hands_per_match"] == hands]
            figures = {k: medians([r for r in rows if r["server"] == k]) for k in args.servers}
            rate = {k: figures.get(k, {}).get("actions_per_cpu_s") for k in SERVERS}
            mix[str(rooms)] = {
                **figures,
                "ratio": _ratio(rate["paiju"], rate["colyseus_per_move"]),
                "ratio_default": _ratio(rate["paiju"], rate["colyseus_default"]),
                "ratio_baseline": _ratio(rate["paiju"], rate["baseline"]),
                "ratio_floor": _ratio(rate["paiju"], rate["floor"]),
                "floor_ratio": _ratio(rate["floor"], rate["colyseus_per_move"]),
                "floor_ratio_default": _ratio(rate["floor"], rate["colyseus_default"]),
                "ratio_floor_callback": _ratio(rate["floor_callback"], rate["floor"]),
            }
    out["rooms"] = out["mixes"][str(args.hands[0])]  # the first mix, as before several
    if len(args.hands) > 1:
        out["split"] = {
            str(rooms): {k: split([out["mixes"][str(h)][str(rooms)][k] for h in args.hands]) for k in args.servers}
            for rooms in args.rooms
        }
    return out


def _ratio(a: float | None, b: float | None) -> float | None:
    """``a / b`` to 3 places, None without both.

    >>> _ratio(3.0, 4.0), _ratio(None, 4.0)
    (0.75, None)
    """
    return round(a / b, 3) if a and b else None


def split(figures: list[dict[str, Any]]) -> dict[str, float | None]:
    """A server's CPU split into a cost per match (room created, joined, ended) and a cost per
    move, from its figures at several mixes (hands a match): the least-squares line of CPU µs an
    action against matches an action, ``µs/action = per_move + per_match * matches/action``.

    >>> split([{"cpu_us_per_action": 60.0, "matches_per_action": 1 / 64},
    ...        {"cpu_us_per_action": 52.0, "matches_per_action": 1 / 320}])
    {'per_move_us': 50.0, 'per_match_us': 640.0}
    """
    points = [(f["matches_per_action"], f["cpu_us_per_action"]) for f in figures]
    if any(x is None or y is None for x, y in points) or len({x for x, _ in points}) < 2:
        return {"per_move_us": None, "per_match_us": None}
    n = len(points)
    mx, my = sum(x for x, _ in points) / n, sum(y for _, y in points) / n
    slope = sum((x - mx) * (y - my) for x, y in points) / sum((x - mx) ** 2 for x, _ in points)
    return {"per_move_us": round(my - slope * mx, 1), "per_match_us": round(slope, 1)}


FIGURES = (
    "actions_per_s",
    "cpu_us_per_action",
    "actions_per_cpu_s",
    "p50_ms",
    "p99_ms",
    "messages_per_action",
    "bytes_per_action",
    "server_cpu_percent",
    "generator_cpu_percent",
    "matches_per_s",
    "matches_per_action",
    "serving_user_us_per_action",
    "serving_system_us_per_action",
    "children_us_per_action",
)


def medians(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The median of each figure over the runs of one server and room count."""
    out: dict[str, Any] = {}
    for f in FIGURES:
        values = [r[f] for r in rows if r[f] is not None]
        out[f] = round(statistics.median(values), 3) if values else None
    out["actions"] = sum(r["actions"] for r in rows)
    out["errors"] = sum(sum(r["errors"].values()) for r in rows)
    return out


class ServerGone(RuntimeError):
    """A server of the comparison ended during the run."""


def measure(
    args: argparse.Namespace,
    node: str,
    key: str,
    server: Child,
    rooms: int,
    hands: int,
    bar: Any,
    seconds: float | None = None,
    warmup: float | None = None,
) -> dict[str, Any]:
    """One window of the generator against one server (``--seconds`` after ``--warmup``
    unless given): its figures. ``bar``, when not None, moves a second a second."""
    seconds = args.seconds if seconds is None else seconds
    warmup = args.warmup if warmup is None else warmup
    if server.proc.poll() is not None:
        said = server.output().strip()
        raise ServerGone(f"the {key} server ended (exit {server.proc.returncode}): {said[-2000:] or 'no output'}")
    target = SERVERS[key][1]
    url = f"ws://127.0.0.1:{server.port}" + ("/ws" if target == "paiju" else "")
    cmd = [node, "loadgen.js", "--target", target, "--url", url, "--rooms", str(rooms)]
    cmd += ["--seconds", f"{seconds:g}", "--warmup", f"{warmup:g}", "--hands", str(hands)]
    cmd += ["--seed", str(args.seed), "--batch", "1" if args.batch else "0"]
    gen = subprocess.Popen(cmd, cwd=COLYSEUS, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert gen.stdout is not None
    # (the server's CPU by process, generator CPU, wall) at open and close
    marks: list[tuple[dict[int, tuple[float, float, int]], float, float]] = []
    report: dict[str, Any] | None = None
    ticked = 0
    try:
        for line in gen.stdout:
            msg = json.loads(line)
            if msg["event"] in ("start", "end"):
                marks.append((cpu_by_process(server.proc.pid), cpu_of(gen.pid), time.perf_counter()))
            if msg["event"] == "start" and bar is not None:
                bar.update(round(warmup))
            elif msg["event"] == "tick" and bar is not None:
                ticked += 1
                bar.update(1)
            elif msg["event"] == "end":
                report = msg
                if bar is not None:
                    bar.update(max(0, round(seconds) - ticked))
                break
        with contextlib.suppress(subprocess.TimeoutExpired):
            gen.wait(15)
    finally:
        end(gen)
    if report is None or len(marks) != 2:
        err = gen.stderr.read().strip() if gen.stderr else ""
        raise RuntimeError(f"the load generator against {key} stopped early: {err or 'no output'}")
    (s0, g0, w0), (s1, g1, w1) = marks
    actions = report["actions"]
    by_process = per_process(s0, s1, server.proc.pid, actions)
    cpu, wall = sum(p["cpu_s"] for p in by_process), w1 - w0
    seconds = report["seconds"]
    serving, kids = by_process[0], by_process[1:]
    return {
        "server": key,
        "rooms": rooms,
        "hands_per_match": hands,
        "actions": actions,
        "seconds": round(seconds, 3),
        "server_cpu_s": round(cpu, 3),
        "actions_per_s": round(actions / seconds, 1),
        "cpu_us_per_action": round(1e6 * cpu / actions, 1) if actions else None,
        "actions_per_cpu_s": round(actions / cpu, 1) if cpu > 0 else None,
        "p50_ms": _ms(report["p50_ms"]),
        "p99_ms": _ms(report["p99_ms"]),
        "messages_per_action": round(report["messages"] / actions, 3) if actions else None,
        "bytes_per_action": round(report["bytes"] / actions, 1) if actions else None,
        "server_cpu_percent": round(100 * cpu / wall, 1),
        "generator_cpu_percent": round(100 * (g1 - g0) / wall, 1),
        "matches_per_s": round(report["matches"] / seconds, 2),
        "matches_per_action": round(report["matches"] / actions, 6) if actions else None,
        "serving_user_us_per_action": serving["user_us_per_action"],
        "serving_system_us_per_action": serving["system_us_per_action"],
        "children_us_per_action": round(sum(k["cpu_s"] for k in kids) * 1e6 / actions, 1) if actions else None,
        "cpu_by_process": by_process,
        "hands": report["hands"],
        "matches": report["matches"],
        "idle_tables": report["idle_tables"],
        "errors": report["errors"],
    }


def per_process(
    before: dict[int, tuple[float, float, int]], after: dict[int, tuple[float, float, int]], serving: int, actions: int
) -> list[dict[str, Any]]:
    """The CPU each process of a server used between two readings of :func:`cpu_by_process`
    (the serving process first, then its children, each from 0 if it started meanwhile),
    in seconds and in µs an action (user, system).

    >>> per_process({1: (1.0, 0.5, 0)}, {1: (1.5, 0.6, 0), 2: (0.2, 0.0, 10)}, 1, 1000)
    ... # doctest: +NORMALIZE_WHITESPACE
    [{'process': 'serving', 'pid': 1, 'nice': 0, 'cpu_s': 0.6, 'user_us_per_action': 500.0,
      'system_us_per_action': 100.0},
     {'process': 'child', 'pid': 2, 'nice': 10, 'cpu_s': 0.2, 'user_us_per_action': 200.0,
      'system_us_per_action': 0.0}]
    """
    out = []
    for pid in sorted(after, key=lambda p: (p != serving, p)):
        user, system, nice = after[pid]
        u0, s0, _ = before.get(pid, (0.0, 0.0, nice))
        du, ds = user - u0, system - s0
        out.append(
            {
                "process": "serving" if pid == serving else "child",
                "pid": pid,
                "nice": nice,
                "cpu_s": round(du + ds, 3),
                "user_us_per_action": round(1e6 * du / actions, 1) if actions else None,
                "system_us_per_action": round(1e6 * ds / actions, 1) if actions else None,
            }
        )
    return out


def _ms(value: float | None) -> float | None:
    return round(value, 2) if value is not None else None


def num(v: float | None, fmt: str) -> str:
    return "-" if v is None else format(v, fmt)


def table(figures: dict[str, Any], rooms: int, hands: int) -> str:
    """The figures of one room count and mix as a text table (medians), with the ratio."""
    lines = [
        f"{rooms} rooms, {hands} hands a match (medians)",
        f"  {'server':<34}{'actions/s':>10}{'CPU µs/action':>15}{'actions/CPU-s':>15}{'p50/p99 ms':>15}"
        f"{'msgs/action':>13}{'bytes/action':>14}",
    ]
    for key, (label, _) in SERVERS.items():
        if key not in figures:
            continue
        f = figures[key]
        lat = f"{num(f['p50_ms'], '.1f')}/{num(f['p99_ms'], '.1f')}"
        lines.append(
            f"  {label:<34}{num(f['actions_per_s'], ',.0f'):>10}{num(f['cpu_us_per_action'], ',.0f'):>15}"
            f"{num(f['actions_per_cpu_s'], ',.0f'):>15}{lat:>15}{num(f['messages_per_action'], '.2f'):>13}"
            f"{num(f['bytes_per_action'], '.0f'):>14}"
        )
    split = [
        f"{SERVERS[key][0]} {num(f['serving_user_us_per_action'], '.1f')}"
        f" + {num(f['serving_system_us_per_action'], '.1f')}, its children {num(f['children_us_per_action'], '.1f')}"
        for key, f in figures.items()
        if key in SERVERS and (f["children_us_per_action"] or 0) > 0
    ]
    if split:  # (a Node server is one process)
        lines.append(f"  server CPU µs an action by process, the serving one's user + system: {'; '.join(split)}")
    if figures["ratio"] is not None or figures["ratio_default"] is not None:
        lines.append(
            f"  paiju / Colyseus-patch-per-move in actions per server-CPU-second: {num(figures['ratio'], '.2f')} "
            f"(against the 50 ms default: {num(figures['ratio_default'], '.2f')})"
        )
    if figures.get("ratio_floor") is not None or figures.get("floor_ratio_default") is not None:
        lines.append(
            f"  paiju / the Python floor in actions per server-CPU-second: {num(figures['ratio_floor'], '.2f')}; "
            f"the floor / Colyseus-patch-per-move {num(figures['floor_ratio'], '.2f')} "
            f"(against the 50 ms default: {num(figures['floor_ratio_default'], '.2f')})"
        )
    if figures.get("ratio_floor_callback") is not None:
        lines.append(
            "  the floor with a callback reader / with recv() in actions per server-CPU-second: "
            f"{num(figures['ratio_floor_callback'], '.2f')}"
        )
    if figures.get("ratio_baseline") is not None:
        lines.append(
            f"  paiju / the baseline checkout in actions per server-CPU-second: {num(figures['ratio_baseline'], '.3f')}"
        )
    return "\n".join(lines)


def side_by_side(out: dict[str, Any], rooms_counts: list[int], hands_counts: list[int]) -> str:
    """The mixes side by side: each server's actions per server-CPU-second at each mix, and its
    CPU split into a cost per match and a cost per move (:func:`split`)."""
    mixes = "".join(f"{f'{h} hands':>14}" for h in hands_counts)
    lines = [
        "actions per server-CPU-second by hands a match (medians), and the CPU split into per match and per move",
        f"  {'rooms':>5}  {'server':<34}{mixes}{'µs a match':>12}{'µs a move':>11}",
    ]
    for rooms in rooms_counts:
        for key, (label, _) in SERVERS.items():
            if key not in out["split"][str(rooms)]:
                continue
            rates = "".join(
                f"{num(out['mixes'][str(h)][str(rooms)][key]['actions_per_cpu_s'], ',.0f'):>14}" for h in hands_counts
            )
            cost = out["split"][str(rooms)][key]
            lines.append(
                f"  {rooms:>5}  {label:<34}{rates}{num(cost['per_match_us'], ',.0f'):>12}"
                f"{num(cost['per_move_us'], ',.1f'):>11}"
            )
        ratios = [out["mixes"][str(h)][str(rooms)] for h in hands_counts]
        if any(r["ratio"] is not None or r["ratio_default"] is not None for r in ratios):
            text = ", ".join(
                f"{h} hands {num(r['ratio'], '.2f')} / {num(r['ratio_default'], '.2f')}"
                for h, r in zip(hands_counts, ratios, strict=True)
            )
            lines.append(f"  {'':>5}  paiju / Colyseus per move / default: {text}")
    return "\n".join(lines)
