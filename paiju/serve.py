"""`paiju serve`: the game server. With no options, the embedded default: one process,
the in-memory bus, robots served in-process, no Redis; WebSocket at ws://HOST:PORT/ws,
the web client at http://HOST:PORT/, health at /healthz.

This module is the only place where the server and the robots meet (DESIGN.md §1: the
server never imports bots/).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal

from server.config import Config, Limits


def add_arguments(p: argparse.ArgumentParser) -> None:
    d = Limits()
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default %(default)s)")
    p.add_argument("--port", type=int, default=8765, help="port (default %(default)s; 0 = any free port)")
    p.add_argument("--secret", default=None, help="signs resume tokens (default: env PAIJU_SECRET, else random)")
    p.add_argument("--redis", default=None, metavar="URL", help="Redis bus and room logs (not in this version)")
    p.add_argument("--workers", type=int, default=8, help="robot decisions handled at once in-process (default 8)")
    g = p.add_argument_group("limits")
    g.add_argument("--grace", type=float, default=d.grace, help="seconds a dropped player keeps the seat (%(default)s)")
    g.add_argument("--max-rooms", type=int, default=d.max_rooms, help="(default %(default)s)")
    g.add_argument("--max-connections", type=int, default=d.max_connections, help="(default %(default)s)")
    g.add_argument("--send-queue", type=int, default=d.send_queue, help="frames queued per connection (%(default)s)")
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
        rate=args.rate,
        burst=args.burst,
        takeover_after=args.takeover_after,
        quickplay_wait=args.quickplay_wait,
        hand_pause=args.hand_pause,
        robot_on_drop=args.robot_on_drop,
    )
    cfg = Config(host=args.host, port=args.port, secret=secret.encode(), limits=limits)
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


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("websockets").setLevel(logging.WARNING)  # one line per connection is noise
    if args.redis:
        print("paiju serve: --redis is not available yet (embedded mode only)")
        return 2
    asyncio.run(main(config_from(args), args.workers))
    return 0
