"""One session with a paiju server, over asyncio: connect, say HELLO, send requests, read frames.

::

    async with await Client.connect("ws://127.0.0.1:8765/ws", "ann") as c:
        state = await c.create("tricks", bots=[1])
        async for f in c:                       # every frame, in order
            if isinstance(f, Prompt) and f.mask:
                await c.act(f, f.options[0].code, f.options[0].cards[: f.options[0].pick])
            elif isinstance(f, Result) and f.final:
                break

A reader task decodes every frame into one queue (iterate the client, or ``recv()``) and
keeps the session's state (:class:`paiju.client.state.SessionState`, ``state``) up to date:
``seq`` (the last event seen, for resume), the ``prompts`` pending for this connection by
prompt id (a PROMPT with mask 0 withdraws one), ``room`` and ``seat``. Request methods
(``create``, ``join``, ``act``, ...) send a frame and wait for its answer; the answer is
also left in the stream, so a consumer that iterates sees everything. An ERROR answering
a request raises :class:`ServerError`.

Several nodes (``paiju serve --redis``): a request for a room that lives on another node is
answered with REDIRECT; the client connects there, says HELLO with its token (same player)
and sends the request again, so callers never see it. After a connection is lost,
:meth:`Client.reconnect` resumes through the same URL or any of ``urls`` (the service's
nodes), following the REDIRECT to the node that holds the room now.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator, Callable
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, WebSocketException

from paiju.client.state import SessionState
from paiju.protocol import (
    VERSION,
    Account,
    Ack,
    Action,
    CreateRoom,
    Error,
    ErrorCode,
    Event,
    Frame,
    Hello,
    Identity,
    Join,
    Leave,
    ListRooms,
    Ping,
    Pong,
    Prompt,
    QuickPlay,
    Redirect,
    Result,
    RoomEvent,
    RoomInfo,
    RoomList,
    RoomState,
    SessionList,
    Sessions,
    Welcome,
    encode,
)


class ServerError(Exception):
    """The server answered a request with ERROR."""

    def __init__(self, error: Error) -> None:
        super().__init__(f"{error.code}: {error.message}")
        self.error = error
        self.code = error.code


class Closed(Exception):
    """The connection closed while waiting. ``code`` and ``reason``: the server's closing
    frame's (SPEC.md: 1012 when the room moved to another node, 1008 for a reader too slow,
    a flood or a newer connection, 1013 when the server is full); 1006 and "" when the link
    ended without one.

    >>> Closed("connection closed").code
    1006
    """

    def __init__(self, message: str, code: int = 1006, reason: str = "") -> None:
        super().__init__(message)
        self.code = code
        self.reason = reason

    @classmethod
    def of(cls, ws: ClientConnection) -> Closed:
        """How ``ws`` ended, in the words of its closing handshake."""
        p = ws.protocol
        got = p.close_rcvd
        if got is None:
            return cls("connection lost without a closing frame (1006)")
        if p.close_sent is not None and not p.close_rcvd_then_sent:
            return cls(f"closed by this client ({got.code})", got.code, got.reason)
        return cls(f"closed by the server: {got.code} ({got.reason or 'no reason given'})", got.code, got.reason)


MAX_REDIRECTS = 5  # a request sent again after this many REDIRECTs in a row is given up


class Client:
    """A connection to a paiju server (open one with :meth:`connect`), and the state of its session."""

    def __init__(self, ws: ClientConnection, name: str, url: str = "") -> None:
        self.ws = ws
        self.url = url  # the node this client is connected to
        self.urls: list[str] = [url] if url else []  # the nodes to resume through (reconnect)
        self.redirects = 0  # REDIRECTs followed
        self.connect_options: dict[str, Any] = {}
        self.state = SessionState(name)
        self.frames: asyncio.Queue[Frame | None] = asyncio.Queue()
        self.log: list[Frame] = []  # every frame received, when record=True
        self.record = False
        self.messages = 0  # WebSocket messages received
        self.closed = False
        self._waiters: list[tuple[Callable[[Frame], bool], asyncio.Future[Frame]]] = []
        self._reader = asyncio.create_task(self._read(ws))

    # ------------------------------------------------------------------ the session's state
    @property
    def name(self) -> str:
        return self.state.name

    @name.setter
    def name(self, name: str) -> None:
        self.state.name = name

    @property
    def player_id(self) -> str:
        return self.state.player_id

    @property
    def token(self) -> str:
        """WELCOME's resume token ("" before the first)."""
        return self.state.token or ""

    @property
    def room(self) -> str | None:
        return self.state.room

    @property
    def seat(self) -> int | None:
        return self.state.seat

    @property
    def seq(self) -> int:
        """The last event seen (a resume goes on after it)."""
        return self.state.seq

    @property
    def prompts(self) -> dict[int, Prompt]:
        """The prompts open for this connection, by prompt id."""
        return self.state.prompts

    # ------------------------------------------------------------------ connecting
    @classmethod
    async def connect(
        cls,
        url: str,
        name: str = "player",
        *,
        token: str | None = None,
        last_seq: int | None = None,
        record: bool = False,
        hello: bool = True,
        session: str | None = None,
        urls: list[str] | None = None,
        batch: bool = True,
        **kwargs: Any,
    ) -> Client:
        """Open ``url`` (ws://host:port/ws) and, unless ``hello=False``, say HELLO (resuming
        with ``token`` and ``last_seq`` when given; as an account with its ``session``).
        ``urls``: the service's other nodes, for :meth:`reconnect`; ``batch``: ask for
        several frames a message (SPEC.md §1), which the client reads all the same."""
        ws = await connect(url, compression=None, max_size=None, **kwargs)
        c = cls(ws, name, url)
        c.urls += [u for u in urls or [] if u != url]
        c.connect_options = kwargs
        c.record = record
        c.state.batch = batch  # HELLO asks for batches (Feature.BATCH): fewer, larger messages
        if hello:
            try:
                await c.hello(token=token, last_seq=last_seq, session=session)
            except BaseException:  # refused (e.g. an ended token): the caller never gets it to close
                await c.close()
                raise
        return c

    async def hello(self, token: str | None = None, last_seq: int | None = None, session: str | None = None) -> Welcome:
        """Say HELLO: a new player, or with ``token`` the same player again (resuming its room
        after the event ``last_seq``); as an account with its ``session``."""
        if last_seq is not None:
            self.state.seq = last_seq
        self.state.session = session
        return await self._say(Hello(VERSION, self.name, token, last_seq, session, self.state.features))

    async def _say(self, hello: Hello) -> Welcome:
        w = await self.request(hello, lambda f: isinstance(f, Welcome))
        assert isinstance(w, Welcome)
        return w

    async def move(self, url: str) -> None:
        """Continue this session on the node at ``url``: connect there and say HELLO with the
        token and the last event seen (the same player; its room resumes there)."""
        await self._switch(url)
        if self.state.token:
            await self._say(self.state.hello())

    async def reconnect(self, timeout: float = 30.0, pause: float = 0.25) -> Welcome:
        """Resume after the connection was lost: HELLO with the token and the last event seen,
        through this client's node or else any of ``urls``, until one answers (following
        REDIRECT to the node that holds the room now); TimeoutError after ``timeout``."""
        async with asyncio.timeout(timeout):
            attempt = 0
            while True:
                url = self.urls[attempt % len(self.urls)] if self.urls else self.url
                if attempt == 0:
                    url = self.url
                attempt += 1
                try:
                    await self.move(url)
                    return Welcome(self.player_id, self.token)
                except (OSError, Closed, WebSocketException, ServerError, TimeoutError) as e:
                    if isinstance(e, ServerError) and e.code not in (ErrorCode.SHUTTING_DOWN, ErrorCode.INTERNAL):
                        raise
                    await asyncio.sleep(pause)

    async def account(self, op: str, name: str | None = None, password: str | None = None) -> Identity:
        """Register, log in or log out (ServerError when refused); the new identity."""
        i = await self.request(Account(op, name, password), lambda f: isinstance(f, Identity))
        assert isinstance(i, Identity)
        self.name = i.player
        return i

    async def sessions(self, end: str | None = None) -> SessionList:
        """The sessions of the account this client plays as, after ending ``end`` (an id from
        the list, or "others"); ServerError when refused."""
        got = await self.request(Sessions(end), lambda f: isinstance(f, SessionList))
        assert isinstance(got, SessionList)
        return got

    async def close(self) -> None:
        self.closed = True
        with contextlib.suppress(Exception):
            await self.ws.close()
        self._reader.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self._reader

    async def abort(self) -> None:
        """Drop the connection without a closing handshake (a network failure)."""
        self.closed = True
        transport = self.ws.transport
        transport.abort()
        self._reader.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self._reader

    async def __aenter__(self) -> Client:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # ------------------------------------------------------------------ frames in
    async def _read(self, ws: ClientConnection) -> None:
        try:
            async for msg in ws:
                if isinstance(msg, str):
                    continue
                self.messages += 1
                # a batch (a single frame is one too), or exactly one frame when none was asked for
                for f in self.state.receive(msg):
                    if self.record:
                        self.log.append(f)
                    for pred, fut in list(self._waiters):
                        if not fut.done() and pred(f):
                            fut.set_result(f)
                    self.frames.put_nowait(f)
        except ConnectionClosed:
            pass
        finally:
            if ws is self.ws:  # else replaced by move(): the session goes on over the new one
                self._ended(ws)

    def _ended(self, ws: ClientConnection) -> None:
        self.closed = True
        for _, fut in self._waiters:
            if not fut.done():
                fut.set_exception(Closed.of(ws))
        self.frames.put_nowait(None)

    async def recv(self, timeout: float | None = None) -> Frame:
        """The next frame; Closed when the connection has ended."""
        async with asyncio.timeout(timeout):
            f = await self.frames.get()
        if f is None:
            self.frames.put_nowait(None)
            raise Closed.of(self.ws)
        return f

    def __aiter__(self) -> AsyncIterator[Frame]:
        return self._iter()

    async def _iter(self) -> AsyncIterator[Frame]:
        while True:
            try:
                yield await self.recv()
            except Closed:
                return

    # ------------------------------------------------------------------ frames out
    async def send(self, f: Frame) -> None:
        await self.ws.send(encode(f))

    async def send_raw(self, data: bytes | str) -> None:
        """Send anything at all (tests of hostile input)."""
        await self.ws.send(data)

    async def request(self, f: Frame, answer: Callable[[Frame], bool], timeout: float = 10.0) -> Frame:
        """Send ``f`` and wait for the frame ``answer`` accepts, or an ERROR that refers to
        ``f`` (raised as ServerError)."""
        ref_id = getattr(f, "prompt_id", getattr(f, "nonce", None))

        def match(x: Frame) -> bool:
            if isinstance(x, Error):
                return x.ref_type == f.TYPE and (ref_id is None or x.ref_id in (None, ref_id))
            if isinstance(x, Redirect):
                return x.ref_type == f.TYPE
            return answer(x)

        for _ in range(MAX_REDIRECTS + 1):
            fut: asyncio.Future[Frame] = asyncio.get_running_loop().create_future()
            entry = (match, fut)
            self._waiters.append(entry)
            try:
                try:
                    await self.send(f)
                except ConnectionClosed:
                    raise Closed.of(self.ws) from None
                async with asyncio.timeout(timeout):
                    got = await fut
            finally:
                self._waiters.remove(entry)
            if isinstance(got, Error):
                raise ServerError(got)
            if not isinstance(got, Redirect):
                return got
            self.redirects += 1
            if isinstance(f, Hello):  # a resume whose room is on another node: HELLO there
                await self._switch(got.url)
            else:
                await self.move(got.url)
        raise ServerError(Error(ErrorCode.MOVED, f"more than {MAX_REDIRECTS} redirects in a row", f.TYPE))

    async def _switch(self, url: str) -> None:
        """Connect to ``url`` before any HELLO there (the caller sends it)."""
        ws = await connect(url, compression=None, max_size=None, **self.connect_options)
        old, self.ws, self.url = self.ws, ws, url
        self.closed = False
        reader, self._reader = self._reader, asyncio.create_task(self._read(ws))
        with contextlib.suppress(Exception):
            await asyncio.wait_for(old.close(), 1.0)  # a dead link would keep close() waiting
        reader.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await reader
        # A lost connection left its end mark in the stream, and prompts that the new node
        # sends again (a rebuilt room numbers them again): the session goes on without them.
        queued = [self.frames.get_nowait() for _ in range(self.frames.qsize())]
        kept = [x for x in queued if x is not None and not isinstance(x, Prompt)]
        for x in kept:
            self.frames.put_nowait(x)
        self.prompts.clear()

    # ------------------------------------------------------------------ lobby
    async def list_rooms(self, game: str | None = None) -> list[RoomInfo]:
        r = await self.request(ListRooms(game), lambda f: isinstance(f, RoomList))
        assert isinstance(r, RoomList)
        return r.rooms

    async def create(
        self,
        game: str,
        ruleset: str | None = None,
        *,
        hands: int | None = None,
        clock_ms: int | None = None,
        bots: list[int] | None = None,
        robot: str | None = None,
        private: bool = False,
        seed: int | None = None,
        pbn: str | None = None,
        robots: list[str | None] | None = None,
    ) -> RoomState:
        """Create a room; the creator takes the first seat that is not a robot's (or watches).
        ``pbn``: a bridge room plays the deals of this PBN text (hands: one per deal by default);
        ``robots``: by seat, a robot seat's own robot (None: ``robot``)."""
        f = CreateRoom(game, ruleset, hands, clock_ms, list(bots or []), robot, private, seed, pbn, list(robots or []))
        s = await self.request(f, lambda x: isinstance(x, RoomState))
        assert isinstance(s, RoomState)
        return s

    async def join(self, room: str, seat: int | None = None) -> RoomState:
        """Take ``seat`` in ``room`` (None: watch)."""
        s = await self.request(Join(room, seat), lambda x: isinstance(x, RoomState) and x.room == room)
        assert isinstance(s, RoomState)
        return s

    async def watch(self, room: str) -> RoomState:
        return await self.join(room, None)

    async def leave(self, room: str | None = None) -> None:
        """Leave (the server answers nothing but an ERROR; a PING makes sure it was handled)."""
        rid = room or self.room
        assert rid is not None
        await self.send(Leave(rid))
        await self.ping()
        self.state.left()

    async def quickplay(self, game: str, ruleset: str | None = None) -> RoomState:
        s = await self.request(QuickPlay(game, ruleset), lambda x: isinstance(x, RoomState))
        assert isinstance(s, RoomState)
        return s

    async def ping(self, nonce: int | None = None) -> Pong:
        n = random.getrandbits(31) if nonce is None else nonce
        p = await self.request(Ping(n), lambda x: isinstance(x, Pong) and x.nonce == n)
        assert isinstance(p, Pong)
        return p

    # ------------------------------------------------------------------ playing
    async def act(self, prompt: Prompt | int, code: int, cards: bytes = b"") -> Ack:
        """Answer a prompt; returns the ACK or raises ServerError."""
        pid = prompt.prompt_id if isinstance(prompt, Prompt) else prompt
        a = await self.request(Action(pid, code, bytes(cards)), lambda x: isinstance(x, Ack) and x.prompt_id == pid)
        assert isinstance(a, Ack)
        return a

    async def act_random(self, prompt: Prompt, rng: random.Random) -> Ack:
        """Answer ``prompt`` with a uniformly chosen legal option."""
        opt = rng.choice(prompt.options)
        return await self.act(prompt, opt.code, bytes(rng.sample(list(opt.cards), opt.pick)))

    async def play(self, rng: random.Random | None = None, timeout: float = 60.0) -> list[Result]:
        """Play random legal moves until the match ends (MATCH_END); returns every RESULT."""
        rng = rng or random.Random()
        results: list[Result] = []
        async with asyncio.timeout(timeout):
            for p in list(self.prompts.values()):  # prompts that came before this call
                with contextlib.suppress(ServerError):
                    await self.act_random(p, rng)
            async for f in self:
                if isinstance(f, Prompt) and f.prompt_id in self.prompts:
                    with contextlib.suppress(ServerError):  # withdrawn meanwhile: a newer prompt follows
                        await self.act_random(f, rng)
                elif isinstance(f, Result):
                    results.append(f)
                elif isinstance(f, Event) and f.code == RoomEvent.MATCH_END:
                    return results
        raise Closed("the connection closed before the match ended")

    async def until_match_end(self, timeout: float = 60.0) -> list[Result]:
        """Read (without acting) until the match ends (MATCH_END, which follows the final RESULT);
        returns every RESULT seen meanwhile."""
        results: list[Result] = []
        async with asyncio.timeout(timeout):
            async for f in self:
                if isinstance(f, Result):
                    results.append(f)
                elif isinstance(f, Event) and f.code == RoomEvent.MATCH_END:
                    return results
        raise Closed("the connection closed before the match ended")
