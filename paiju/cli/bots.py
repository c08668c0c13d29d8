"""`paiju bots --redis URL [--games ...] [--concurrency N]`: a robot worker process.

It serves the registered robots of the chosen games from the Redis bus (paiju/bus/workers.py):
requests are shared between every worker of the consumer group, cpu-heavy robots run in a
process pool, a dead worker's requests are claimed by a live one after the lease.

- SIGTERM / SIGINT: stop taking requests, finish the ones in hand (their answers are sent
  and acknowledged; nothing unanswered is acknowledged), then exit 0.
- Redis unreachable while running: reconnect with backoff, one log line per state change.
- Redis unreachable or URL malformed at start-up: one clear line on stderr, exit 1 or 2.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib
import logging
import os
import signal
import socket
import time
from pathlib import Path

from paiju import games
from paiju.bus.link import Link
from paiju.cli import heap
from paiju.cli.args import fail as args_fail
from paiju.cli.args import log_level, nonnegative_int, out_file, positive_int, setup_logging

log = logging.getLogger("paiju.cli.bots")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--redis",
        default=os.environ.get("PAIJU_REDIS"),
        metavar="URL",
        help="the Redis server, e.g. redis://127.0.0.1:6379/0 (default: env PAIJU_REDIS)",
    )
    p.add_argument(
        "--games",
        nargs="+",
        default=None,
        metavar="GAME",
        help=f"games to serve (default: all: {' '.join(games.names())})",
    )
    p.add_argument("--concurrency", type=positive_int, default=8, help="requests handled at once (default %(default)s)")
    p.add_argument(
        "--processes",
        type=nonnegative_int,
        default=0,
        help="process pool size for cpu-heavy robots (default 0: one per core)",
    )
    p.add_argument("--name", default=None, help="consumer name in the group (default: HOSTNAME-PID)")
    p.add_argument(
        "--lease-ms",
        type=int,
        default=1_000,
        help="a request held this long without renewal is claimed by another worker (default %(default)s)",
    )
    p.add_argument(
        "--max-deliveries",
        type=positive_int,
        default=3,
        help="deliveries of one request before it is given up and dead-lettered (default %(default)s)",
    )
    p.add_argument(
        "--robots-module",
        action="append",
        default=[],
        metavar="MODULE",
        help="import MODULE first (it registers extra robots with paiju.bots.registry.register)",
    )
    p.add_argument(
        "--health-file",
        type=out_file,
        default=None,
        metavar="PATH",
        help="touched every 5 s while Redis answers (for container health checks)",
    )
    p.add_argument(
        "--metrics-port",
        type=int,
        default=None,
        metavar="PORT",
        help="serve Prometheus metrics at http://HOST:PORT/metrics (default: none; see docs/operations.md)",
    )
    p.add_argument("--metrics-host", default="127.0.0.1", help="address of --metrics-port (default %(default)s)")
    p.add_argument("--log-level", type=log_level, default="INFO", help="(default %(default)s)")


def fail(msg: str, code: int) -> int:
    return args_fail("bots", msg, code)


def run(args: argparse.Namespace) -> int:
    setup_logging(args.log_level)
    from paiju.bus.link import BadRedisUrl, check_url

    if not args.redis:
        return fail("--redis URL (or env PAIJU_REDIS) is required", 2)
    try:
        check_url(args.redis)
    except BadRedisUrl as e:
        return fail(str(e), 2)
    chosen = args.games or games.names()
    unknown = [g for g in chosen if g not in games.names()]
    if unknown:
        return fail(f"no game {', '.join(unknown)}; known: {', '.join(games.names())}", 2)
    if args.concurrency < 1 or args.lease_ms < 50 or args.max_deliveries < 1:
        return fail("--concurrency >= 1, --lease-ms >= 50 and --max-deliveries >= 1 are needed", 2)
    for m in args.robots_module:
        try:
            importlib.import_module(m)
        except ImportError as e:
            return fail(f"cannot import robots module {m!r}: {e}", 2)
    name = args.name or f"{socket.gethostname()}-{os.getpid()}"
    return asyncio.run(main(args.redis, chosen, name, args))


async def main(url: str, chosen: list[str], name: str, args: argparse.Namespace) -> int:
    from paiju.bots import registry
    from paiju.bots.pool import DecisionPool
    from paiju.bots.worker import Worker
    from paiju.bus.link import Link
    from paiju.bus.roster import names
    from paiju.bus.workers import RedisWorkerBus

    metrics: asyncio.Server | None = None
    if args.metrics_port is not None:
        try:
            metrics = await asyncio.start_server(_metrics, args.metrics_host, args.metrics_port)
        except OSError as e:
            return fail(f"cannot serve metrics on {args.metrics_host}:{args.metrics_port}: {e}", 2)
        log.info("metrics at http://%s:%d/metrics", args.metrics_host, args.metrics_port)
    try:
        link = await Link.connect(url, f"bots:{name}", log)
    except ConnectionError as e:
        return fail(str(e), 1)
    bus = RedisWorkerBus(link, name, lease_ms=args.lease_ms, max_deliveries=args.max_deliveries)
    pool = DecisionPool(args.processes)
    worker = Worker(bus, chosen, name=name, concurrency=args.concurrency, pool=pool)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()

    def on_signal(sig: signal.Signals) -> None:
        if not stop.is_set():
            log.info("%s: finishing the %d requests in hand, taking no more", sig.name, worker.in_hand)
            stop.set()

    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, on_signal, sig)
    health = asyncio.create_task(_health(link, Path(args.health_file))) if args.health_file else None
    # The robots' modules imported now, before the first request: imported at the first
    # decision they held the loop for seconds on a busy machine, long enough for every Redis
    # read in flight to time out (an "outage", then a backoff) while the rooms waited.
    served = {game: registry.names(game) for game in chosen}
    heap.settle()
    # the rooms waiting for these robots start once the servers read this (paiju/bus/roster.py)
    bus.announce(names(served))
    # One line that scripts (and the tests) read: the worker is in the group and serving.
    log.info("serving %s as %s (concurrency %d, lease %d ms)", " ".join(chosen), name, args.concurrency, args.lease_ms)
    try:
        await worker.run(stop)
    finally:
        if health is not None:
            health.cancel()
        if metrics is not None:
            metrics.close()
        await bus.close()
        pool.close()
        per_game = " ".join(f"{g}={n}" for g, n in sorted(worker.by_game.items())) or "none"
        log.info(
            "stopped: answered %d (%s), dropped %d late, failed %d, claimed %d, gave up %d, Redis outages %d",
            worker.answered,
            per_game,
            worker.dropped,
            worker.failed,
            bus.claimed,
            bus.gave_up,
            link.outages,
        )
        await link.close()
    return 0


async def _metrics(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """``GET /metrics`` on the worker's event loop. (prometheus_client's own HTTP server is a
    thread, and a thread alive when a process forks can leave a lock held in the child.)"""
    from prometheus_client import CONTENT_TYPE_LATEST, generate_latest  # paiju/bots/metrics.py registers on import

    try:
        async with asyncio.timeout(10):
            request = await reader.readuntil(b"\r\n\r\n")
        path = request.split(b" ", 2)[1] if request.count(b" ") >= 2 else b""
        if path.split(b"?")[0] == b"/metrics":
            status, ctype, body = "200 OK", CONTENT_TYPE_LATEST, generate_latest()
        else:
            status, ctype, body = "404 Not Found", "text/plain; charset=utf-8", b"not found; try /metrics\n"
        head = f"HTTP/1.1 {status}\r\nContent-Type: {ctype}\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n"
        writer.write(head.encode() + body)
        await writer.drain()
    except (TimeoutError, OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
        pass
    finally:
        writer.close()


async def _health(link: Link, path: Path) -> None:
    while True:
        if link.up:
            with contextlib.suppress(OSError):
                path.touch()
                os.utime(path, (time.time(), time.time()))
        await asyncio.sleep(5)
