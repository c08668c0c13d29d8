"""One keepalive for all of a server's connections, instead of a task per connection.

websockets' own keepalive runs an asyncio task per connection that sleeps ``ping_interval``
between pings: about 1.6 KiB of task, coroutine and timer that every idle connection holds
for its whole life (a tenth of what an idle connection costs the server; docs/performance.md).
:class:`Keepalive` is one task for the whole server: every ``interval`` seconds it closes
the connections that have not answered the previous round's ping, and pings the others.
A peer that vanished without a FIN is therefore closed within two intervals, as with
websockets' ``ping_interval=ping_timeout=interval``.

A connection whose socket is not taking data (its transport paused for writing) is not
pinged -- the ping would wait for the socket -- and the server's slow-reader rules close it
(``Limits.stall``); the ping waits for no socket at all otherwise, so one round over
20,000 connections is 20,000 small writes in one pass.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections.abc import Callable, Iterable

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed

CHUNK = 512  # pings between two turns of the event loop, so that a round does not hold it


class Keepalive:
    """Ping every connection of ``connections()`` each ``interval`` seconds; close the silent ones.

    >>> Keepalive(lambda: [], 20.0)
    Keepalive(interval=20.0, waiting=0)
    """

    def __init__(self, connections: Callable[[], Iterable[ServerConnection]], interval: float) -> None:
        self.connections = connections
        self.interval = interval
        # pinged in the last round and not answered yet: the set only, not the pongs'
        # futures, which every idle connection would hold from one round to the next
        self.waiting: set[ServerConnection] = set()
        self.closed = 0  # connections closed for a missing pong

    def __repr__(self) -> str:
        return f"Keepalive(interval={self.interval}, waiting={len(self.waiting)})"

    async def run(self) -> None:
        """Rounds until cancelled."""
        while True:
            await asyncio.sleep(self.interval)
            await self.round()

    async def round(self) -> None:
        """Close the connections whose last ping is unanswered; ping the rest."""
        late, waiting = self.waiting, set[ServerConnection]()
        self.waiting = waiting
        for n, ws in enumerate(list(self.connections())):
            if n % CHUNK == CHUNK - 1:
                await asyncio.sleep(0)
            if ws in late:
                self.closed += 1
                ws.transport.abort()  # its handler sees the connection closed and cleans up
                continue
            if ws.transport.is_closing() or ws.paused:
                continue
            with contextlib.suppress(ConnectionClosed):
                pong = asyncio.ensure_future(await ws.ping())
                waiting.add(ws)
                # (a pong that comes during the next round still counts: it leaves this set)
                pong.add_done_callback(functools.partial(_answered, waiting, ws))


def _answered(waiting: set[ServerConnection], ws: ServerConnection, _: object) -> None:
    waiting.discard(ws)
