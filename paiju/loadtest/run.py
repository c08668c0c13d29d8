"""One load run: probe the game, open the connections over the ramp, measure for the
duration, stop everything, and report.

>>> o = Options(rooms=3)
>>> o.tables(seats=4)
(3, 4)
>>> Options(clients=10, robots_per_room=1).tables(seats=4)
(4, 3)
>>> Options(robots_per_room=4, rooms=2).tables(seats=4)
(2, 0)
"""

from __future__ import annotations

import asyncio
import math
import random
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from paiju.loadtest.clients import Session, Table, code_name, echo, idle, table_echo
from paiju.loadtest.scrape import Scrape, metrics_url, scrape, server_figures
from paiju.loadtest.stats import LATENCIES, Stats, Tick, summary
from paiju.protocol import CreateRoom, Error, RoomState


class LoadError(Exception):
    """The run cannot start (server unreachable, unknown game, bad counts)."""


@dataclass
class Options:
    url: str = "ws://127.0.0.1:8765/ws"
    game: str = "tricks"
    rooms: int | None = None  # tables at once (default: from clients, else 10)
    clients: int | None = None  # players at once (default: rooms x human seats)
    robots_per_room: int = 0
    hands: int = 4  # hands per match (a table plays match after match)
    duration: float = 10.0  # seconds measured, after the ramp
    ramp: float = 1.0  # seconds over which the connections open
    idle: int = 0  # connections that only ping
    ping_interval: float = 2.0
    drops: int = 0  # connections cut on purpose during the window (they resume)
    seed: int | None = None
    metrics: str | None = None  # the server's /metrics (default: from url; "" = none)
    robot: str | None = None  # robot of the robot seats (default: the server's choice)
    pace: float | None = None  # actions/s of all our players together (default: as fast as answered)
    echo: bool = False  # the bare round trip instead of games (paiju bench server)
    connections: int = 0  # echo: connections
    echo_tables: int = 0  # echo: tables of the relay (paiju/loadtest/echo.py), robots_per_room robot seats each
    echo_humans: int = 0  # echo: players at each table of the relay
    batch: bool = True  # the players ask for batches (HELLO's Feature.BATCH): one message a burst

    def tables(self, seats: int) -> tuple[int, int]:
        """``(tables, human players per table)`` for a game of ``seats`` seats."""
        humans = seats - self.robots_per_room
        if self.rooms is not None:
            return self.rooms, humans
        if self.clients is not None:
            return math.ceil(self.clients / max(humans, 1)), humans
        return 10, humans


@dataclass
class Report:
    options: Options
    seats: int
    tables: int
    humans: int
    stats: Stats
    server: dict[str, Any] | None

    def as_dict(self) -> dict[str, Any]:
        """The JSON object of ``paiju loadtest --json``."""
        s = self.stats
        secs = s.elapsed
        o = self.options
        return {
            "url": o.url,
            "game": None if o.echo else o.game,
            "mode": "echo" if o.echo else "play",
            "seats": self.seats,
            "rooms": self.tables,
            "players_per_room": self.humans,
            "robots_per_room": o.robots_per_room,
            "robot": s.robot,
            "idle": o.idle,
            "duration_s": round(secs, 3),
            "actions": s.actions,
            "actions_per_s": round(s.actions / secs, 1),
            "round_trips_per_s": round(s.round_trips / secs, 1),
            "hands": s.hands,
            "hands_per_s": round(s.hands / secs, 2),
            "matches": s.matches,
            "frames_per_s": round((s.frames_in + s.frames_out) / secs, 1),
            "frames_in_per_s": round(s.frames_in / secs, 1),
            "messages_in_per_s": round(s.messages_in / secs, 1),
            "batch": o.batch,
            "frames_out_per_s": round(s.frames_out / secs, 1),
            # the generator's own cost (this process, every client): it must stay well under the server's
            "generator_cpu_percent": round(100 * s.cpu / secs, 1) if secs else 0.0,
            "generator_cpu_us_per_frame": round(1e6 * s.cpu / max(s.frames_in + s.frames_out, 1), 1),
            "latency_ms": {k: summary(s.lat[k]) for k in LATENCIES},
            "errors": dict(sorted(s.errors.items())),
            "error_count": sum(s.errors.values()),
            "stale_actions": s.stale,
            "timeouts": s.timeouts,
            "connections_peak": s.peak_connections,
            "connect_failures": s.connect_failures,
            "disconnects": s.disconnects,
            "drops": s.drops,
            "resumes": s.resumes,
            "server": self.server,
            "series": [vars(t) for t in s.ticks],
        }


async def probe(url: str, game: str, batch: bool = True) -> int:
    """The number of seats of ``game`` on the server at ``url``: a private room is created
    and left at once (it never starts). ``batch``: HELLO asks for batches."""
    stats, stopping = Stats(), asyncio.Event()
    s = Session(url, "load-probe", stats, stopping, batch=batch)
    try:
        async with asyncio.timeout(15):
            try:
                await s.open()
            except Exception:
                raise LoadError(f"cannot connect to {url}") from None
            await s.send(CreateRoom(game, None, 1, None, [], None, True, None, None))
            async for f in s.frames():
                if isinstance(f, Error):
                    raise LoadError(f"the server refused a {game} room: {code_name(f.code)}: {f.message}")
                if isinstance(f, RoomState):
                    return len(f.seats)  # closing leaves the room
    except TimeoutError:
        raise LoadError(f"no answer from {url} within 15 s") from None
    finally:
        stopping.set()
        await s.close()
    raise LoadError(f"{url} closed the connection")


async def run(
    o: Options,
    on_tick: Callable[[Tick, Stats], None] | None = None,
    on_window: Callable[[bool], None] | None = None,
) -> Report:
    """Drive the load described by ``o``; ``on_tick`` is called once a second (the live
    display), ``on_window(True)`` when the measured window opens and ``(False)`` when it closes."""
    if min(o.duration, o.pace or 1.0) <= 0 or min(o.ramp, o.idle, o.drops) < 0 or o.hands < 1:
        raise LoadError("--duration > 0, --ramp >= 0, --idle >= 0, --drops >= 0, --hands >= 1, --pace > 0 are needed")
    rng = random.Random(o.seed)
    seats, tables, humans = 0, 0, 0
    if not o.echo:
        if o.rooms is not None and o.clients is not None:
            raise LoadError("give --rooms or --clients, not both (--clients N: N players, rooms = N / players a room)")
        if o.rooms == 0 and o.idle > 0:
            pass  # idle connections only
        else:
            seats = await probe(o.url, o.game, o.batch)
            if not 0 <= o.robots_per_room <= seats:
                raise LoadError(f"{o.game} has {seats} seats: --robots-per-room must be 0..{seats}")
            tables, humans = o.tables(seats)
            if tables < 1:
                raise LoadError("nothing to do: --rooms and --clients must be at least 1")
    elif o.connections < 1 and o.echo_tables * o.echo_humans < 1:
        raise LoadError("echo: give connections, or tables with at least one player each")
    stats = Stats()
    stopping = asyncio.Event()
    murl = metrics_url(o.url) if o.metrics is None else o.metrics
    bots = list(range(seats - o.robots_per_room, seats))
    interval = tables / o.pace if o.pace else 0.0
    tabs = [
        Table(i, o.url, o.game, humans, bots, o.hands, stats, stopping, random.Random(rng.getrandbits(64)))
        for i in range(tables)
    ]
    for t in tabs:
        t.robot, t.interval = o.robot, interval
        for s in t.sessions:
            s.state.batch = o.batch

    async def later(delay: float, coro: Any) -> None:
        try:
            await asyncio.wait_for(stopping.wait(), delay)
            coro.close()
            return
        except TimeoutError:
            pass
        await coro

    tasks: list[asyncio.Task[None]] = []
    n_open = len(tabs) + o.idle + o.connections + o.echo_tables
    k = 0
    for t in tabs:
        tasks.append(asyncio.create_task(later(o.ramp * k / n_open, t.run())))
        k += 1
    idlers = [Session(o.url, f"idle{j}", stats, stopping) for j in range(o.idle)]
    # Handshakes in flight are bounded: a burst of thousands overflows the server's listen
    # backlog and times out, where the same connections made 64 at a time all get through.
    gate = asyncio.Semaphore(64)
    for s in [*idlers, *(s for t in tabs for s in t.sessions)]:
        s.gate = gate
    for s in idlers:
        tasks.append(asyncio.create_task(later(o.ramp * k / n_open, idle(s, o.ping_interval))))
        k += 1
    for _ in range(o.connections):
        tasks.append(asyncio.create_task(later(o.ramp * k / n_open, echo(o.url, stats, stopping, gate))))
        k += 1
    run_id = secrets.token_hex(4)  # tables of an earlier run may still be closing on the relay
    for j in range(o.echo_tables):
        relay = table_echo(o.url, f"{run_id}-{j}", o.echo_humans, o.robots_per_room, stats, stopping, gate)
        tasks.append(asyncio.create_task(later(o.ramp * k / n_open, relay)))
        k += 1

    origin = [time.perf_counter() + o.ramp]  # when the measured window opens (moved when it does)

    async def ticker() -> None:
        while not stopping.is_set():
            await asyncio.sleep(1.0)
            t = stats.tick(time.perf_counter(), origin[0])
            if on_tick is not None:
                on_tick(t, stats)

    async def dropper() -> None:
        for _ in range(o.drops):
            await asyncio.sleep(o.duration / (o.drops + 1))
            live = [s for t in tabs for s in t.sessions if s.ws is not None]
            if live and not stopping.is_set():
                await rng.choice(live).drop()

    tick_task = asyncio.create_task(ticker())
    before: Scrape | None = None
    after: Scrape | None = None
    expected = tables * max(humans, 1) + o.idle + o.connections + o.echo_tables * o.echo_humans
    try:
        await asyncio.sleep(o.ramp)
        # the window opens once every client is connected (connects that failed are retried),
        # or after as long again as the ramp (at least 10 s): a server that cannot take them
        # all shows in connections_peak
        settle = time.perf_counter() + max(o.ramp, 10.0)
        while stats.connections < expected and time.perf_counter() < settle:
            await asyncio.sleep(0.1)
        before = await scrape(murl) if murl else None
        t0 = origin[0] = time.perf_counter()
        stats.start()
        if on_window is not None:
            on_window(True)
        drops = asyncio.create_task(dropper())
        await asyncio.sleep(max(0.0, o.duration - (time.perf_counter() - t0)))
        after = await scrape(murl) if before is not None else None
        t1 = time.perf_counter()
        stats.stop()
        if on_window is not None:
            on_window(False)
        drops.cancel()
    finally:
        stopping.set()
        tick_task.cancel()
        # every player leaves its room and every connection closes: nothing plays on after the run
        await asyncio.gather(*(s.close() for s in [*idlers, *(s for t in tabs for s in t.sessions)]))
        done, pending = await asyncio.wait(tasks, timeout=10) if tasks else (set(), set())
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        for task in done:
            if not task.cancelled() and task.exception() is not None:
                stats.error(f"client: {type(task.exception()).__name__}")
    server = server_figures(before, after, t1 - t0) if before is not None and after is not None else None
    return Report(o, seats, tables, humans, stats, server)
