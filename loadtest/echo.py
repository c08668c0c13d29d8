"""A bare WebSocket echo server: the yardstick of ``paiju bench server``.

It sends every message back, with the socket settings of ``paiju serve`` (no compression,
the same size limit and keepalive pings), so the difference between the two is what paiju
does with a frame: decode, room, game, encode, fan-out.

``python -m loadtest.echo [--port 0] [--uvloop]`` prints ``echo serving on ws://HOST:PORT/``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal

from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from protocol import MAX_FRAME


async def _echo(ws: ServerConnection) -> None:
    with contextlib.suppress(ConnectionClosed):
        async for msg in ws:
            await ws.send(msg)


async def main(host: str, port: int) -> None:
    async with serve(
        _echo, host, port, compression=None, max_size=2 * MAX_FRAME, max_queue=32, ping_interval=20, ping_timeout=20
    ) as server:
        sock = next(iter(server.sockets))
        print(f"echo serving on ws://{host}:{sock.getsockname()[1]}/", flush=True)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        await stop.wait()


if __name__ == "__main__":
    p = argparse.ArgumentParser(prog="python -m loadtest.echo", description=__doc__.splitlines()[0])
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=0)
    p.add_argument("--uvloop", action="store_true", help="run on uvloop's event loop")
    a = p.parse_args()
    if a.uvloop:
        import uvloop

        uvloop.run(main(a.host, a.port))
    else:
        asyncio.run(main(a.host, a.port))
