"""`paiju serve`: the game server. With no options, the embedded default: one process,
the in-memory bus, robots served in-process, no Redis; WebSocket at ws://HOST:PORT/ws,
the web client at http://HOST:PORT/, health at /healthz, Prometheus metrics at /metrics.

With ``--redis URL`` the bus is Redis (robots run in `paiju bots` workers), every room's
log is appended to Redis as it plays, and the rooms this server id owned are rebuilt from
their logs at start-up (tokens resume them when the secret comes from --secret or
PAIJU_SECRET). An unreachable or malformed URL at start-up is one line on stderr and a
non-zero exit; an outage later is survived (reconnection with backoff, bot seats fall back
to the default action meanwhile).

Accounts, match history and ratings go to the records database (``--database URL``, else env
PAIJU_DATABASE, else a SQLite file under the user's data directory), migrated at start-up; a
database that cannot be opened is one line on stderr and a non-zero exit.

This module is the only place where the server and the robots meet (docs/design.md §1: the
server never imports paiju/bots/).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import errno
import functools
import importlib
import logging
import os
import signal
import socket
import sys
from collections.abc import AsyncIterator, Callable
from typing import TYPE_CHECKING, Any

from paiju.cli import eventloop, heap
from paiju.cli.args import (
    fail,
    in_file,
    log_level,
    nonnegative_float,
    nonnegative_int,
    port,
    positive_float,
    positive_int,
    setup_logging,
)
from paiju.cli.db import add_database_argument
from paiju.core.config import DEFAULT_BANK_MS, DEFAULT_CLOCK_MS, Config, Limits

ROBOT_PACE = 0.6  # seconds: a robot's move in a room that people play in or watch
LINGER_MS = 50.0  # events, results and ACKs wait this long for company: a write, not one per move (docs/performance.md)


def clock_setting(text: str) -> tuple[str, int]:
    """``--clock GAME=MS`` (or ``--bank``): a registered game and a whole number of milliseconds.

    >>> clock_setting("mahjong=5000")
    ('mahjong', 5000)
    """
    from paiju import games

    game, eq, ms = text.partition("=")
    if not eq or not ms.strip().isdigit():
        raise argparse.ArgumentTypeError(f"{text!r} is not GAME=MS (e.g. mahjong=5000)")
    if game not in games.names():
        raise argparse.ArgumentTypeError(f"no game {game!r}; known: {', '.join(games.names())}")
    return game, int(ms)


if TYPE_CHECKING:
    from paiju.bots.pool import CallPool
    from paiju.bus.link import Link
    from paiju.records import Database
    from paiju.records.recorder import Recorder
    from paiju.server.app import Server
    from paiju.server.cluster import Cluster


def add_arguments(p: argparse.ArgumentParser) -> None:
    d = Limits()
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default %(default)s)")
    p.add_argument(
        "--port",
        type=port,
        default=int(os.environ.get("PAIJU_PORT", "8765")),
        help="port (default: env PAIJU_PORT, else 8765; 0 = any free port)",
    )
    p.add_argument("--secret", default=None, help="signs resume tokens (default: env PAIJU_SECRET, else random)")
    p.add_argument(
        "--redis",
        default=os.environ.get("PAIJU_REDIS") or None,
        metavar="URL",
        help="Redis bus and room logs, e.g. redis://127.0.0.1:6379/0 (default: env PAIJU_REDIS, else none)",
    )
    p.add_argument(
        "--server-id",
        default=os.environ.get("PAIJU_SERVER_ID") or socket.gethostname(),
        help="this process on the bus and owner of its rooms' logs; keep it across restarts "
        "(default: env PAIJU_SERVER_ID, else the host name)",
    )
    p.add_argument(
        "--advertise",
        default=os.environ.get("PAIJU_ADVERTISE") or None,
        metavar="URL",
        help="with --redis: the WebSocket URL other nodes send clients to for this node's rooms "
        "(default: env PAIJU_ADVERTISE, else ws://HOST:PORT/ws)",
    )
    p.add_argument(
        "--lease",
        type=positive_float,
        default=float(os.environ.get("PAIJU_LEASE", "5")),
        metavar="SECONDS",
        help="with --redis: a node's lease on its rooms; the rooms of a node that dies are taken "
        "over by the others within about 1.25 x this (default: env PAIJU_LEASE, else %(default)s)",
    )
    p.add_argument(
        "--log-ttl",
        type=positive_int,
        default=3600,
        help="seconds a finished room's log stays in Redis (default %(default)s)",
    )
    p.add_argument(
        "--robots-module",
        action="append",
        default=[],
        metavar="MODULE",
        help="import MODULE first (extra robots a room may ask for; give the workers the same)",
    )
    p.add_argument(
        "--pbn",
        type=in_file,
        metavar="FILE",
        help="a PBN file of bridge deals: bridge rooms created without their own deals play these",
    )
    p.add_argument(
        "--workers", type=positive_int, default=8, help="robot decisions handled at once in-process (default 8)"
    )
    p.add_argument(
        "--robot-processes",
        type=nonnegative_int,
        default=0,
        metavar="N",
        help="processes for the cpu-heavy robots (bridge's hybrid, Niujiu's automaton-mc, mahjong's bdi), "
        "started at their first decision (default 0: one per core)",
    )
    add_database_argument(p)
    g = p.add_argument_group("limits")
    g.add_argument(
        "--grace", type=nonnegative_float, default=d.grace, help="seconds a dropped player keeps the seat (%(default)s)"
    )
    g.add_argument("--max-rooms", type=positive_int, default=d.max_rooms, help="(default %(default)s)")
    g.add_argument("--max-connections", type=positive_int, default=d.max_connections, help="(default %(default)s)")
    g.add_argument(
        "--address-connections",
        type=nonnegative_int,
        default=d.address_connections,
        help="open connections per client address, 0 = no limit (%(default)s)",
    )
    g.add_argument(
        "--address-rooms",
        type=nonnegative_int,
        default=d.address_rooms,
        help="open rooms created from one client address, 0 = no limit (%(default)s)",
    )
    g.add_argument(
        "--address-rooms-per-minute",
        type=nonnegative_int,
        default=d.address_rooms_per_minute,
        help="rooms one client address may create in a minute, 0 = no limit (%(default)s)",
    )
    g.add_argument(
        "--login-delay",
        type=positive_float,
        default=d.login_delay,
        metavar="SECONDS",
        help="after 3 failed logins of one name from one address, each further try waits this long, "
        "doubled with each failure (never a lock of the account: other addresses and the owner's "
        "sessions are not slowed) (%(default)s)",
    )
    g.add_argument(
        "--login-delay-max",
        type=positive_float,
        default=d.login_delay_max,
        metavar="SECONDS",
        help="the longest wait of a failed login (%(default)s)",
    )
    g.add_argument(
        "--waiting-expiry",
        type=positive_float,
        default=d.waiting_expiry,
        metavar="SECONDS",
        help="a room whose match has not started after this long closes (%(default)s)",
    )
    g.add_argument(
        "--robot-wait",
        type=nonnegative_float,
        default=d.robot_wait,
        metavar="SECONDS",
        help="a full room waits this long for a worker that serves its robots (`paiju bots` started late) "
        "before it closes with ROBOTS_UNAVAILABLE; 0: no wait, the clock plays unserved robot seats (%(default)s)",
    )
    g.add_argument(
        "--send-queue", type=positive_int, default=d.send_queue, help="frames queued per connection (%(default)s)"
    )
    g.add_argument(
        "--stall",
        type=positive_float,
        default=d.stall,
        help="seconds a client may leave frames unread before it is disconnected (%(default)s)",
    )
    g.add_argument(
        "--ping-interval",
        type=positive_float,
        default=d.ping_interval,
        metavar="SECONDS",
        help="seconds between keepalive pings; a client that has not answered one by the next is "
        "disconnected (%(default)s)",
    )
    g.add_argument(
        "--sndbuf", type=nonnegative_int, default=d.sndbuf, help="kernel send buffer per connection, 0 = auto"
    )
    g.add_argument(
        "--linger-ms",
        type=nonnegative_float,
        default=LINGER_MS,
        help="ms that events, results and ACKs may wait to leave with a connection's next frames in one "
        "write (a prompt never waits); 0: each turn of the event loop writes (default %(default)s)",
    )
    g.add_argument("--rate", type=positive_float, default=d.rate, help="frames/s a connection may send (%(default)s)")
    g.add_argument(
        "--burst", type=positive_int, default=d.burst, help="frames a connection may send at once (%(default)s)"
    )
    g.add_argument(
        "--rate-strikes",
        type=positive_int,
        default=d.rate_strikes,
        help="frames over the rate a connection may send in its life before it is closed (%(default)s)",
    )
    g.add_argument(
        "--takeover-after", type=positive_int, default=d.takeover_after, help="timeouts before a robot plays"
    )
    g.add_argument(
        "--quickplay-wait", type=nonnegative_float, default=d.quickplay_wait, help="seconds quick play waits"
    )
    g.add_argument(
        "--hand-pause", type=nonnegative_float, default=d.hand_pause, help="seconds between hands (%(default)s)"
    )
    g.add_argument(
        "--robot-on-drop",
        action=argparse.BooleanOptionalAction,
        default=d.robot_on_drop,
        help="a robot plays a dropped player's seat until it resumes (else only the clock does)",
    )
    g.add_argument(
        "--clock",
        type=clock_setting,
        action="append",
        default=[],
        metavar="GAME=MS",
        help="a game's time for each move, in rooms that do not set their own "
        f"(default {' '.join(f'{g}={ms}' for g, ms in DEFAULT_CLOCK_MS.items())})",
    )
    g.add_argument(
        "--bank",
        type=clock_setting,
        action="append",
        default=[],
        metavar="GAME=MS",
        help="a game's time bank per seat and hand, spent by moves that run over their time; a robot "
        "takes the seat when it is spent (rooms with their own clock have none; default "
        f"{' '.join(f'{g}={ms}' for g, ms in DEFAULT_BANK_MS.items())})",
    )
    g.add_argument(
        "--robot-pace",
        type=nonnegative_float,
        default=ROBOT_PACE,
        metavar="SECONDS",
        help="a robot's move waits this long after its prompt in a room that people play in or watch, "
        "so that they can follow; 0: at once (default %(default)s)",
    )
    p.add_argument(
        "--loop",
        choices=eventloop.CHOICES,
        default=eventloop.default(),
        help="the event loop: uvloop where it is installed (auto), or insist on one "
        f"(default: env {eventloop.LOOP_ENV}, else auto; paiju --version says what auto picks)",
    )
    p.add_argument("--uvloop", dest="loop", action="store_const", const="uvloop", help=argparse.SUPPRESS)
    p.add_argument("--log-level", type=log_level, default="INFO", help="(default %(default)s)")


def config_from(args: argparse.Namespace) -> Config:
    secret = args.secret if args.secret is not None else os.environ.get("PAIJU_SECRET", "")
    limits = Limits(
        grace=args.grace,
        max_rooms=args.max_rooms,
        max_connections=args.max_connections,
        address_connections=args.address_connections,
        address_rooms=args.address_rooms,
        address_rooms_per_minute=args.address_rooms_per_minute,
        waiting_expiry=args.waiting_expiry,
        robot_wait=args.robot_wait,
        login_delay=args.login_delay,
        login_delay_max=args.login_delay_max,
        send_queue=args.send_queue,
        sndbuf=args.sndbuf,
        linger=args.linger_ms / 1000,
        stall=args.stall,
        ping_interval=args.ping_interval,
        rate=args.rate,
        burst=args.burst,
        rate_strikes=args.rate_strikes,
        takeover_after=args.takeover_after,
        quickplay_wait=args.quickplay_wait,
        hand_pause=args.hand_pause,
        robot_on_drop=args.robot_on_drop,
        robot_pace=args.robot_pace,
    )
    cfg = Config(
        host=args.host,
        port=args.port,
        secret=secret.encode(),
        limits=limits,
        server_id=args.server_id,
        pbn=args.pbn_text,
    )
    cfg.clocks.update(args.clock)
    cfg.banks.update(args.bank)
    return cfg


class RobotExtras:
    """What RESULTs and the records add from each deal (the server's ``extras``), worked out in
    processes of their own: the trick-taking game's solved value of the deal, bridge's par (a
    match's IMPs are scored against it); the server meets the robots' side only here. Made in
    the running event loop; each game's process starts with its first deal (a server that
    deals no bridge loads no DDS); :meth:`close` ends them."""

    def __init__(self) -> None:
        from paiju.bots.bridge import analysis as bridge
        from paiju.bots.tricks import analysis as tricks

        self.pools = [bridge.pool(), tricks.pool()]
        self.by_game: dict[str, Callable[[Any, int], asyncio.Future[dict[str, Any]]]] = {
            "bridge": functools.partial(_each_alone, bridge.par_future, self.pools[0]),
            "tricks": tricks.Values(self.pools[1]),  # a match's small deals a call
        }

    def __call__(self, game: Any, hands: int) -> asyncio.Future[dict[str, Any]] | None:
        got = self.by_game.get(game.name)
        return got(game, hands) if got is not None else None

    def close(self) -> None:
        for pool in self.pools:
            pool.close()


def _each_alone(
    work: Callable[[CallPool, Any], asyncio.Future[dict[str, Any]]], pool: CallPool, game: Any, hands: int
) -> asyncio.Future[dict[str, Any]]:
    return work(pool, game)


def records_writer() -> CallPool:
    """The records' writer: a process of its own, whose pipe the event loop watches. It runs at
    the server's priority, not below it as the robots and solvers do: a hand's RESULT waits for
    its record, so a writer starved by a busy machine would hold every RESULT back."""
    from paiju.bots.pool import CallPool

    return CallPool(1, name="paiju-records", nice=0)


async def open_records(url: str | None, *, writer: bool = True) -> tuple[Database, Recorder] | None:
    """The records database, migrated, and its recorder started (its writing in a process of
    its own, or with ``writer=False`` in this event loop); None after one line on stderr."""
    from paiju.records import Database
    from paiju.records.database import redacted
    from paiju.records.recorder import Recorder

    try:
        db = Database(url)
    except ValueError as e:
        print(f"paiju serve: {e}", file=sys.stderr)
        return None
    try:
        await db.upgrade()
    except Exception as e:  # unreachable, refused, a newer schema than this version knows, ...
        await db.close()
        print(f"paiju serve: database {redacted(db.url)}: {type(e).__name__}: {e}", file=sys.stderr)
        return None
    rec = Recorder(db, writer=records_writer if writer else None)  # the SQL off the event loop
    rec.start()
    return db, rec


async def close_records(db: Database, rec: Recorder) -> None:
    await rec.close()
    await db.close()


@contextlib.asynccontextmanager
async def embedded(
    cfg: Config, db: Database, rec: Recorder, workers: int = 8, robot_processes: int = 0
) -> AsyncIterator[Server]:
    """The embedded server, listening, around the records ``db`` and ``rec``: the in-memory
    bus, the robots' worker and decision pool, the extras of every RESULT; all closed on exit
    (the records stay open). ``paiju serve`` runs it, and so does paiju.testing.inprocess."""
    from paiju.bots import registry
    from paiju.bots.pool import DecisionPool
    from paiju.bots.worker import Worker
    from paiju.bus.memory import MemoryBus
    from paiju.server.app import Server

    bus = MemoryBus(cfg.server_id)
    server = Server(
        cfg,
        bus,
        robots=registry.names,
        database=db,
        recorder=rec,
        robot_label=registry.label,
        describe=registry.describe,
        extras=(extras := RobotExtras()),
    )
    server.robot_menus()  # the robots' modules imported now, not in the first /healthz
    decisions = DecisionPool(robot_processes)  # no process before the first decision
    worker = Worker(bus, name="embedded", concurrency=workers, pool=decisions)
    try:
        await server.start()
        wtask = asyncio.create_task(worker.run())
        try:
            yield server
        finally:
            wtask.cancel()
            await server.close()
            with contextlib.suppress(asyncio.CancelledError):
                await wtask
    finally:
        decisions.close()
        extras.close()


async def main(cfg: Config, workers: int = 8, database: str | None = None, robot_processes: int = 0) -> int:
    records = await open_records(database)
    if records is None:
        return 1
    db, rec = records
    try:
        async with embedded(cfg, db, rec, workers, robot_processes) as server:
            heap.settle()
            stop = asyncio.Event()
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGINT, signal.SIGTERM):
                with contextlib.suppress(NotImplementedError):
                    loop.add_signal_handler(sig, stop.set)
            # One line that scripts (and the tests) read to learn the port.
            print(f"paiju serving on http://{cfg.host}:{server.port}/ (ws://{cfg.host}:{server.port}/ws)", flush=True)
            await stop.wait()
    finally:
        await close_records(db, rec)
    return 0


async def main_redis(
    cfg: Config,
    url: str,
    log_ttl: int,
    database: str | None = None,
    *,
    advertise: str | None = None,
    lease: float = 5.0,
) -> int:
    from paiju.bus.link import Link, redacted
    from paiju.server.cluster import UNREACHABLE

    log = logging.getLogger("paiju.server")
    try:
        link = await Link.connect(url, f"server:{cfg.server_id}", log)
    except ConnectionError as e:
        return fail("serve", str(e), 1)
    if not cfg.secret:
        log.warning("no --secret / PAIJU_SECRET: resume tokens will not outlive this process")
    records = await open_records(database)
    if records is None:
        await link.close()
        return 1
    db, rec = records
    stop = asyncio.Event()
    drain = asyncio.Event()  # SIGTERM: hand the rooms over to the other nodes first
    loop = asyncio.get_running_loop()
    with contextlib.suppress(NotImplementedError):
        loop.add_signal_handler(signal.SIGINT, stop.set)
        loop.add_signal_handler(signal.SIGTERM, _both, drain, stop)
    try:
        this = node(cfg, link, db, rec, log_ttl=log_ttl, advertise=advertise, lease=lease, settle=True)
        async with this as (server, cluster):
            print(
                f"paiju serving on http://{cfg.host}:{server.port}/ (ws://{cfg.host}:{server.port}/ws)"
                f" with Redis {redacted(url)} as server {cfg.server_id}",
                flush=True,
            )
            await stop.wait()
            if drain.is_set():
                try:
                    async with asyncio.timeout(20):  # within the deploy files' 30 s grace
                        handed = await cluster.drain()
                    log.info("drained: %d rooms handed over to other nodes", handed)
                except UNREACHABLE as e:  # Redis away (or slow past the bound): the others take the rest
                    log.warning("drain cut short (%s): the other nodes take the rest over", type(e).__name__)
    finally:
        await link.close()
        await close_records(db, rec)
    return 0


@contextlib.asynccontextmanager
async def node(
    cfg: Config,
    link: Link,
    db: Database,
    rec: Recorder,
    *,
    log_ttl: int,
    advertise: str | None = None,
    lease: float = 5.0,
    settle: bool = False,
) -> AsyncIterator[tuple[Server, Cluster]]:
    """A node of a service on Redis (``link``), listening, around the records ``db`` and
    ``rec``: its rooms restored from Redis, its lease held; all closed on exit (the rooms left
    stay in Redis, the link and the records open). ``paiju serve --redis`` runs it (with
    ``settle``: the start-up's objects collected and frozen, paiju/cli/heap.py, before the
    lease is taken), and so does paiju.testing.inprocess."""
    from paiju.bots import registry
    from paiju.bus.rooms import RedisRoomBus
    from paiju.server.app import Server
    from paiju.server.cluster import Cluster, ClusterStore

    bus = RedisRoomBus(link, cfg.server_id)
    store = ClusterStore(link, cfg.server_id, log_ttl=log_ttl, seat_ttl=int(cfg.limits.token_ttl))
    server = Server(
        cfg,
        bus,
        robots=registry.names,
        store=store,
        database=db,
        recorder=rec,
        robot_label=registry.label,
        describe=registry.describe,
        extras=(extras := RobotExtras()),
    )
    store.start()
    await bus.start()
    cluster: Cluster | None = None
    try:
        # A second or two of CPU, done before the node holds a lease: a node whose event loop
        # they stalled past its lease (a busy machine) lost its rooms to the others.
        warm_games()
        server.robot_menus()  # the robots' modules imported now, not in the first /healthz
        await server.restore()
        await server.start()  # OSError (the port is taken) after the finally below
        if settle:
            heap.settle()
        cluster = Cluster(server, store, url=advertise or f"ws://{cfg.host}:{server.port}/ws", lease=lease)
        await cluster.start()
        yield server, cluster
    finally:
        # The rooms left stay in Redis (their tasks are cancelled, not ended): the other
        # nodes take them over, or a restart with the same server id rebuilds them.
        if cluster is not None:
            await cluster.close()
        await server.close()
        extras.close()
        await store.close()
        await bus.close()


@contextlib.asynccontextmanager
async def linked_node(args: argparse.Namespace, db: Database, rec: Recorder) -> AsyncIterator[Server]:
    """``paiju serve --redis URL ARGS``'s node on the records ``db`` and ``rec``, with its link
    to Redis (ConnectionError when Redis cannot be reached): paiju.testing.inprocess runs it."""
    from paiju.bus.link import Link

    cfg = config_from(args)
    link = await Link.connect(args.redis, f"server:{cfg.server_id}", logging.getLogger("paiju.server"))
    try:
        lease = args.lease
        async with node(cfg, link, db, rec, log_ttl=args.log_ttl, advertise=args.advertise, lease=lease) as (s, _):
            yield s
    finally:
        await link.close()


def warm_games() -> None:
    """Deal one hand of every game and play its first move now: a game loads its tables at
    their first use (mahjong's hu-distance tables at its first prompt, bridge's bidding
    system at its first call: 0.2 and 0.1 s of CPU, some seconds on a busy machine), which
    must not stall the event loop of a node holding leases."""
    from paiju import games

    for name in games.names():
        game = games.create(name, 0)
        seat = game.to_act()[0]
        game.apply(seat, game.default_action(seat))  # (which asks for the seat's legal actions)


def _both(*events: asyncio.Event) -> None:
    for e in events:
        e.set()


def run(args: argparse.Namespace) -> int:
    setup_logging(args.log_level)
    logging.getLogger("websockets").setLevel(logging.WARNING)  # one line per connection is noise
    logging.getLogger("alembic").setLevel(logging.WARNING)  # a dozen lines per start-up, even with nothing to do
    for m in args.robots_module:
        try:
            importlib.import_module(m)
        except ImportError as e:
            return fail("serve", f"cannot import robots module {m!r}: {e}")
    args.pbn_text = None
    if args.pbn:
        from paiju import games
        from paiju.core.lobby import pbn_rules

        with open(args.pbn, encoding="utf-8", errors="replace") as f:
            args.pbn_text = f.read()
        try:
            _, boards = pbn_rules("bridge", games.get("bridge").ruleset(), args.pbn_text)
        except ValueError as e:
            return fail("serve", f"--pbn {args.pbn}: {e}")
        logging.getLogger("paiju.server").info("bridge rooms play the %d deals of %s", boards, args.pbn)
    from paiju.server.webvendor import TARGET

    if not TARGET.is_file():  # a broken install: the lobby would never connect
        logging.getLogger("paiju.server").warning("%s is missing: the web client cannot connect", TARGET)
    try:
        loop = eventloop.choose(args.loop)
    except eventloop.NoUvloop as e:
        return fail("serve", f"--loop uvloop: {e}")
    try:
        if args.redis:
            from paiju.bus.link import BadRedisUrl, check_url

            try:
                check_url(args.redis)
            except BadRedisUrl as e:
                return fail("serve", str(e))
            coro = main_redis(
                config_from(args),
                args.redis,
                args.log_ttl,
                args.database,
                advertise=args.advertise,
                lease=args.lease,
            )
            return eventloop.run(coro, loop)
        return eventloop.run(main(config_from(args), args.workers, args.database, args.robot_processes), loop)
    except OSError as e:  # the port is taken, the address is not this machine's, ...
        why = f"port {args.port} is already in use" if e.errno == errno.EADDRINUSE else (e.strerror or str(e))
        return fail("serve", f"cannot listen on {args.host}:{args.port}: {why}", 1)
    except KeyboardInterrupt:
        pass
    return 0
