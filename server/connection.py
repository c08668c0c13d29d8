"""One client connection: a bounded send queue drained by a writer task, and a rate limit
(the lobby, server/app.py, knows which player it speaks for once HELLO is done).

Frames are encoded when queued, so every room broadcast costs the room one encode per
distinct view and never waits for a slow socket. A reader that falls ``send_queue``
frames behind is disconnected (close code 1008, reason "slow consumer") instead of
making the server hold an ever-growing backlog for it. A resume's replay (up to the room's
``replay_buffer`` events) is granted as a burst (:meth:`Connection.grant`): it waits in the
queue and goes out at the pace the reader reads, without counting against ``send_queue``.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import socket
import time

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed

from protocol import ErrorCode, Frame, encode

from .config import Limits

log = logging.getLogger("paiju.server")
_ids = itertools.count(1)


class Connection:
    def __init__(self, ws: ServerConnection, limits: Limits) -> None:
        self.id = next(_ids)
        self.ws = ws
        self.limits = limits
        # Unbounded as a queue; send_bytes() bounds it at send_queue + the granted burst.
        self.queue: asyncio.Queue[bytes | None] = asyncio.Queue()
        self.burst = 0  # frames of a granted replay not yet written
        self._progress = asyncio.Event()  # set by the writer after each frame and when it ends
        self.closed = False
        self.close_reason = ""
        self._tokens = float(limits.burst)
        self._stamp = time.monotonic()
        self.strikes = 0
        self._final = (1000, "")
        self._closer: asyncio.Task[None] | None = None
        self.sent = 0
        if limits.sndbuf:
            # A bounded kernel buffer, so that a reader that stops reading fills the send
            # queue (and is disconnected) rather than megabytes of socket memory.
            sock = ws.transport.get_extra_info("socket")
            if sock is not None:
                with contextlib.suppress(OSError):
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, limits.sndbuf)
        self.writer = asyncio.create_task(self._write(), name=f"writer-{self.id}")

    def send(self, frame: Frame) -> bool:
        """Queue ``frame``; False (and the connection closing) when the reader is too slow."""
        return self.send_bytes(encode(frame))

    def send_bytes(self, data: bytes) -> bool:
        if self.closed:
            return False
        if self.backlog() >= self.limits.send_queue:
            self.close(1008, f"slow consumer: {self.limits.send_queue} frames unread (error {ErrorCode.SLOW_CONSUMER})")
            return False
        self.queue.put_nowait(data)
        return True

    def grant(self, frames: int) -> None:
        """The next ``frames`` frames are a replay burst: they do not count as unread."""
        self.burst += frames

    def backlog(self) -> int:
        """Frames queued and unwritten, a granted burst aside."""
        return self.queue.qsize() - self.burst

    async def drained(self, below: int) -> bool:
        """Wait until at most ``below`` frames are unread. A reader that reads none of them
        for ``stall`` seconds is disconnected (1008). False: the connection is done."""
        while self.backlog() > below and not self.closed and not self.writer.done():
            self._progress.clear()
            try:
                await asyncio.wait_for(self._progress.wait(), self.limits.stall)
            except TimeoutError:
                self.close(1008, f"not reading: {self.backlog()} frames unread for {self.limits.stall:g} s")
        return not self.closed and not self.writer.done()

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
        self._final = (code, reason)
        if code != 1008:
            self.queue.put_nowait(None)  # the writer sends what is queued, then closes
            return
        # A slow consumer (or a full queue): drop what is queued and close now.
        self.writer.cancel()
        self._closer = asyncio.create_task(self._close(code, reason))

    async def _close(self, code: int, reason: str) -> None:
        try:
            # close() itself waits for the socket to drain: a reader that reads nothing
            # never lets it finish, so after a while the transport is aborted.
            await asyncio.wait_for(self.ws.close(code, reason[:120]), 2.0)
        except Exception:
            self.ws.transport.abort()
        if code == 1008:
            log.info("connection %d closed: %s", self.id, reason)

    async def _write(self) -> None:
        try:
            while True:
                data = await self.queue.get()
                if data is None:
                    await self._close(*self._final)
                    return
                try:
                    # a peer that reads nothing never lets send() finish: bounded by stall
                    async with asyncio.timeout(self.limits.stall):
                        await self.ws.send(data)
                except TimeoutError:
                    log.info("connection %d closed: not reading for %g s", self.id, self.limits.stall)
                    self.closed = True
                    self.ws.transport.abort()
                    return
                self.sent += 1
                self._progress.set()
                if self.burst > 0:
                    self.burst -= 1
        except ConnectionClosed:
            pass
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("writer of connection %d failed", self.id)
        finally:
            self.closed = True  # nothing more can be sent: the reader stops waiting on us
            self._progress.set()

    async def finish(self) -> None:
        """After the reader ended: stop the writer."""
        self.closed = True
        self.writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self.writer
