"""The server's asyncio shell: the WebSocket endpoint ``/ws``, the timers and the tasks.

One process, one event loop. The lobby's decisions are :class:`~paiju.core.lobby.Lobby`'s (sans-I/O:
the directory of players and rooms), a room's match its :class:`~paiju.core.table.Table`'s, each
run by its :class:`~paiju.server.room.Room`; the HTTP side is paiju/server/http.py's :class:`~paiju.server.http.Site`.
This module only moves bytes and time between them: each connection has a reader (``handler``)
and a writer (:class:`~paiju.server.connection.Connection`); the lobby's outputs are carried out here
(:meth:`Server._do`), its questions for the database and the other nodes asked here
(:meth:`Server._lookup`).
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import ctypes.util
import gc
import json
import logging
import secrets
import time
from collections.abc import Callable, Sequence
from http import HTTPStatus
from pathlib import Path

import msgpack
from websockets.asyncio.server import Server as WsServer
from websockets.asyncio.server import ServerConnection, serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Response

from paiju import games
from paiju.bus.memory import RoomBus
from paiju.core import errors, table
from paiju.core.config import Config, rank_robots
from paiju.core.lifecycle import Phase
from paiju.core.lobby import (
    Answer,
    Bound,
    CatchUp,
    Checked,
    CloseConn,
    Connect,
    Disconnect,
    Evict,
    Failed,
    Feed,
    Garbled,
    Go,
    Listed,
    Lobby,
    LobbyIn,
    LobbyOut,
    Looked,
    Lookup,
    Open,
    Player,
    Received,
    Refuse,
    RoomClosed,
    Send,
    Tick,
    Unbound,
)
from paiju.core.roomlog import LogError, Replayed, replay
from paiju.protocol import (
    Account,
    Action,
    CreateRoom,
    ErrorCode,
    Feature,
    Frame,
    Hello,
    Join,
    ListRooms,
    LobbyError,
    PaijuError,
    Ping,
    ProtocolError,
    QuickPlay,
    SeatKind,
    Sessions,
    Welcome,
    decode,
)
from paiju.protocol.frames import CLIENT, FRAMES
from paiju.records import Database, matches
from paiju.records.recorder import Recorder
from paiju.server import analyses, discovery, identity, metrics, recording
from paiju.server.connection import Connection
from paiju.server.directory import Directory
from paiju.server.http import WEB_DIR, Site, respond
from paiju.server.keepalive import Keepalive
from paiju.server.recording import Follower, RobotLabel, default_label
from paiju.server.replays import Replays
from paiju.server.room import Extras, Room
from paiju.server.runner import Runner, loop_time
from paiju.server.storage import Journal, RoomStore

log = logging.getLogger("paiju.server")


class Server:
    """``Server(config, bus).start()``; ``robots(game)`` lists the robot names a room may ask
    for (the wiring in paiju/cli/serve.py passes paiju.bots.registry.names; None accepts any name), and
    ``describe(game)`` gives them with a one-line description each, for the lobby's menus
    (paiju.bots.registry.describe); ``extras(game)`` starts, off the event loop, what a RESULT's
    detail and the records add from a deal (paiju/server/room.py's Extras)."""

    def __init__(
        self,
        config: Config,
        bus: RoomBus,
        robots: Callable[[str], Sequence[str]] | None = None,
        web_dir: Path = WEB_DIR,
        store: RoomStore | None = None,
        database: Database | None = None,
        recorder: Recorder | None = None,
        robot_label: RobotLabel = default_label,
        describe: Callable[[str], Sequence[tuple[str, str]]] | None = None,
        extras: Extras | None = None,
    ) -> None:
        self.config = config
        self.extras = extras  # what the records want worked out from each deal, in processes
        self.describe = describe
        self.replays = Replays()  # finished hands, for /replay/ROOM/HAND
        self.limits = config.limits
        self.bus = bus
        self.robots = robots
        self.store = store  # room logs in Redis (paiju serve --redis), else None
        self.database = database  # accounts, match history, ratings (paiju serve), else None
        self.recorder = recorder  # finished hands and matches go to the database through it
        self.robot_label = robot_label  # a robot's account name, NAME@VERSION
        self.lobby: Lobby[Room] = Lobby(
            config,
            secret=config.secret or secrets.token_bytes(32),
            robots=robots,
            accounts=database is not None,
            epoch=time.time() - loop_time(),
            reply_to=bus.server_id,
            logged=store is not None or recorder is not None,  # the log feeds the records too
            taken=lambda rid: store is not None and rid in store.journals,
            observer=metrics.TABLES,
            roster=bus,  # a full room waits for its robots' worker (paiju/bus/roster.py)
        )
        self.site = Site(self.health, self.replays, database, web_dir)
        self.site.route("/api/games", self._games)  # discovery (paiju/server/discovery.py, SPEC.md §10.1)
        self.started = time.time()
        self.counts = {"frames_in": 0, "errors": 0, "connections": 0, "rooms": 0}
        self._ws: WsServer | None = None
        self._router: asyncio.Task[None] | None = None
        self._keepalive: asyncio.Task[None] | None = None
        self._analyses: asyncio.Task[int] | None = None
        self.keepalive: Keepalive | None = None
        self._released = 0  # connections ended since memory was last handed back
        self._trim: asyncio.TimerHandle | None = None
        # feeds the lobby, carries out its outputs and rings it at its next deadline
        self.runner: Runner[LobbyIn, LobbyOut, list[Lookup]] = Runner(self.lobby, Tick(), self._do)
        self.port = config.port
        self._cluster: Directory | None = None
        metrics.watch(self)

    # what the gauges (paiju/server/metrics.py) and /healthz count
    @property
    def rooms(self) -> dict[str, Room]:
        return self.lobby.rooms

    @property
    def players(self) -> dict[str, Player]:
        return self.lobby.players

    @property
    def connections(self) -> dict[object, Player | None]:
        return self.lobby.conns

    @property
    def cluster(self) -> Directory | None:
        """The other nodes (paiju/server/cluster.py), else None."""
        return self._cluster

    @cluster.setter
    def cluster(self, directory: Directory | None) -> None:
        self._cluster = directory
        self.lobby.directory = directory is not None

    # ------------------------------------------------------------------ lifecycle
    async def start(self) -> None:
        self.lobby.epoch = time.time() - loop_time()
        if self.database is not None and self.store is None:
            # without room logs no room outlives its process: the matches a killed one left
            # playing are over (with logs, a room not rebuilt closes its own: rebuild())
            await self._abandon(None)
        if self.database is not None and self.recorder is not None and self.extras is not None:
            # the analyses a stopped server left pending, finished in the background
            self._analyses = asyncio.create_task(analyses.finish(self.database, self.recorder, self.extras))
        self._ws = await serve(
            self.handler,
            self.config.host,
            self.config.port,
            process_request=self.site,
            compression=None,
            max_size=self.limits.max_message,
            max_queue=32,
            write_limit=16 * 1024,  # bytes buffered by websockets before send() waits
            close_timeout=2,
            ping_interval=None,  # one keepalive for all connections instead (paiju/server/keepalive.py)
        )
        sock = next(iter(self._ws.sockets))
        self.port = sock.getsockname()[1]
        self._router = asyncio.create_task(self._route_decisions(), name="decisions")
        ws = self._ws
        self.keepalive = Keepalive(lambda: ws.connections, self.limits.ping_interval)
        self._keepalive = asyncio.create_task(self.keepalive.run(), name="keepalive")

    async def close(self) -> None:
        for task in (self._router, self._keepalive, self._analyses):
            if task is not None:
                task.cancel()
        self.runner.stop()
        for room in list(self.lobby.rooms.values()):
            room.stop()
        if self._ws is not None:
            self._ws.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._ws.wait_closed(), 5)

    async def serve_forever(self) -> None:
        assert self._ws is not None
        await self._ws.serve_forever()

    async def _route_decisions(self) -> None:
        while True:
            d = await self.bus.receive()
            room = self.lobby.rooms.get(d.room)
            if room is not None:
                room.feed(table.Decide(d.seat, d.prompt_id, games.GameAction(d.code, d.cards)))

    def health(self) -> dict[str, object]:
        """The body of ``/healthz``."""
        return {
            "ok": True,
            "rooms": len(self.lobby.rooms),
            "connections": len(self.lobby.conns),
            "players": len(self.lobby.players),
            "uptime_s": round(time.time() - self.started, 1),
            "loop": loop_kind(),
            "redis": None if self.store is None else ("up" if self.store.link.up else "down"),
            "games": games.names(),
            "robots": self.robot_menus(),
            "robot_labels": self.robot_labels(),
        }

    def _games(self, connection: ServerConnection, path: str, query: str) -> Response:
        catalogue = discovery.catalogue(
            self.limits, robots=self.robot_menus(), clocks=self.config.clocks, banks=self.config.banks
        )
        return respond(
            connection, HTTPStatus.OK, json.dumps(catalogue, ensure_ascii=False).encode(), "application/json"
        )

    def robot_labels(self) -> dict[str, dict[str, str]]:
        """Each game's robots' names and versions, ``NAME@VERSION``, as the records name them."""
        out: dict[str, dict[str, str]] = {}
        for game, menu in self.robot_menus().items():
            labels = out[game] = {}
            for name, _ in menu:
                try:
                    labels[name] = self.robot_label(game, name)
                except KeyError:  # a robot another worker serves
                    labels[name] = default_label(game, name)
        return out

    def robot_menus(self) -> dict[str, list[tuple[str, str]]]:
        """Each game's robots with their descriptions, strongest (the default) first."""
        if self.describe is None:
            return {}
        menus = {}
        for game in games.names():
            described = dict(self.describe(game))
            menus[game] = [(name, described[name]) for name in rank_robots(list(described))]
        return menus

    # ------------------------------------------------------------------ rooms
    async def restore(self) -> list[Room]:
        """Rebuild the rooms in play that this server process owned, from their logs."""
        if self.store is None:
            return []
        rebuilt = []
        for rid, entries in await self.store.load():
            room = await self.rebuild(rid, entries)
            if room is not None:
                rebuilt.append(room)
        return rebuilt

    async def rebuild(self, rid: str, entries: list[bytes], *, waiting: bool = False) -> Room | None:
        """Room ``rid`` rebuilt from its log ``entries`` at the same event sequence number
        (after a restart, or taken over from a node that died); None when it is not rebuilt
        (then it is dropped from the index and its log expires). ``waiting``: a room whose
        match has not started is rebuilt too (taken over: its players are still waiting)."""
        assert self.store is not None
        try:
            r = replay(rid, entries)
        except LogError as e:
            log.error("room %s not rebuilt: %s", rid, e)
            await self.store.forget(rid)
            await self._abandon(rid)
            return None
        why = None if waiting and r.phase is Phase.WAITING else _not_rebuilt(r)
        if why is not None:
            log.info("room %s (%s) not rebuilt: %s", rid, r.game_name, why)
            await self.store.forget(rid)
            if r.phase is not Phase.WAITING:  # (over: its end may not be in the records)
                await self._abandon(rid)
            return None
        now = loop_time()
        t = table.Table.restore(
            r,
            limits=self.limits,
            reply_to=self.bus.server_id,
            now=now,
            epoch=time.time() - now,
            observer=metrics.TABLES,
            roster=self.bus,
        )
        follower = None
        if self.recorder is not None:
            follower = Follower.restored(self.recorder, r, self.lobby.players, self.robot_label)
            if self.database is not None:
                await recording.recover(follower, r, self.database, self.extras)
        room = self._open(t, self.store.open(rid, entries), follower)
        room.feed(table.Restored())
        log.info(
            "room %s (%s) rebuilt from its log at seq %d, hand %d, %d actions replayed",
            rid,
            r.game_name,
            r.seq,
            r.hand,
            r.actions,
        )
        return room

    async def _abandon(self, rid: str | None) -> None:
        """Close as abandoned the matches left playing by room ``rid`` (None: every room),
        which will never go on, keeping their hands."""
        if self.database is None:
            return
        try:
            n = await matches.abandon_playing(self.database, rid)
        except Exception as e:  # the records are not the game: the server goes on
            log.error("matches left playing not closed: %s: %s", type(e).__name__, e)
            return
        if n:
            where = f"room {rid}" if rid else "a server that stopped"
            log.warning("%d match%s left playing by %s closed as abandoned", n, "es" * (n != 1), where)

    def _open(self, t: table.Table, journal: Journal | None, follower: Follower | None = None) -> Room:
        if follower is None and self.recorder is not None:
            follower = Follower(self.recorder, t.id, t.head(), self.lobby.players, self.robot_label)
        room = Room(
            t,
            bus=self.bus,
            tell=self._tell,
            on_close=self.forget_room,
            journal=journal,
            follower=follower,
            replays=self.replays,
            extras=self.extras,
            on_rematch=self._rematch,
        )
        self.lobby.add(room)
        return room

    def _tell(self, msg: Bound | Unbound) -> None:
        self.runner.feed(msg)

    def _rematch(self, room: Room, o: table.Rematched) -> None:
        """Every human at the room's table accepted a rematch: the lobby opens the new match."""
        self.runner.feed(o)

    def forget_room(self, room: Room) -> None:
        if isinstance(room.follower, Follower):
            room.follower.closed()  # a match that did not reach its end is recorded as abandoned
        if self.lobby.rooms.get(room.id) is room:
            self.runner.feed(RoomClosed(room.id))

    # the directory's view of this node (paiju/server/directory.py's Host)
    def room(self, rid: str) -> Room | None:
        """Room ``rid`` when this node holds it."""
        return self.lobby.rooms.get(rid)

    def room_ids(self) -> list[str]:
        """The rooms this node holds."""
        return list(self.lobby.rooms)

    def evict(self, rid: str, why: str) -> None:
        """Room ``rid`` stops here (another node has it now): its players' connections close
        with ``why`` (they resume there)."""
        room = self.lobby.rooms.get(rid)
        if room is not None:
            room.stop()
        self.runner.feed(Evict(rid, why))

    # ------------------------------------------------------------------ the lobby's outputs
    def _do(self, _msg: LobbyIn, outs: list[LobbyOut]) -> list[Lookup]:
        """Carry out the lobby's outputs (for input ``_msg``), in order; the lookups it asks for
        are returned."""
        lookups = []
        for o in outs:
            if isinstance(o, Send):
                conn = o.conn
                assert isinstance(conn, Connection)
                if isinstance(o.frame, Welcome):  # what is flushed from now on
                    conn.batch = bool(o.frame.features & Feature.BATCH)
                conn.send(o.frame)
            elif isinstance(o, Feed):
                room = self.lobby.rooms.get(o.room)
                if room is None:
                    continue
                msg = o.input
                room.feed(msg, ref=o.ref)
                if isinstance(msg, table.Reply) and isinstance(msg.conn, Connection):
                    metrics.action_latency(room.table.game_name, time.perf_counter() - msg.conn.received)
                elif isinstance(msg, table.Resume):
                    metrics.resumed()
            elif isinstance(o, Refuse):
                self.counts["errors"] += 1
                conn = o.conn
                assert isinstance(conn, Connection)
                held = self.lobby.rooms.get(o.room) if o.room is not None else None
                if held is not None:
                    held.answer(conn, o.error)
                else:
                    conn.send(o.error)
            elif isinstance(o, Open):
                self.counts["rooms"] += 1
                room = self._open(o.table, self.store.open(o.table.id) if self.store is not None else None)
                if room.journal is not None:
                    room.journal.append(o.table.head())
            elif isinstance(o, CatchUp):
                conn = o.conn
                assert isinstance(o.room, Room) and isinstance(conn, Connection)
                metrics.resumed()
                o.room.catch_up(o.player, conn, o.last_seq)
            elif isinstance(o, CloseConn):
                conn = o.conn
                assert isinstance(conn, Connection)
                conn.close(o.code, o.reason)
            else:
                lookups.append(o)
        return lookups

    async def _carry(self, msg: LobbyIn) -> None:
        """Feed the lobby ``msg`` and carry out its outputs, the lookups too (their answers go
        back to it)."""
        await self._resolve(self.runner.feed(msg))

    async def _resolve(self, lookups: list[Lookup]) -> None:
        """Ask what the lobby asked and hand it the answers (and carry out what it says then)."""
        for lk in lookups:
            try:
                answer = await self._lookup(lk)
            except Exception as e:  # Moved among them: the lobby answers REDIRECT
                answer = Failed(errors.refusal(e, f"lookup for {type(lk.frame).__name__}"))
            await self._carry(Looked(lk.conn, lk.frame, answer))

    async def _lookup(self, lk: Lookup) -> Answer:
        """The database's or the other nodes' answer to what the lobby asked."""
        f, d, db = lk.frame, self._cluster, self.database
        if isinstance(f, Hello):
            if lk.player is not None and d is not None:
                await d.resume(lk.player)  # Moved: its room is another node's
            return Checked(await identity.check_hello(db, f, lk.account) if db else lk.account or "")
        if isinstance(f, Account):
            assert db is not None
            return await identity.account_op(db, f, lk.session, lk.rank)
        if isinstance(f, Sessions):
            assert db is not None and lk.session is not None
            return await identity.sessions_op(db, f, lk.session)
        assert d is not None
        if isinstance(f, ListRooms):
            return Listed(await d.lobby(f.game))
        if isinstance(f, CreateRoom):
            d.accepting()
        elif isinstance(f, Join):
            await d.locate(f.room)
        elif isinstance(f, QuickPlay):
            await d.quickplay(f.game, games.get(f.game).ruleset(f.ruleset).name)
        return Go()

    # ------------------------------------------------------------------ WebSocket
    async def handler(self, ws: ServerConnection) -> None:
        _forget_handshake(ws)
        if len(self.lobby.conns) >= self.limits.max_connections:
            await ws.close(1013, "server full")
            return
        conn = Connection(ws, self.limits)
        self.counts["connections"] += 1
        self.runner.feed(Connect(conn, _address(ws)))
        try:
            while True:
                # recv(), not ``async for``: the async generator of the latter (and the loop's
                # weak reference to it) would be two more objects each idle connection holds
                msg = await ws.recv()
                self.counts["frames_in"] += 1
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
                    peek = _peek_ref(msg) if f is None and isinstance(msg, bytes) else (None, None)
                    await self._carry(Garbled(conn, e, f, *peek))
                    continue
                lookups = self.runner.feed(Received(conn, f))
                if lookups:  # (most frames need none: no coroutine for them)
                    await self._resolve(lookups)
        except ConnectionClosed:
            pass
        finally:
            self._released += 1
            if self._released >= 64:  # a wave of connections ended: a second after its last
                if self._trim is not None:
                    self._trim.cancel()
                self._trim = asyncio.get_running_loop().call_later(1.0, self._trim_memory)
            self.runner.feed(Disconnect(conn))
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


def loop_kind() -> str:
    """The running event loop's kind, from the package that defines it: ``uvloop`` or
    ``asyncio`` (paiju/cli/eventloop.py chooses it at start)."""
    return type(asyncio.get_running_loop()).__module__.partition(".")[0]


def _not_rebuilt(r: Replayed) -> str | None:
    """Why the room of log ``r`` is not rebuilt after a restart (None: it is)."""
    if r.phase is Phase.WAITING:
        return "its match had not started"
    if r.phase is Phase.OVER:
        return "its match is over"
    if not any(s.kind in (SeatKind.HUMAN, SeatKind.AWAY) for s in r.seats) and not r.watchers:
        return "nobody holds a seat or watches"
    return None


CLIENT_FRAMES = frozenset(c for c in FRAMES.values() if c.SENDER == CLIENT)


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


def _forget_handshake(ws: ServerConnection) -> None:
    """Let go of the opening handshake's headers, read for the last time before the handler
    starts: kept, they were a quarter of what an idle connection costs the server (some 4
    KiB of request and response headers from the load generator, more from a browser, with
    its cookies and user agent; docs/performance.md, "Idle connections"). The request
    itself stays, headerless: websockets takes a connection without one for a connection
    still waiting for its handshake."""
    if ws.request is not None:
        ws.request.headers = _NO_HEADERS
    ws.response = None


def _address(ws: ServerConnection) -> str:
    """The client's IP address (the per-address limits count by it)."""
    peer = ws.remote_address
    return str(peer[0]) if isinstance(peer, tuple) and peer else "?"


# where a request's id stands in its array (SPEC.md §3.1): ACTION's prompt_id, PING's nonce
_ID_AT = {int(Action.TYPE): 1, int(Ping.TYPE): 1}


def _peek_ref(msg: bytes) -> tuple[int | None, int | None]:
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
