"""A bare WebSocket echo server: the yardstick of ``paiju bench server``.

It sends every message back, with the socket settings of ``paiju serve`` (no compression,
the same size limit and keepalive pings), so the difference between the two is what paiju
does with a frame: decode, room, game, encode, fan-out.

On ``/table/ID?seat=I&humans=H&robots=K`` it is a **table relay** instead, the floor of a
game server's fan-out with no game in it: the H connections of table ID each get every
message any of them sends (websockets' own ``broadcast``, one write per connection), and
after each message of the last seat (H - 1) the relay broadcasts it K times more, as if K
robot seats had moved at once (robots that think in no time). One turn costs the relay
one read and H writes, a robot's turn H writes: what any server of a table game built on
``websockets`` pays at least for a move, whatever its rules. A connection gets one empty
message once it is seated, so its client knows the relay will not miss what it sends.

``python -m paiju.loadtest.echo [--port 0] [--uvloop]`` prints ``echo serving on ws://HOST:PORT/``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
from urllib.parse import parse_qs, urlsplit

from websockets.asyncio.server import ServerConnection, broadcast, serve
from websockets.exceptions import ConnectionClosed

from paiju.protocol import MAX_FRAME

# table id -> its connections by seat (a seat not yet connected is absent)
_tables: dict[str, dict[int, ServerConnection]] = {}


async def _handler(ws: ServerConnection) -> None:
    assert ws.request is not None
    url = urlsplit(ws.request.path)
    if url.path.startswith("/table/"):
        await _relay(ws, url.path.removeprefix("/table/"), parse_qs(url.query))
    else:
        await _echo(ws)


async def _echo(ws: ServerConnection) -> None:
    with contextlib.suppress(ConnectionClosed):
        async for msg in ws:
            await ws.send(msg)


async def _relay(ws: ServerConnection, table: str, query: dict[str, list[str]]) -> None:
    seat, last, robots = (int(query[k][0]) for k in ("seat", "humans", "robots"))
    last -= 1
    seats = _tables.setdefault(table, {})
    seats[seat] = ws
    try:
        with contextlib.suppress(ConnectionClosed):
            await ws.send(b"")
            async for msg in ws:
                broadcast(seats.values(), msg)
                if seat == last:
                    for _ in range(robots):
                        broadcast(seats.values(), msg)
    finally:
        if seats.get(seat) is ws:
            del seats[seat]
        if not seats and _tables.get(table) is seats:
            del _tables[table]


async def main(host: str, port: int) -> None:
    async with serve(
        _handler, host, port, compression=None, max_size=2 * MAX_FRAME, max_queue=32, ping_interval=20, ping_timeout=20
    ) as server:
        sock = next(iter(server.sockets))
        print(f"echo serving on ws://{host}:{sock.getsockname()[1]}/", flush=True)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        await stop.wait()


if __name__ == "__main__":
    p = argparse.ArgumentParser(prog="python -m paiju.loadtest.echo", description=__doc__.splitlines()[0])
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=0)
    p.add_argument("--uvloop", action="store_true", help="run on uvloop's event loop")
    a = p.parse_args()
    if a.uvloop:
        import uvloop

        uvloop.run(main(a.host, a.port))
    else:
        asyncio.run(main(a.host, a.port))
