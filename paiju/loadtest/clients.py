"""The simulated clients: real protocol sessions that play, idle, or echo.

- :class:`Session` is one WebSocket connection speaking the protocol (HELLO, PING), that
  resumes with its token and last event number when the connection drops; what it knows
  of the session is the client library's :class:`paiju.client.state.SessionState`.
- :class:`Table` coordinates the players of one table: its first player creates each
  room (robots in the seats asked for), the others join it by id; they play match after
  match, choosing uniformly among the legal options each PROMPT offers, until the run
  stops; then they LEAVE (their seats go to robots and the room closes, so nothing keeps
  playing after the run).
- :func:`idle` holds a connection that only pings; :func:`echo` is the bare round trip of
  ``paiju bench server`` (any WebSocket server that sends each message back), and
  :func:`table_echo` a table of players taking turns through paiju/loadtest/echo.py's relay.

Latencies are taken with ``time.perf_counter`` on the generator's side: action -> ACK,
action -> the room's next prompt (any seat of the table that a client plays; a hand's end
and the pause before the next hand are not counted), PING -> PONG.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import random
import time
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from paiju.client.state import SessionState
from paiju.loadtest.stats import Stats
from paiju.protocol import (
    Ack,
    Action,
    CreateRoom,
    Error,
    ErrorCode,
    Event,
    Frame,
    Join,
    Leave,
    Ping,
    Pong,
    Prompt,
    ProtocolError,
    Result,
    RoomEvent,
    RoomState,
    encode,
)

CONNECT_ERRORS = (OSError, InvalidHandshake, InvalidURI, TimeoutError)


def code_name(code: int) -> str:
    """The name of an error code (its number when the code is not one this client knows).

    >>> code_name(301), code_name(999)
    ('NO_SUCH_PROMPT', '999')
    """
    try:
        return ErrorCode(code).name
    except ValueError:
        return str(code)


class Stop(Exception):
    """The run is over (raised inside a client to unwind it)."""


class Session:
    """One connection of one simulated player; ``frames()`` yields what the server sends,
    reconnecting (and resuming) transparently after a drop until ``stopping`` is set."""

    def __init__(self, url: str, name: str, stats: Stats, stopping: asyncio.Event, batch: bool = True) -> None:
        self.url = url
        self.name = name
        self.stats = stats
        self.stopping = stopping
        self.ws: ClientConnection | None = None
        self.state = SessionState(name, batch=batch)  # token, last event, room: the resume
        self.pings: dict[int, float] = {}
        self._nonces = itertools.count(1)
        self.cut = False  # we dropped it on purpose (--drops)
        self.gate: asyncio.Semaphore | None = None  # bounds the handshakes in flight (see run.py)

    async def open(self) -> None:
        """Connect and say HELLO (resuming when a token is known); retries until stopping."""
        delay = 0.05
        while True:
            if self.stopping.is_set():
                raise Stop
            try:
                ws = await _connect(self.url, self.gate)
            except CONNECT_ERRORS as e:
                self.stats.connect_failures += 1
                self.stats.error(f"connect: {type(e).__name__}")
                await asyncio.sleep(delay)
                delay = min(delay * 2, 2.0)
                continue
            self.ws = ws
            self.stats.connected()
            hello = self.state.hello()
            await self.send(hello)
            if hello.token is not None:
                self.stats.resumes += 1
            return

    async def send(self, f: Frame) -> None:
        """Send ``f``; nothing when the connection is down (closed by the run's end while a
        paced player waited, or cut: the server prompts again after the resume)."""
        if self.ws is None:
            return
        data = encode(f)
        self.stats.frames_out += 1
        self.stats.bytes_out += len(data)
        await self.ws.send(data)

    async def ping(self) -> None:
        n = next(self._nonces) & 0xFFFF_FFFF
        self.pings[n] = time.perf_counter()
        await self.send(Ping(n))

    def _gone(self) -> None:
        """The connection is over (counted once, whoever noticed first)."""
        if self.ws is None:
            return
        self.ws = None
        self.stats.connections -= 1
        if not self.cut and not self.stopping.is_set():
            self.stats.disconnects += 1
        self.cut = False

    async def frames(self) -> Any:
        """Every frame from the server, reconnecting after a drop; the protocol's own
        bookkeeping (the session's state, PONG times, undecodable frames) is done here."""
        state = self.state
        while True:
            if self.ws is None:
                await self.open()
            assert self.ws is not None
            try:
                async for msg in self.ws:
                    if isinstance(msg, str):
                        continue
                    self.stats.messages_in += 1
                    self.stats.bytes_in += len(msg)
                    try:
                        got = state.receive(msg)
                    except ProtocolError as e:
                        self.stats.error(f"undecodable: {code_name(e.code)}")
                        continue
                    self.stats.frames_in += len(got)
                    for f in got:
                        if isinstance(f, Pong):
                            t = self.pings.pop(f.nonce, None)
                            if t is not None:
                                self.stats.latency("ping", (time.perf_counter() - t) * 1000)
                            continue
                        yield f
            except ConnectionClosed:
                pass
            self._gone()
            if self.stopping.is_set():
                return

    async def drop(self) -> None:
        """Cut the connection without a closing handshake (a network failure); the reader
        then resumes."""
        if self.ws is not None:
            self.cut = True
            self.stats.drops += 1
            self.ws.transport.abort()

    async def close(self) -> None:
        """LEAVE the room (its seat goes to a robot, and the room closes once no player of
        ours is left), then close the connection; the reader then ends."""
        ws = self.ws
        if ws is None:
            return
        if self.state.room is not None and not self.state.over:
            with contextlib.suppress(Exception):
                await self.send(Leave(self.state.room))
        self._gone()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(ws.close(), 2)


class Table:
    """The simulated players of one table (``humans`` sessions), playing one room after the other."""

    def __init__(
        self,
        index: int,
        url: str,
        game: str,
        humans: int,
        bots: list[int],
        hands: int,
        stats: Stats,
        stopping: asyncio.Event,
        rng: random.Random,
    ) -> None:
        self.index = index
        self.robot: str | None = None  # robot of the robot seats (None: the server's choice)
        self.interval = 0.0  # paced: at most one action of ours per interval (0: at once)
        self._next_at = 0.0
        self.game = game
        self.bots = bots
        self.hands = hands
        self.stats = stats
        self.stopping = stopping
        self.rng = rng
        # no human seat at all (every seat a robot's): one client creates the room and watches
        self.sessions = [Session(url, f"load{index}-{i}", stats, stopping) for i in range(max(humans, 1))]
        self.rooms: dict[int, asyncio.Future[str]] = {}  # match number -> room id
        self.last_action: float | None = None  # when a player of the table last acted

    async def _pace(self) -> None:
        """Wait for this table's next slot (open-loop pacing: the slots do not drift with latency)."""
        now = time.perf_counter()
        if self._next_at > now:
            await asyncio.sleep(self._next_at - now)
        self._next_at = max(now, self._next_at) + self.interval

    def _room(self, match: int) -> asyncio.Future[str]:
        if match not in self.rooms:
            self.rooms[match] = asyncio.get_running_loop().create_future()
            self.rooms.pop(match - 2, None)
        return self.rooms[match]

    async def run(self) -> None:
        await asyncio.gather(*(self._player(i, s) for i, s in enumerate(self.sessions)))

    async def _player(self, i: int, s: Session) -> None:
        """Player ``i`` of the table: the first creates the rooms, the others join them."""
        sent: dict[int, float] = {}  # prompt id -> when our ACTION went
        withdrawn: set[int] = set()  # prompts withdrawn after we answered them
        match = 0
        try:
            frames = s.frames()
            await s.open()
            retry = False
            while not self.stopping.is_set():
                if retry:
                    await asyncio.sleep(0.5)
                    retry = False
                # WELCOME first, then the room: created (player 0) or joined (the others)
                if i == 0:
                    await s.send(
                        CreateRoom(self.game, hands=self.hands, bots=list(self.bots), robot=self.robot, private=True)
                    )
                else:
                    room = await _until(self._room(match), self.stopping)
                    await s.send(Join(room, i))
                async for f in frames:
                    if isinstance(f, Prompt):
                        if f.mask and f.options:
                            if self.last_action is not None:
                                self.stats.latency("next_prompt", (time.perf_counter() - self.last_action) * 1000)
                                self.last_action = None
                            opt = self.rng.choice(f.options)
                            cards = bytes(self.rng.sample(list(opt.cards), opt.pick))
                            if self.interval:
                                await self._pace()
                            now = time.perf_counter()
                            sent[f.prompt_id] = now
                            self.last_action = now
                            self.stats.sent_actions += 1
                            await s.send(Action(f.prompt_id, opt.code, cards))
                        elif f.prompt_id in sent:
                            withdrawn.add(f.prompt_id)
                    elif isinstance(f, Ack):
                        t = sent.pop(f.prompt_id, None)
                        if t is not None:
                            self.stats.actions += 1
                            self.stats.latency("ack", (time.perf_counter() - t) * 1000)
                    elif isinstance(f, Event):
                        if f.code == RoomEvent.MATCH_END:
                            break
                        if f.code == RoomEvent.TIMEOUT and f.arg in sent:
                            self.stats.timeouts += 1  # the clock played for us: an answer too late
                            withdrawn.add(f.arg)
                    elif isinstance(f, Result):
                        self.last_action = None  # the next prompt waits for the next hand
                        if i == 0:
                            self.stats.hands += 1
                    elif isinstance(f, RoomState):
                        robots = [n for n in f.seats if n is not None and n.endswith(" (robot)")]
                        if robots and self.stats.robot is None:
                            self.stats.robot = robots[0].removesuffix(" (robot)")
                        if i == 0 and not self._room(match).done():
                            self._room(match).set_result(f.room)
                    elif isinstance(f, Error):
                        if f.ref_id is not None and f.ref_id in withdrawn:
                            self.stats.stale += 1  # our answer crossed the prompt's withdrawal (or its clock)
                            sent.pop(f.ref_id, None)
                            withdrawn.discard(f.ref_id)
                            continue
                        self.stats.error(code_name(f.code))
                        if f.ref_type in (CreateRoom.TYPE, Join.TYPE):
                            retry = True  # refused (the server is full?): ask again shortly
                            break
                    if self.stopping.is_set():
                        break
                else:
                    return  # the run stopped while the connection was down
                if retry or self.stopping.is_set():
                    continue
                if i == 0:
                    self.stats.matches += 1
                match += 1
                sent.clear()
                withdrawn.clear()
        except Stop:
            pass
        finally:
            await s.close()


async def idle(s: Session, interval: float) -> None:
    """A connection that says HELLO and then only pings every ``interval`` seconds."""
    stats, stopping = s.stats, s.stopping
    frames = s.frames()

    async def pinger() -> None:
        while not stopping.is_set():
            await asyncio.sleep(interval * (0.5 + random.random()))
            if s.ws is not None:
                with contextlib.suppress(ConnectionClosed):
                    await s.ping()

    try:
        await s.open()
        task = asyncio.create_task(pinger())
        try:
            async for f in frames:
                if isinstance(f, Error):
                    stats.error(code_name(f.code))
        finally:
            task.cancel()
    except Stop:
        pass
    finally:
        await s.close()


async def echo(url: str, stats: Stats, stopping: asyncio.Event, gate: asyncio.Semaphore | None = None) -> None:
    """One connection that sends a PING frame and waits for the same bytes back, in a loop:
    the bare round trip that ``paiju bench server`` compares the rooms with."""
    try:
        ws = await _connect(url, gate)
    except CONNECT_ERRORS as e:
        stats.connect_failures += 1
        stats.error(f"connect: {type(e).__name__}")
        return
    stats.connected()
    n = 0
    try:
        while not stopping.is_set():
            n = (n + 1) & 0xFFFF_FFFF
            data = encode(Ping(n))
            t = time.perf_counter()
            await ws.send(data)
            back = await ws.recv()
            stats.frames_out += 1
            stats.frames_in += 1
            stats.bytes_out += len(data)
            stats.bytes_in += len(back)
            stats.round_trips += 1
            stats.latency("ack", (time.perf_counter() - t) * 1000)
    except ConnectionClosed:
        stats.disconnects += 1
    finally:
        stats.connections -= 1
        with contextlib.suppress(Exception):
            await asyncio.wait_for(ws.close(), 2)


async def table_echo(
    url: str,
    table: str,
    humans: int,
    robots: int,
    stats: Stats,
    stopping: asyncio.Event,
    gate: asyncio.Semaphore | None = None,
) -> None:
    """The ``humans`` players of one table of the echo server's relay (paiju/loadtest/echo.py)
    take turns, one move in flight a table as in a room: the player whose turn it is sends
    a PING frame and every player reads it (after the last player's, ``robots`` copies
    more: the robot seats' moves). A turn counts as a round trip, a robot's too; its
    latency is the mover's own copy's. The floor that ``paiju bench server`` puts beside
    the rooms: the same reads and writes on both sides, no game."""
    query = f"humans={humans}&robots={robots}"
    conns: list[ClientConnection] = []
    try:
        for seat in range(humans):
            ws = await _connect(f"{url.rstrip('/')}/table/{table}?seat={seat}&{query}", gate)
            conns.append(ws)
            await ws.recv()  # seated: the relay will not miss what this seat sends
            stats.connected()
    except (*CONNECT_ERRORS, ConnectionClosed) as e:
        stats.connect_failures += 1
        stats.error(f"connect: {type(e).__name__}")
        stats.connections -= len(conns)
        await asyncio.gather(*(ws.close() for ws in conns), return_exceptions=True)
        return
    n = 0
    try:
        while not stopping.is_set():
            for seat, ws in enumerate(conns):
                n = (n + 1) & 0xFFFF_FFFF
                data = encode(Ping(n))
                moves = 1 + (robots if seat == humans - 1 else 0)
                t = time.perf_counter()
                await ws.send(data)
                back = await ws.recv()
                stats.latency("ack", (time.perf_counter() - t) * 1000)
                for other in conns:
                    for _ in range(moves - (other is ws)):
                        await other.recv()
                stats.frames_out += 1
                stats.frames_in += moves * humans
                stats.bytes_out += len(data)
                stats.bytes_in += moves * humans * len(back)
                stats.round_trips += moves
    except ConnectionClosed:
        stats.disconnects += 1
    finally:
        stats.connections -= len(conns)
        await asyncio.gather(*(asyncio.wait_for(ws.close(), 2) for ws in conns), return_exceptions=True)


async def _connect(url: str, gate: asyncio.Semaphore | None) -> ClientConnection:
    """Open a WebSocket (the opening handshake within 30 s), at most ``gate``'s count at once."""
    if gate is None:
        return await connect(url, compression=None, max_size=None, ping_interval=None, open_timeout=30)
    async with gate:
        return await connect(url, compression=None, max_size=None, ping_interval=None, open_timeout=30)


async def _until(fut: asyncio.Future[str], stopping: asyncio.Event) -> str:
    """``fut``'s result, or Stop when the run stops first."""
    stop = asyncio.ensure_future(stopping.wait())
    either: set[asyncio.Future[Any]] = {fut, stop}
    try:
        await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
    finally:
        stop.cancel()
    if not fut.done():
        raise Stop
    return fut.result()
