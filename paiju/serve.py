"""`paiju serve`: the game server. With no options, the embedded default: one process,
the in-memory bus, robots served in-process, no Redis; WebSocket at ws://HOST:PORT/ws,
the web client at http://HOST:PORT/, health at /healthz.

With ``--redis URL`` the bus is Redis (robots run in `paiju bots` workers), every room's
log is appended to Redis as it plays, and the rooms this server id owned are rebuilt from
their logs at start-up (tokens resume them when the secret comes from --secret or
PAIJU_SECRET). An unreachable or malformed URL at start-up is one line on stderr and a
non-zero exit; an outage later is survived (reconnection with backoff, bot seats fall back
to the default action meanwhile).

This module is the only place where the server and the robots meet (docs/design.md §1: the
server never imports bots/).
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
import sys

from server.config import Config, Limits


def add_arguments(p: argparse.ArgumentParser) -> None:
    d = Limits()
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default %(default)s)")
    p.add_argument(
        "--port",
        type=int,
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
        "--log-ttl", type=int, default=3600, help="seconds a finished room's log stays in Redis (default %(default)s)"
    )
    p.add_argument(
        "--robots-module",
        action="append",
        default=[],
        metavar="MODULE",
        help="import MODULE first (extra robots a room may ask for; give the workers the same)",
    )
    p.add_argument("--workers", type=int, default=8, help="robot decisions handled at once in-process (default 8)")
    g = p.add_argument_group("limits")
    g.add_argument("--grace", type=float, default=d.grace, help="seconds a dropped player keeps the seat (%(default)s)")
    g.add_argument("--max-rooms", type=int, default=d.max_rooms, help="(default %(default)s)")
    g.add_argument("--max-connections", type=int, default=d.max_connections, help="(default %(default)s)")
    g.add_argument("--send-queue", type=int, default=d.send_queue, help="frames queued per connection (%(default)s)")
    g.add_argument(
        "--stall", type=float, default=d.stall, help="seconds a client may leave frames unread (%(default)s)"
    )
    g.add_argument("--sndbuf", type=int, default=d.sndbuf, help="kernel send buffer per connection, 0 = auto")
    g.add_argument("--rate", type=float, default=d.rate, help="frames/s a connection may send (%(default)s)")
    g.add_argument("--burst", type=int, default=d.burst, help="frames a connection may send at once (%(default)s)")
    g.add_argument("--takeover-after", type=int, default=d.takeover_after, help="timeouts before a robot plays")
    g.add_argument("--quickplay-wait", type=float, default=d.quickplay_wait, help="seconds quick play waits")
    g.add_argument("--hand-pause", type=float, default=d.hand_pause, help="seconds between hands (%(default)s)")
    g.add_argument(
        "--robot-on-drop",
        action=argparse.BooleanOptionalAction,
        default=d.robot_on_drop,
        help="a robot plays a dropped player's seat until it resumes (else only the clock does)",
    )
    g.add_argument("--clock", action="append", default=[], metavar="GAME=MS", help="default action clock of a game")
    p.add_argument("--log-level", default="INFO", help="(default %(default)s)")


def config_from(args: argparse.Namespace) -> Config:
    secret = args.secret if args.secret is not None else os.environ.get("PAIJU_SECRET", "")
    limits = Limits(
        grace=args.grace,
        max_rooms=args.max_rooms,
        max_connections=args.max_connections,
        send_queue=args.send_queue,
        sndbuf=args.sndbuf,
        stall=args.stall,
        rate=args.rate,
        burst=args.burst,
        takeover_after=args.takeover_after,
        quickplay_wait=args.quickplay_wait,
        hand_pause=args.hand_pause,
        robot_on_drop=args.robot_on_drop,
    )
    cfg = Config(host=args.host, port=args.port, secret=secret.encode(), limits=limits, server_id=args.server_id)
    for item in args.clock:
        game, _, ms = item.partition("=")
        cfg.clocks[game] = int(ms)
    return cfg


async def main(cfg: Config, workers: int = 8) -> None:
    from bots import registry
    from bots.worker import Worker
    from protocol.bus import MemoryBus
    from server.app import Server

    bus = MemoryBus(cfg.server_id)
    server = Server(cfg, bus, robots=registry.names)
    worker = Worker(bus, name="embedded", concurrency=workers)
    await server.start()
    wtask = asyncio.create_task(worker.run())
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    # One line that scripts (and the tests) read to learn the port.
    print(f"paiju serving on http://{cfg.host}:{server.port}/ (ws://{cfg.host}:{server.port}/ws)", flush=True)
    try:
        await stop.wait()
    finally:
        wtask.cancel()
        await server.close()
        with contextlib.suppress(asyncio.CancelledError):
            await wtask


async def main_redis(cfg: Config, url: str, log_ttl: int) -> int:
    from bots import registry
    from redisbus.link import Link, client, redacted
    from redisbus.rooms import RedisRoomBus
    from server.app import Server
    from server.storage import RoomStore

    log = logging.getLogger("paiju.server")
    r = client(url)
    link = Link(r, url, f"server:{cfg.server_id}", log)
    try:
        await link.start()
    except Exception as e:  # refused, timed out, wrong password, ...
        await r.aclose()
        print(f"paiju serve: cannot reach Redis at {redacted(url)}: {type(e).__name__}: {e}", file=sys.stderr)
        return 1
    if not cfg.secret:
        log.warning("no --secret / PAIJU_SECRET: resume tokens will not outlive this process")
    bus = RedisRoomBus(link, cfg.server_id)
    store = RoomStore(link, cfg.server_id, log_ttl=log_ttl)
    server = Server(cfg, bus, robots=registry.names, store=store)
    store.start()
    await bus.start()
    await server.restore()
    await server.start()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    print(
        f"paiju serving on http://{cfg.host}:{server.port}/ (ws://{cfg.host}:{server.port}/ws)"
        f" with Redis {redacted(url)} as server {cfg.server_id}",
        flush=True,
    )
    try:
        await stop.wait()
    finally:
        # The rooms stay in Redis (their tasks are cancelled, not ended): a restart with the
        # same server id rebuilds them.
        await server.close()
        await store.close()
        await bus.close()
        await link.close()
    return 0


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("websockets").setLevel(logging.WARNING)  # one line per connection is noise
    for m in args.robots_module:
        try:
            importlib.import_module(m)
        except ImportError as e:
            print(f"paiju serve: cannot import robots module {m!r}: {e}", file=sys.stderr)
            return 2
    if args.redis:
        from redisbus.link import BadRedisUrl, check_url

        try:
            check_url(args.redis)
        except BadRedisUrl as e:
            print(f"paiju serve: {e}", file=sys.stderr)
            return 2
        return asyncio.run(main_redis(config_from(args), args.redis, args.log_ttl))
    asyncio.run(main(config_from(args), args.workers))
    return 0
