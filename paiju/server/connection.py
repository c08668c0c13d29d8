"""One client connection: a bounded send queue flushed once per turn of the event loop,
and a rate limit (the lobby, paiju/server/lobby.py, knows which player it speaks for once HELLO
is done).

Frames are encoded when queued, so a room never waits for a slow socket. A reader that
falls ``send_queue`` frames behind is disconnected (close code 1008, reason "slow
consumer") instead of making the server hold an ever-growing backlog for it. A resume's
replay (up to the room's ``replay_buffer`` events) is granted as a burst
(:meth:`Connection.grant`): it goes out at the pace the reader reads, without counting
against ``send_queue``; a reader that reads nothing for ``stall`` seconds is disconnected.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import itertools
import logging
import socket
import struct
import time
import weakref

from websockets.asyncio.server import ServerConnection
from websockets.protocol import State

from paiju.core.config import Limits
from paiju.protocol import Error, ErrorCode, Frame, batch, encode
from paiju.server import metrics

log = logging.getLogger("paiju.server")
_ids = itertools.count(1)
WRITE_LIMIT = 16 * 1024  # bytes in the transport's buffer past which frames wait here


class Connection:
    """The sending side of one client connection (the lobby reads from ``ws``).

    Frames queued during one turn of the event loop leave together: at the end of the turn
    one callback frames them all (websockets' sans-I/O protocol) and hands the transport
    one write, so a room's burst (ACK, events, the next prompt) is one system call, and an
    idle connection holds no task and no queue; a connection granted batches (``batch``,
    HELLO's Feature.BATCH) gets that burst as one WebSocket message (protocol.batch). Frames
    that ask nothing of their reader may linger (``limits.linger``) to leave with the next
    ones: the player who just acted gets its ACK and the events in the same write as the
    events and prompt of the next move.
    """

    # every open connection has one, idle ones too: no instance dictionary (docs/performance.md)
    __slots__ = (
        "_closer",
        "_drainer",
        "_flush_soon",
        "_lingering",
        "_lingers",
        "_out",
        "_stamp",
        "_tokens",
        "batch",
        "burst",
        "close_reason",
        "closed",
        "id",
        "limits",
        "loop",
        "received",
        "rematch",
        "sent",
        "strikes",
        "ws",
    )

    def __init__(self, ws: ServerConnection, limits: Limits) -> None:
        self.id = next(_ids)
        self.ws = ws
        self.limits = limits
        self.loop = asyncio.get_running_loop()
        self.closed = False
        self.close_reason = ""
        self._tokens = float(limits.burst)
        self._stamp = time.monotonic()
        self.strikes = 0
        self._out: list[bytes] = []  # frames waiting for the end of this turn (or for the socket)
        self._flush_soon = False
        self._lingers = 0.0  # when its lingering frames are due (0: none waits; only frames that may wait are queued)
        # the lingering connections of this loop (looked up once, not at every move)
        self._lingering = _lingering(self.loop, limits.linger) if limits.linger > 0 else None
        self._drainer: asyncio.Task[None] | None = None  # only while the socket's buffer is full
        self._closer: asyncio.Task[None] | None = None
        self.burst = 0  # frames of a granted replay still waiting here
        self.batch = False  # granted Feature.BATCH: what leaves in one write is one message
        self.rematch = False  # granted Feature.REMATCH: offered a rematch after a match
        self.sent = 0
        self.received = 0.0  # perf_counter when the last message came in (action latency)
        if limits.sndbuf:
            # A bounded kernel buffer, so that a reader that stops reading fills the send
            # queue (and is disconnected) rather than megabytes of socket memory.
            sock = ws.transport.get_extra_info("socket")
            if sock is not None:
                with contextlib.suppress(OSError):
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, limits.sndbuf)

    def send(self, frame: Frame) -> bool:
        """Queue ``frame``; False (and the connection closing) when the reader is too slow."""
        if type(frame) is Error:
            metrics.error(frame.code)
        return self.send_bytes(encode(frame))

    def send_bytes(self, data: bytes, urgent: bool = True) -> bool:
        """Queue an encoded frame. One that is not ``urgent`` (an event, a RESULT, an ACK:
        nothing its reader must answer) may wait up to ``limits.linger`` seconds for the
        frames that follow, so that they share one write; an urgent one (a prompt) sends
        everything queued at the end of this turn."""
        if self.closed:
            return False
        if self.backlog >= self.limits.send_queue:
            self.close(1008, f"slow consumer: {self.limits.send_queue} frames unread (error {ErrorCode.SLOW_CONSUMER})")
            return False
        self._out.append(data)
        if self._flush_soon:
            return True
        # a burst that fills half the send queue leaves at once: lingering must never make a
        # reader look slow (the queue's bound is for frames the socket would not take)
        if urgent or self._lingering is None or len(self._out) >= self.limits.send_queue // 2:
            self._flush_soon = True
            self.loop.call_soon(self._flush)
        elif not self._lingers:
            self._lingers = self._lingering.add(self)
        return True

    @property
    def backlog(self) -> int:
        """Frames queued and not yet handed to the socket, a granted burst aside."""
        return len(self._out) - self.burst

    def grant(self, frames: int) -> None:
        """The next ``frames`` frames are a replay burst: they do not count as unread."""
        self.burst += frames

    async def drained(self, below: int) -> bool:
        """Wait until at most ``below`` frames are unread. A reader that reads none of them
        for ``stall`` seconds is disconnected (1008). False: the connection is done."""
        last, since = self.backlog, self.loop.time()
        pause = 0.005
        while self.backlog > below and not self.closed:
            if self.ws.protocol.state is not State.OPEN:
                return False
            if self.backlog < last:
                last, since, pause = self.backlog, self.loop.time(), 0.005
            elif self.loop.time() - since > self.limits.stall:
                self.close(1008, f"not reading: {self.backlog} frames unread for {self.limits.stall:g} s")
                break
            # looked at again soon while it reads, seldom once it has stopped: a thousand
            # stalled readers must not keep the event loop busy until their stall bound
            await asyncio.sleep(pause)
            pause = min(2 * pause, 0.25)
        return not self.closed

    def flush(self) -> None:
        """Hand what is queued to the socket now (the server is closing: nothing lingers)."""
        if self._out and not self.closed:
            self._flush()

    def _flush(self) -> None:
        """Hand every queued frame to the socket in one write (unless its buffer is full:
        then a drainer waits for it to empty)."""
        self._flush_soon = False
        self._lingers = 0.0  # (a flush of the lingering set that comes later finds nothing)
        if not self._out or self._drainer is not None:
            return
        ws = self.ws
        if ws.protocol.state is not State.OPEN:
            self._out.clear()
            self.burst = 0
            return
        if ws.transport.get_write_buffer_size() > WRITE_LIMIT:
            self._drainer = self.loop.create_task(self._drain())
            return
        out, self._out = self._out, []
        self.burst = max(0, self.burst - len(out))
        messages = batch(out) if self.batch else out
        if ws.protocol.extensions:  # (the server negotiates none: compression=None)
            for data in messages:
                ws.protocol.send_binary(data)
            ws.transport.write(b"".join(ws.protocol.data_to_send()))
        else:
            ws.transport.write(b"".join([binary_frame(data) for data in messages]))
        metrics.sent(out)
        self.sent += len(out)

    async def _drain(self) -> None:
        try:
            # a peer that reads nothing never lets the buffer drain: bounded by ``stall``
            async with asyncio.timeout(self.limits.stall):
                while self.ws.transport.get_write_buffer_size() > WRITE_LIMIT and not self.ws.transport.is_closing():
                    await self.ws.drain()
                    await asyncio.sleep(0.005)  # the buffer is still above the limit: look again shortly
        except TimeoutError:
            log.info("connection %d closed: not reading for %g s", self.id, self.limits.stall)
            self.closed = True
            self._out.clear()
            self.burst = 0
            self.ws.transport.abort()
            return
        except Exception:
            return
        finally:
            self._drainer = None
        self._flush()

    def allow(self) -> bool:
        """Token bucket: True when one more incoming frame is within the rate limit."""
        now = time.monotonic()
        self._tokens = min(float(self.limits.burst), self._tokens + (now - self._stamp) * self.limits.rate)
        self._stamp = now
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        self.strikes += 1
        return False

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Close soon: frames already queued are dropped for a slow consumer, sent otherwise."""
        if self.closed:
            return
        self.closed = True
        self.close_reason = reason
        if code == 1008:  # a slow consumer: what is queued is dropped
            self._out.clear()
            self.burst = 0
        self._closer = self.loop.create_task(self._close(code, reason))

    async def _close(self, code: int, reason: str) -> None:
        if self._out:
            self._flush()
            if self._drainer is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(asyncio.shield(self._drainer), 2.0)
        try:
            # close() itself waits for the socket to drain: a reader that reads nothing
            # never lets it finish, so after a while the transport is aborted.
            await asyncio.wait_for(self.ws.close(code, reason[:120]), 2.0)
        except Exception:
            self.ws.transport.abort()
        if code == 1008:
            log.info("connection %d closed: %s", self.id, reason)

    async def finish(self) -> None:
        """After the reader ended: nothing more is sent.

        A close the server began (:meth:`close`) is let finish first: when the reader stops
        because of it, the handler would otherwise return before the close frame is sent, and
        websockets would close the connection with 1000 instead of the code and reason given.
        """
        if self._closer is not None:
            with contextlib.suppress(Exception):
                await asyncio.shield(self._closer)
        self.closed = True
        self._out.clear()
        self.burst = 0
        if self._drainer is not None:
            self._drainer.cancel()


def binary_frame(data: bytes) -> bytes:
    """``data`` as one unfragmented, unmasked binary WebSocket frame from a server (RFC 6455
    §5.2), with no extension: what websockets' sans-I/O protocol writes for ``send_binary``,
    at a tenth of its cost (no frame object, no buffer); websockets still writes everything
    else (pings, pongs, the close), each whole, on the same transport.

    >>> binary_frame(b"ab")
    b'\\x82\\x02ab'
    >>> binary_frame(bytes(300))[:4]
    b'\\x82~\\x01,'
    """
    n = len(data)
    if n < 126:
        return bytes((0x82, n)) + data
    if n < 65536:
        return struct.pack("!BBH", 0x82, 126, n) + data
    return struct.pack("!BBQ", 0x82, 127, n) + data


class _Lingering:
    """The connections of one event loop whose queued frames may wait: each waits ``delay``
    seconds from its first such frame (unless something urgent flushes it first), and one
    timer flushes those that are due, rather than a timer per connection. (The whole delay
    for each: a timer for all that flushed every ``delay`` seconds gave a connection that
    joined late in its period a few milliseconds, and under load, when a table's next move
    comes later, a write and a message of their own to ever more of them.)

    The timer rings at most every ``delay / 4`` seconds, and flushes what is due by the next
    ring (up to ``delay / 4`` early, never late): nearly every connection's lingering frames
    leave with its next prompt, long before they are due, so a timer set for the earliest
    of them rang for nothing about once a move under load."""

    def __init__(self, delay: float) -> None:
        self.delay = delay  # (no reference to the loop: it is the key of _LINGERING, held weakly)
        self.slack = delay / 4
        self.waiting: collections.deque[tuple[float, Connection]] = collections.deque()  # by when due
        self.timer: asyncio.TimerHandle | None = None

    def add(self, conn: Connection) -> float:
        """``conn``'s frames wait: when they are due."""
        due = conn.loop.time() + self.delay
        self.waiting.append((due, conn))
        if self.timer is None:
            self.timer = conn.loop.call_at(due - self.slack, self.flush, conn.loop)
        return due

    def flush(self, loop: asyncio.AbstractEventLoop) -> None:
        self.timer = None
        waiting = self.waiting
        soon = loop.time() + self.slack  # the next ring's time at the earliest
        while waiting:
            due, conn = waiting[0]
            if conn._lingers != due:  # flushed since, and maybe waiting again, for later
                waiting.popleft()
                continue
            if due > soon:
                break
            waiting.popleft()
            conn._flush()
        if waiting:
            self.timer = loop.call_at(max(waiting[0][0] - self.slack, soon), self.flush, loop)


_LINGERING: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Lingering] = weakref.WeakKeyDictionary()


def _lingering(loop: asyncio.AbstractEventLoop, delay: float) -> _Lingering:
    group = _LINGERING.get(loop)
    if group is None or group.delay != delay:
        group = _LINGERING[loop] = _Lingering(delay)
    return group
