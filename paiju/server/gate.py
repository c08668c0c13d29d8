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

import msgpack
from websockets.asyncio.server import ServerConnection
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed

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
        runner = self.lobby.runner
        runner.feed(Connect(conn, address(ws)))
        try:
            while True:
                # recv(), not ``async for``: the async generator of the latter (and the loop's
                # weak reference to it) would be two more objects each idle connection holds
                msg = await ws.recv()
                conn.received = metrics.received(msg)
                # Back-pressure: a client whose answers are piling up is not read from until
                # they drain (its own requests must not overflow its own send queue).
                if conn.backlog > self.limits.send_queue // 2 and not await conn.drained(self.limits.send_queue // 2):
                    break
                allowed = conn.allow()
                if not allowed and conn.strikes > self.limits.rate_strikes:
                    conn.close(1008, "flooding: rate limit exceeded too often")
                    break
                f: Frame | None = None
                try:
                    f = self._decode(msg, allowed)
                    self._admit(f, allowed)
                except PaijuError as e:
                    peek = peek_ref(msg) if f is None and isinstance(msg, bytes) else (None, None)
                    await self.lobby.carry(Garbled(conn, e, f, *peek))
                    continue
                lookups = runner.feed(Received(conn, f))
                if lookups:  # (most frames need none: no coroutine for them)
                    await self.lobby.resolve(lookups)
        except ConnectionClosed:
            pass
        finally:
            self._released += 1
            if self._released >= 64:  # a wave of connections ended: a second after its last
                if self._trim is not None:
                    self._trim.cancel()
                self._trim = asyncio.get_running_loop().call_later(1.0, self._trim_memory)
            runner.feed(Disconnect(conn))
            await conn.finish()

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
