"""`paiju bench cluster`: several `paiju serve --redis` nodes and `paiju bots` workers around
one redis-server, rooms of every game created through different nodes, two people in each
room who connect to different nodes (the second follows the REDIRECT to the room's owner),
and one node killed (SIGKILL) or drained (SIGTERM) mid-hand under that load.

Every client plays random legal moves and, when its connection is lost, resumes with its
token through any node (:meth:`client.Client.reconnect`). At the end each room's log is read
from Redis and checked against what the clients saw:

- every match completed (MATCH_END), and the RESULTs each client got equal a replay of the log;
- lost actions: an action a client had acknowledged (ACK) that the log does not hold;
- duplicated actions: a prompt answered twice in the log;
- gaps and duplicates in the event numbers each client received across its connections;
- ERROR frames the clients received, by code;
- the takeover time: from the kill until Redis names a live owner for every room of the
  dead node (and the longest wait of a client between losing its node and resuming).

The lobby is also listed through every node once the rooms exist: the same rooms from each.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import random
import shutil
import signal
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from paiju import games
from paiju.cli.args import fail, positive_float, positive_int
from paiju.client import Client, Closed, ServerError
from paiju.protocol import Ack, Action, Error, ErrorCode, Event, Prompt, Result, RoomEvent, RoomState
from paiju.testing import launch
from paiju.testing.launch import Child

GAMES = ("tricks", "niujiu", "mahjong", "bridge")
STALL = 120.0  # seconds without a frame after which a player is given up (each move has a 30 s clock)
SECRET = "bench-cluster"
WARNINGS = 12  # the last warnings of each process's log a failed run prints


@dataclass
class Player:
    """One person in one room, over all its connections."""

    room: str
    name: str
    first_url: str
    client: Client | None = None
    results: list[Result] = field(default_factory=list)
    acked: set[int] = field(default_factory=set)
    errors: list[int] = field(default_factory=list)
    # answers that crossed their prompt's withdrawal on the wire (a defender's ACCEPT after
    # the other's REJECT): refused with NO_SUCH_PROMPT after the withdrawal, in any server
    crossed: int = 0
    seqs: list[int] = field(default_factory=list)
    snapshots: int = 0  # ROOM_STATEs after the first: a resume that lost its position
    resumes: list[float] = field(default_factory=list)  # seconds from losing the link to WELCOME
    ended: bool = False
    stalled: bool = False  # nothing came for STALL seconds before MATCH_END


@dataclass
class Report:
    nodes: int = 0
    workers: int = 0
    rooms: int = 0
    games: dict[str, int] = field(default_factory=dict)
    lobby_consistent: bool = False
    lobby_rooms: int = 0
    signal: str = "none"
    victim: str = ""  # the node that went: the one holding the most rooms in play at the moment
    victim_rooms: int = 0
    handed_over: int = 0  # rooms a node took from a draining one (its log: "handed over to this node")
    taken_over: int = 0  # rooms a node took from one whose lease ran out ("taken over from node")
    completed: int = 0
    equal_to_replay: int = 0
    actions: int = 0
    lost: int = 0
    duplicated: int = 0
    gaps: int = 0
    duplicate_events: int = 0
    snapshots: int = 0
    errors: dict[int, int] = field(default_factory=dict)
    crossed: int = 0
    redirects: int = 0
    resumes: int = 0
    takeover_s: float | None = None
    resume_max_s: float | None = None
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)
    # the processes' last warnings and errors (a node's lease renewed late, a room fenced
    # off): printed when the run fails, to say what happened
    warnings: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        bad = self.lost + self.duplicated + self.gaps + self.duplicate_events + self.snapshots
        return (
            not bad
            and self.completed == self.rooms
            and self.equal_to_replay == self.rooms
            and self.lobby_consistent
            and not self.problems
        )

    def lines(self) -> list[str]:
        errs = ", ".join(f"{c}: {n}" for c, n in sorted(self.errors.items())) or "none"
        out = [
            f"{self.nodes} nodes, {self.workers} robot workers, {self.rooms} rooms "
            f"({', '.join(f'{g} {n}' for g, n in self.games.items())}), 2 people per room on different nodes",
            f"lobby listed through every node: {'the same' if self.lobby_consistent else 'DIFFERENT'} "
            f"({self.lobby_rooms} rooms)",
            f"{self.signal} on node {self.victim or '-'} holding {self.victim_rooms} rooms; rooms handed over "
            f"(a drain): {self.handed_over}, taken over (a lease run out): {self.taken_over}",
            f"completed matches: {self.completed}/{self.rooms}; results equal to the replay of the log: "
            f"{self.equal_to_replay}/{self.rooms}",
            f"actions in the logs: {self.actions}; lost: {self.lost}; duplicated: {self.duplicated}",
            f"events: gaps {self.gaps}, duplicates {self.duplicate_events}, snapshots after a resume {self.snapshots}",
            f"ERROR frames seen by clients: {errs}; redirects followed: {self.redirects}; resumes: {self.resumes}",
            f"answers that crossed their prompt's withdrawal (NO_SUCH_PROMPT after it, not counted above): "
            f"{self.crossed}",
        ]
        if self.takeover_s is not None:
            out.append(f"takeover: every room of the node owned by a live node {self.takeover_s:.2f} s after the kill")
        if self.resume_max_s is not None:
            out.append(f"longest client wait from a lost connection to its resume: {self.resume_max_s:.2f} s")
        out += [f"problem: {p}" for p in self.problems]
        if not self.ok:
            out += [f"log of {w}" for w in self.warnings]
        out.append(f"{self.seconds:.1f} s")
        return out


# ------------------------------------------------------------------ processes
def start_node(folder: Path, redis: str, name: str, lease: float, grace: float) -> Child:
    """`paiju serve --redis` as node ``name``, its output in ``folder`` (``.started()`` waits
    until it listens: the nodes start at once)."""
    db = f"sqlite:///{folder / (name + '.sqlite3')}"
    return launch.paiju(
        "serve",
        "--port",
        "0",
        "--redis",
        redis,
        "--server-id",
        name,
        "--secret",
        SECRET,
        "--lease",
        str(lease),
        "--database",
        db,
        "--no-robot-on-drop",  # a seat waits for its person (the clock would play it after 30 s)
        "--grace",
        str(grace),
        "--hand-pause",
        "0",
        "--robot-pace",
        "0",
        "--rate",
        "500",
        "--burst",
        "500",
        "--log-level",
        "INFO",
        log=folder / f"{name}.log",
    )


# ------------------------------------------------------------------ clients
async def play(p: Player, rng: random.Random, deadline: float) -> None:
    """Random legal moves until MATCH_END, resuming through any node when the link is lost."""
    c = p.client
    assert c is not None
    first_state = True
    waiting = ""  # the last ROOM_STATE's
    answered: set[int] = set()  # on this connection (a resume may send a prompt again)
    withdrawn: set[int] = set()  # on this connection
    while not p.ended:
        try:
            f = await c.recv(timeout=max(0.1, min(STALL, deadline - time.monotonic())))
        except TimeoutError:
            p.stalled = True
            return
        except Closed:
            t0 = time.monotonic()
            await c.reconnect(timeout=max(1.0, deadline - time.monotonic()))
            p.resumes.append(time.monotonic() - t0)
            answered.clear()
            withdrawn.clear()
            continue
        if isinstance(f, Event):
            p.seqs.append(f.seq)
            p.ended = f.code == RoomEvent.MATCH_END
        elif isinstance(f, Result):
            p.results.append(f)
        elif isinstance(f, Ack):
            p.acked.add(f.prompt_id)
        elif isinstance(f, Error):
            if f.code == ErrorCode.NO_SUCH_PROMPT and f.ref_id in withdrawn:
                p.crossed += 1
            else:
                p.errors.append(f.code)
        elif isinstance(f, RoomState):
            # (a room held for its robots' worker says so, and that it no longer is: a restate)
            restate = f.waiting != waiting
            p.snapshots += 0 if first_state or restate else 1
            first_state, waiting = False, f.waiting
        elif isinstance(f, Prompt) and not f.mask:
            withdrawn.add(f.prompt_id)
        elif isinstance(f, Prompt) and f.prompt_id in c.prompts and f.prompt_id not in answered:
            answered.add(f.prompt_id)
            opt = rng.choice(f.options)
            with contextlib.suppress(Exception):  # a lost link: the resume brings the prompt again
                await c.send(Action(f.prompt_id, opt.code, bytes(rng.sample(list(opt.cards), opt.pick))))


class Unseated(Exception):
    """A room's two people could not be seated: the step, and what the server or the link said."""


async def seat_room(i: int, game: str, urls: list[str], args: argparse.Namespace) -> tuple[Player, Player]:
    """Room ``i``: created through node ``i``, its second person connected to node ``i + 1``
    (:class:`Unseated` names the step that failed)."""
    n = games.create(game, 0).num_seats
    a_url, b_url = urls[i % len(urls)], urls[(i + 1) % len(urls)]
    a = b = None
    step = f"a{i} connecting to {a_url}"
    try:
        a = await Client.connect(a_url, f"a{i}", urls=urls)
        step = f"a{i} creating it through {a.url}"
        bots = list(range(2, n))
        st = await a.create(game, bots=bots, robot=args.robot, hands=args.hands, clock_ms=30_000, seed=args.seed + i)
        step = f"b{i} connecting to {b_url}"
        b = await Client.connect(b_url, f"b{i}", urls=urls)
        step = f"b{i} joining seat 1 of {st.room} through {b.url}"
        await b.join(st.room, 1)
    except (ServerError, Closed, OSError, TimeoutError) as e:
        for c in (a, b):
            if c is not None:
                await c.close()
        raise Unseated(f"{step}: {type(e).__name__}: {e}") from e
    return Player(st.room, a.name, a_url, a), Player(st.room, b.name, b_url, b)


async def lobby_everywhere(urls: list[str], rooms: set[str], timeout: float = 10) -> tuple[bool, int]:
    """List the rooms through every node until each lists the same rooms, all of ``rooms``
    that are still in play among them."""
    clients = [await Client.connect(u, "lobby") for u in urls]
    try:
        async with asyncio.timeout(timeout):
            while True:
                lists = [{r.room for r in await c.list_rooms()} for c in clients]
                if all(x == lists[0] for x in lists) and len(lists[0] & rooms) >= len(rooms) * 0.9:
                    return True, len(lists[0])
                await asyncio.sleep(0.1)
    except TimeoutError:
        return False, 0
    finally:
        for c in clients:
            await c.close()


# ------------------------------------------------------------------ checks
def check_room(entries: list[bytes], players: list[Player], report: Report) -> None:
    """Compare room's log with what its players saw (adds to ``report``)."""
    from paiju.core.lifecycle import Phase
    from paiju.core.roomlog import replay, unpack

    rid = players[0].room
    r = replay(rid, entries)
    # ["act", seat, code, cards, prompt id]: each prompt has its own id in a room (a bridge
    # declarer answers dummy's prompts under dummy's seat), so an id logged twice is an
    # action applied twice, and an acknowledged id that is not logged is an action lost
    acts = [e[4] for e in map(unpack, entries) if e[0] == "act"]
    report.actions += len(acts)
    report.duplicated += len(acts) - len(set(acts))
    logged = set(acts)
    if r.phase is Phase.OVER and all(p.ended for p in players):
        report.completed += 1
    if all(p.results == r.results for p in players) and r.results and r.results[-1].final:
        report.equal_to_replay += 1
    for p in players:
        if p.stalled:
            c = p.client
            assert c is not None
            report.problems.append(
                f"room {rid}: {p.name} heard nothing for {STALL:g} s before the match's end "
                f"(on {c.url}, last event {c.seq}, log at {r.seq}, {len(p.resumes)} resumes)"
            )
        report.lost += len(p.acked - logged)
        seqs = p.seqs
        report.duplicate_events += len(seqs) - len(set(seqs))
        report.gaps += sum(max(0, y - x - 1) for x, y in itertools.pairwise(seqs))  # events never received
        report.snapshots += p.snapshots
        report.crossed += p.crossed
        for code in p.errors:
            report.errors[code] = report.errors.get(code, 0) + 1
        report.resumes += len(p.resumes)
        assert p.client is not None
        report.redirects += p.client.redirects


# ------------------------------------------------------------------ the run
async def owners_of(r: Any) -> dict[str, str]:
    """Each room in play and the node that owns it, from the directory in Redis."""
    from paiju.bus.link import ROOMS

    got = await r.hgetall(ROOMS)
    return {_text(k): _text(v) for k, v in got.items()}


def _text(v: bytes | str) -> str:
    return v.decode() if isinstance(v, bytes) else v


async def cluster(args: argparse.Namespace, folder: Path, progress: Any = None) -> Report:
    import redis.asyncio as aioredis

    from paiju.bus.link import room_log

    t0 = time.monotonic()
    report = Report(nodes=args.nodes, workers=args.workers, rooms=args.rooms, signal=args.kill)
    procs: list[Child] = []  # the nodes and workers
    redis_proc: Child | None = None
    redis_url = args.redis
    if redis_url is None:
        redis_proc, redis_url = launch.redis(unix=folder / "redis.sock", log=folder / "redis.log")
    r = aioredis.from_url(redis_url)
    players: list[tuple[Player, Player]] = []
    try:
        nodes = [start_node(folder, redis_url, f"n{k}", args.lease, args.grace) for k in range(args.nodes)]
        workers = [
            launch.paiju("bots", "--redis", redis_url, "--name", f"w{k}", "--processes", "1", log=folder / f"w{k}.log")
            for k in range(args.workers)
        ]
        procs += nodes + workers
        urls = [n.started().url for n in nodes]  # they start at once
        for k, w in enumerate(workers):
            w.started(rf"serving .* as w{k}")
        for i in range(args.rooms):
            game = GAMES[i % len(GAMES)]
            report.games[game] = report.games.get(game, 0) + 1
            try:
                players.append(await seat_room(i, game, urls, args))
            except Unseated as e:
                report.problems.append(f"room {i} ({game}) could not be seated: {e}")
        rooms = {a.room for a, _ in players}
        report.lobby_consistent, report.lobby_rooms = await lobby_everywhere(urls, rooms)
        rng = random.Random(args.seed)
        deadline = time.monotonic() + args.timeout
        tasks = [asyncio.create_task(play(p, random.Random(rng.random()), deadline)) for pair in players for p in pair]
        if args.kill != "none":
            await asyncio.sleep(args.kill_after)
            # the node that holds the most rooms still in play goes (a room whose match is
            # over and whose end has gone out is not handed over: nobody would resume)
            owners = await owners_of(r)
            names = [f"n{k}" for k in range(args.nodes)]
            report.victim = max(names, key=lambda n: sum(1 for o in owners.values() if o == n))
            report.victim_rooms = sum(1 for o in owners.values() if o == report.victim)
            killed = time.monotonic()
            victim = nodes[names.index(report.victim)].proc
            victim.send_signal(signal.SIGKILL if args.kill == "sigkill" else signal.SIGTERM)
            while time.monotonic() < deadline:
                owners = await owners_of(r)
                if not any(o == report.victim for o in owners.values()):
                    report.takeover_s = time.monotonic() - killed
                    break
                await asyncio.sleep(0.05)
        for t in asyncio.as_completed(tasks):
            await t
            if progress is not None:
                progress.update(1)
        for a, b in players:
            entries = [e if isinstance(e, bytes) else e.encode() for e in await r.lrange(room_log(a.room), 0, -1)]
            if not entries:
                report.problems.append(f"room {a.room}: no log in Redis")
                continue
            check_room(entries, [a, b], report)
        waits = [w for pair in players for p in pair for w in p.resumes]
        report.resume_max_s = max(waits) if waits else None
    finally:
        for pair in players:
            for p in pair:
                if p.client is not None:
                    await p.client.close()
        await r.aclose()
        for proc in procs:  # all at once (each node drains on its own), then redis-server
            if proc.proc.poll() is None:
                proc.proc.send_signal(signal.SIGTERM)
        for proc in [*procs, *([redis_proc] if redis_proc else [])]:
            name = proc.log.name if proc.log else proc.cmd[0]
            out = proc.stop(timeout=30)
            report.handed_over += out.count("handed over to this node")
            report.taken_over += out.count("taken over from node")
            if "Traceback" in out:
                report.problems.append(f"a traceback in {name}")
            warned = [line for line in out.splitlines() if " WARNING " in line or " ERROR " in line]
            report.warnings += [f"{name}: {line}" for line in warned[-WARNINGS:]]
    report.seconds = time.monotonic() - t0
    return report


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--nodes", type=positive_int, default=3, help="paiju serve --redis nodes (default %(default)s)")
    p.add_argument("--workers", type=positive_int, default=2, help="paiju bots workers (default %(default)s)")
    p.add_argument("--rooms", type=positive_int, default=60, help="rooms, games in turn (default %(default)s)")
    p.add_argument("--hands", type=positive_int, default=2, help="hands per match (default %(default)s)")
    p.add_argument(
        "--kill",
        choices=("sigkill", "sigterm", "none"),
        default="sigkill",
        help="what happens mid-hand to the node holding the most rooms (default %(default)s)",
    )
    p.add_argument(
        "--kill-after", type=positive_float, default=3.0, help="seconds of play before it (default %(default)s)"
    )
    p.add_argument("--lease", type=positive_float, default=5.0, help="the nodes' --lease (default %(default)s)")
    p.add_argument("--grace", type=positive_float, default=60.0, help="the nodes' --grace (default %(default)s)")
    p.add_argument(
        "--timeout", type=positive_float, default=600.0, help="seconds for all matches (default %(default)s)"
    )
    p.add_argument("--seed", type=int, default=1, help="(default %(default)s)")
    p.add_argument("--robot", metavar="NAME", help="the robot in the other seats (default: each game's strongest)")
    p.add_argument("--redis", metavar="URL", help="an empty Redis database to use (default: start a redis-server)")
    p.add_argument("--keep", metavar="DIR", help="keep the processes' logs in DIR")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")


def run(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    if args.nodes < 2 and args.kill != "none":
        return fail("bench cluster", "--kill needs at least 2 nodes (one dies, another takes its rooms)")
    folder = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="paiju-cluster-"))
    folder.mkdir(parents=True, exist_ok=True)
    try:
        with tqdm(total=2 * args.rooms, unit="player", disable=args.json, desc="matches") as bar:
            report = asyncio.run(cluster(args, folder, bar))
    except RuntimeError as e:
        return fail("bench cluster", str(e), 1)
    finally:
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)
    if args.json:
        print(json.dumps(report.__dict__ | {"ok": report.ok}, default=str))
    else:
        print("\n".join(report.lines()))
    return 0 if report.ok else 1
