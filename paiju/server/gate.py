"""The WebSocket endpoint ``/ws``: one reader per connection, which decodes each message, applies
the rate limit and hands the frame to the lobby (paiju/server/lobby.py's :class:`LobbyShell`);
the writer of the connection is its :class:`~paiju.server.connection.Connection`.

A message that cannot be read, a frame only the server sends and a frame over the rate are
refused with an ERROR (the lobby's ``Garbled``) naming the frame, or its type and id when it
did not decode (:func:`peek_ref`); the connection carries on. A client refused too often is
closed.

>>> peek_ref(bytes([0x93, 7, 42, 0xC1]))  # an ACTION (type 7) whose prompt id reads: the ERROR names it
(7, 42)
>>> peek_ref(b"\\xc1")
(None, None)
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import gc
from collections.abc import Coroutine
from typing import Any, Literal

import msgpack
from websockets.asyncio.server import ServerConnection
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.protocol import State

try:  # websockets' C speed-up of unmasking, where it was built
    from websockets.speedups import apply_mask
except ImportError:  # pragma: no cover
    from websockets.utils import apply_mask

from paiju.core.config import Limits
from paiju.core.lobby import Connect, Disconnect, Garbled, Received
from paiju.protocol import Action, ErrorCode, Frame, LobbyError, PaijuError, Ping, ProtocolError, decode
from paiju.protocol.frames import CLIENT, FRAMES
from paiju.server import metrics
from paiju.server.connection import Connection
from paiju.server.lobby import LobbyShell

CLIENT_FRAMES = frozenset(c for c in FRAMES.values() if c.SENDER == CLIENT)


class Gate:
    """``Gate(lobby, limits)``: ``handler`` is websockets' handler of ``/ws``, reading each
    connection until it closes and telling ``lobby`` of it (Connect, Received, Garbled,
    Disconnect)."""

    def __init__(self, lobby: LobbyShell, limits: Limits) -> None:
        self.lobby = lobby
        self.limits = limits
        self._released = 0  # connections ended since memory was last handed back
        self._trim: asyncio.TimerHandle | None = None

    def __repr__(self) -> str:
        return f"<Gate {len(self.lobby.lobby.conns)} connections>"

    async def handler(self, ws: ServerConnection) -> None:
        forget_handshake(ws)
        if len(self.lobby.lobby.conns) >= self.limits.max_connections:
            await ws.close(1013, "server full")
            return
        conn = Connection(ws, self.limits)
        self.lobby.runner.feed(Connect(conn, address(ws)))
        reader = ws if isinstance(ws, Reader) else None
        if reader is not None:  # from now on its messages are read as they come in (Reader)
            reader.conn, reader.gate = conn, self
        try:
            while True:
                # recv(), not ``async for``: the async generator of the latter (and the loop's
                # weak reference to it) would be two more objects each idle connection holds
                msg = await ws.recv()
                if reader is not None:
                    if reader.gate is None:  # closed for flooding, or a message's handling failed
                        break
                    reader.busy = True
                    if reader.pending is not None:  # what the message before it asked for, first
                        await asyncio.wait([reader.pending])  # (failed: Reader.done closes the connection)
                # Back-pressure: a client whose answers are piling up is not read from until
                # they drain (its own requests must not overflow its own send queue).
                if conn.backlog > self.limits.send_queue // 2 and not await conn.drained(self.limits.send_queue // 2):
                    break
                left = self._step(conn, msg)
                if left is False:
                    break
                if left is not None:
                    await left
                if reader is not None:
                    reader.busy = False
        except ConnectionClosed:
            pass
        finally:
            if reader is not None:
                reader.gate = reader.conn = None
            self._released += 1
            if self._released >= 64:  # a wave of connections ended: a second after its last
                if self._trim is not None:
                    self._trim.cancel()
                self._trim = asyncio.get_running_loop().call_later(1.0, self._trim_memory)
            self.lobby.runner.feed(Disconnect(conn))
            await conn.finish()

    def _step(self, conn: Connection, msg: bytes | str) -> Coroutine[Any, Any, None] | Literal[False] | None:
        """Take one message of ``conn``'s: what is left to await for it (a lookup of the
        database, a refusal's), False when the connection is closed for flooding, or None."""
        conn.received = metrics.received(msg)
        allowed = conn.allow()
        if not allowed and conn.strikes > self.limits.rate_strikes:
            conn.close(1008, "flooding: rate limit exceeded too often")
            return False
        f: Frame | None = None
        try:
            f = self._decode(msg, allowed)
            self._admit(f, allowed)
        except PaijuError as e:
            peek = peek_ref(msg) if f is None and isinstance(msg, bytes) else (None, None)
            lookups = self.lobby.runner.feed(Garbled(conn, e, f, *peek))
        else:
            lookups = self.lobby.runner.feed(Received(conn, f))
        return self.lobby.resolve(lookups) if lookups else None  # (most frames need none: no coroutine)

    def take(self, conn: Connection, reader: Reader, data: bytes) -> bool:
        """A message of ``conn``'s as it comes in (:class:`Reader`): taken now (True) when
        nothing of the connection's is waiting or being read before it and its answers are
        not piling up; else (False) it goes the way of ``recv()``, in order."""
        if reader.waiting() or conn.backlog > self.limits.send_queue // 2:
            return False
        left = self._step(conn, data)
        if left is False:
            reader.gate = None
        elif left is not None:
            reader.pending = task = asyncio.get_running_loop().create_task(left)
            task.add_done_callback(reader.done)
        return True

    def _trim_memory(self) -> None:
        """After a wave of connections ended (abusers let go, a mass disconnect): collect the
        cycles their objects left and hand the allocator's free pages back to the system, so
        that the RSS returns to its level before them (glibc keeps them otherwise)."""
        self._trim, self._released = None, 0
        gc.collect()
        if _LIBC is not None:
            _LIBC.malloc_trim(0)

    def _decode(self, msg: bytes | str, allowed: bool) -> Frame:
        """The frame a client sent (ProtocolError: it cannot be read). Over the rate it is
        decoded all the same (bounded by max_message), so that the ERROR names it."""
        if isinstance(msg, str):
            raise ProtocolError(
                ErrorCode.MALFORMED if allowed else ErrorCode.RATE_LIMITED, "text messages are not used"
            )
        try:
            return decode(msg)
        except ProtocolError:
            if allowed:
                raise
            raise self._limited() from None

    def _admit(self, f: Frame, allowed: bool) -> None:
        if not allowed:
            raise self._limited()
        if type(f) not in CLIENT_FRAMES:
            raise ProtocolError(ErrorCode.WRONG_DIRECTION, f"{type(f).__name__} is not sent by clients")

    def _limited(self) -> LobbyError:
        return LobbyError(ErrorCode.RATE_LIMITED, f"over {self.limits.rate:g} frames/s: dropped")


def _libc() -> ctypes.CDLL | None:
    """The C library when it has glibc's ``malloc_trim`` (None elsewhere: musl, macOS)."""
    name = ctypes.util.find_library("c")
    try:
        lib = ctypes.CDLL(name) if name else None
    except OSError:
        return None
    return lib if lib is not None and hasattr(lib, "malloc_trim") else None


_LIBC = _libc()


_NO_HEADERS = Headers()  # (never written to: websockets reads a request's headers in the handshake only)


def forget_handshake(ws: ServerConnection) -> None:
    """Let go of the opening handshake's headers, read for the last time before the handler
    starts: kept, they were a quarter of what an idle connection costs the server (some 4
    KiB of request and response headers from the load generator, more from a browser, with
    its cookies and user agent; docs/performance.md, "Idle connections"). The request
    itself stays, headerless: websockets takes a connection without one for a connection
    still waiting for its handshake."""
    if ws.request is not None:
        ws.request.headers = _NO_HEADERS
    ws.response = None


def address(ws: ServerConnection) -> str:
    """The client's IP address (the per-address limits count by it)."""
    peer = ws.remote_address
    return str(peer[0]) if isinstance(peer, tuple) and peer else "?"


# where a request's id stands in its array (SPEC.md §3.1): ACTION's prompt_id, PING's nonce
_ID_AT = {int(Action.TYPE): 1, int(Ping.TYPE): 1}


def peek_ref(msg: bytes) -> tuple[int | None, int | None]:
    """The frame type of an undecodable frame and its prompt id (ACTION) or nonce (PING), each
    when readable (for ERROR's ref_type and ref_id): a refused ACTION names its prompt."""
    t: int | None = None
    try:
        u = msgpack.Unpacker(max_buffer_size=len(msg) + 1)
        u.feed(msg)
        n = u.read_array_header()
        if n > 0:
            head = u.unpack()
            if type(head) is int and 0 <= head <= 0xFF:
                t = head
                at = _ID_AT.get(t)
                if at is not None and n > at:
                    for _ in range(at - 1):  # (none: both ids come first)
                        u.skip()
                    i = u.unpack()
                    if type(i) is int and 0 <= i <= 0xFFFFFFFF:
                        return t, i
    except Exception:
        pass
    return t, None


class Reader(ServerConnection):
    """websockets' server connection (``serve(create_connection=Reader)``), whose messages
    the gate takes as they come in rather than from ``recv()``: a whole, unmasked-by-us
    binary frame (FIN, no RSV bit, opcode 2, masked by the client as RFC 6455 §5.3 wants,
    within ``max_size``) is unmasked here and handed to :meth:`Gate.take` at once, in the same turn
    of the event loop. Through ``recv()`` each message costs a queue, a future and a turn of
    the loop to wake the reader's coroutine; a move is a message (docs/performance.md).

    Everything else goes to websockets' sans-I/O protocol, whole frames only, so that its
    parser always stands between two frames when it gets the next bytes: the handshake
    (the gate is set once it is done), control frames (ping, pong, close), text and
    fragmented messages, anything malformed or too large, and everything once the
    connection is no longer open. The gate may decline (False) a message, for example
    while the gate still awaits something for the one before it (``busy``, ``pending``):
    then it goes through ``recv()``, after those before it.
    """

    # every open connection has one: slots, not entries in its dictionary (idle connections' memory)
    __slots__ = ("busy", "conn", "gate", "pending", "rest")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.gate: Gate | None = None  # the gate that takes its messages, once its handler runs
        self.conn: Connection | None = None  # the paiju connection it reads for
        self.busy = False  # the handler's coroutine is on a message (from ``recv()``)
        self.pending: asyncio.Task[None] | None = None  # what a message taken here left to await
        self.rest = b""  # the start of a frame not yet whole

    def waiting(self) -> bool:
        """Whether a message of this connection's is being read or waits to be (a message
        that comes in now must come after it)."""
        # (websockets' queue of frames for recv(): the Assembler's SimpleQueue)
        return self.busy or self.pending is not None or bool(self.recv_messages.frames.queue)

    def done(self, task: asyncio.Task[None]) -> None:
        """``task``, what a message taken here left to await, is done (failed: as websockets
        does when a handler fails, the connection is closed with 1011)."""
        if self.pending is task:
            self.pending = None
        if not task.cancelled() and task.exception() is not None:
            self.logger.error("a message's handling failed", exc_info=task.exception())
            self.gate = None
            self.loop.create_task(self.close(1011, "internal error"))

    def data_received(self, data: bytes) -> None:
        gate, conn = self.gate, self.conn
        if (gate is None or conn is None) and not self.rest:
            super().data_received(data)
            return
        buf = self.rest + data if self.rest else data
        self.rest = b""
        protocol = self.protocol
        pos, n = 0, len(buf)
        while pos < n:
            if protocol.state is not State.OPEN or gate is None or conn is None or self.gate is None:
                super().data_received(buf[pos:])
                return
            if n - pos < 2:
                break
            b0, b1 = buf[pos], buf[pos + 1]
            size, head = b1 & 0x7F, 2
            if size == 126:
                if n - pos < 4:
                    break
                size, head = int.from_bytes(buf[pos + 2 : pos + 4], "big"), 4
            elif size == 127:
                if n - pos < 10:
                    break
                size, head = int.from_bytes(buf[pos + 2 : pos + 10], "big"), 10
            limit = protocol.max_message_size
            if not b1 & 0x80 or (limit is not None and size > limit):
                super().data_received(buf[pos:])  # refused by websockets: it closes the connection
                return
            end = pos + head + 4 + size
            if end > n:
                break
            if b0 == 0x82 and protocol.current_size is None:
                at = pos + head
                message = apply_mask(buf[at + 4 : end], buf[at : at + 4])
                try:
                    taken = gate.take(conn, self, message)
                except Exception:  # as websockets does when a handler fails: 1011
                    self.logger.error("a message's handling failed", exc_info=True)
                    self.gate = None
                    self.loop.create_task(self.close(1011, "internal error"))
                    return
                if taken:
                    pos = end
                    continue
            super().data_received(buf[pos:end])  # a whole frame: websockets' parser takes it
            pos = end
        if pos < n:
            self.rest = buf[pos:]
