"""The server: WebSocket endpoint ``/ws``, the lobby, the rooms, the decisions from the bus,
and the HTTP side (``/healthz`` and the web client's static files).

One process, one event loop. Each connection has a reader (this module's ``handler``) and
a writer (:class:`~server.connection.Connection`); each room a task
(:class:`~server.room.Room`). The lobby's state (players, rooms) is touched only from the
event loop, and a room's game only from its task.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import ctypes.util
import gc
import http
import json
import logging
import mimetypes
import re
import secrets
import time
from collections import Counter, deque
from collections.abc import Callable, Sequence
from pathlib import Path
from urllib.parse import unquote

import msgpack
from websockets.asyncio.server import Server as WsServer
from websockets.asyncio.server import ServerConnection, serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

import games
from games import Rules
from protocol import (
    VERSION,
    Action,
    CreateRoom,
    Error,
    ErrorCode,
    Feature,
    Frame,
    Hello,
    Identity,
    Join,
    Leave,
    ListRooms,
    LobbyError,
    Moved,
    PaijuError,
    Ping,
    Pong,
    ProtocolError,
    QuickPlay,
    Redirect,
    RoomList,
    SeatKind,
    Welcome,
    decode,
)
from protocol import Account as AccountFrame
from protocol.bus import RoomBus
from protocol.frames import CLIENT, FRAMES
from records import Database
from records import api as records_api
from records.recorder import Recorder

from . import identity, metrics, replays, table, tokens
from .config import FALLBACK_CLOCK_MS, Config, rank_robots
from .connection import Connection
from .directory import Directory
from .keepalive import Keepalive
from .lifecycle import Phase
from .recording import Follower, RobotLabel, default_label
from .replays import Replays
from .room import Player, Room
from .roomlog import LogError, Replayed, replay
from .storage import Journal, RoomStore

log = logging.getLogger("paiju.server")

WEB_DIR = Path(__file__).parent / "web"
# the web client's own pages (player, match, leaderboard): each address is its index.html
CLIENT_PAGES = re.compile(r"/(?:players|matches|leaderboard)/[^/]+")
CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".map": "application/json",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".txt": "text/plain; charset=utf-8",
    ".wasm": "application/wasm",
}


class Server:
    """``Server(config, bus).start()``; ``robots(game)`` lists the robot names a room may ask
    for (the wiring in paiju/serve.py passes bots.registry.names; None accepts any name), and
    ``describe(game)`` gives them with a one-line description each, for the lobby's menus
    (bots.registry.describe)."""

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
    ) -> None:
        self.config = config
        self.describe = describe
        self.replays = Replays()  # finished hands, for /replay/ROOM/HAND
        self.limits = config.limits
        self.bus = bus
        self.robots = robots
        self.web_dir = web_dir
        self.store = store  # room logs in Redis (paiju serve --redis), else None
        self.database = database  # accounts, match history, ratings (paiju serve), else None
        self.recorder = recorder  # finished hands and matches go to the database through it
        self.robot_label = robot_label  # a robot's account name, NAME@VERSION
        self.secret = config.secret or secrets.token_bytes(32)
        self.rooms: dict[str, Room] = {}
        self.players: dict[str, Player] = {}
        self.connections: dict[Connection, Player | None] = {}  # and the player each speaks for
        # per client address: open connections, the address of each, the rooms created from
        # it (open ones) and when it created rooms in the last minute
        self.per_address: Counter[str] = Counter()
        self.address_of: dict[Connection, str] = {}
        self.room_address: dict[str, str] = {}
        self.created_at: dict[str, deque[float]] = {}
        self.started = time.time()
        self.counts = {"frames_in": 0, "errors": 0, "connections": 0, "rooms": 0}
        self._ws: WsServer | None = None
        self._router: asyncio.Task[None] | None = None
        self._keepalive: asyncio.Task[None] | None = None
        self.keepalive: Keepalive | None = None
        self._released = 0  # connections ended since memory was last handed back
        self._trim: asyncio.TimerHandle | None = None
        self.port = config.port
        self.cluster: Directory | None = None  # the other nodes (server/cluster.py), else None
        metrics.watch(self)

    # ------------------------------------------------------------------ lifecycle
    async def start(self) -> None:
        self._ws = await serve(
            self.handler,
            self.config.host,
            self.config.port,
            process_request=self.http_or_api,
            compression=None,
            max_size=self.limits.max_message,
            max_queue=32,
            write_limit=16 * 1024,  # bytes buffered by websockets before send() waits
            close_timeout=2,
            ping_interval=None,  # one keepalive for all connections instead (server/keepalive.py)
        )
        sock = next(iter(self._ws.sockets))
        self.port = sock.getsockname()[1]
        self._router = asyncio.create_task(self._route_decisions(), name="decisions")
        ws = self._ws
        self.keepalive = Keepalive(lambda: ws.connections, self.limits.ping_interval)
        self._keepalive = asyncio.create_task(self.keepalive.run(), name="keepalive")

    async def close(self) -> None:
        for task in (self._router, self._keepalive):
            if task is not None:
                task.cancel()
        for room in list(self.rooms.values()):
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
            room = self.rooms.get(d.room)
            if room is not None:
                room.feed(table.Decide(d.seat, d.prompt_id, games.Action(d.code, d.cards)))

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
            return None
        why = None if waiting and r.phase is Phase.WAITING else _not_rebuilt(r)
        if why is not None:
            log.info("room %s (%s) not rebuilt: %s", rid, r.game_name, why)
            await self.store.forget(rid)
            return None
        t = table.Table.restore(r, limits=self.limits, reply_to=self.bus.server_id, **self._clock())
        if t.quickplay and t.phase is Phase.WAITING:  # robots fill it after the wait, as before
            t.start_at = t.now + self.limits.quickplay_wait
        follower = None
        if self.recorder is not None:
            follower = Follower.restored(self.recorder, r, self.players, self.robot_label)
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

    def _clock(self) -> dict[str, float]:
        """The table's clock arguments: now on the loop's clock, and unix time at its zero."""
        now = asyncio.get_running_loop().time()
        return {"now": now, "epoch": time.time() - now}

    def _open(self, t: table.Table, journal: Journal | None, follower: Follower | None = None) -> Room:
        if follower is None and self.recorder is not None:
            follower = Follower(self.recorder, t.id, t.head(), self.players, self.robot_label)
        room = Room(
            t,
            bus=self.bus,
            players=self.players,
            on_close=self.forget_room,
            journal=journal,
            follower=follower,
            replays=self.replays,
        )
        self.rooms[t.id] = room
        return room

    def forget_room(self, room: Room) -> None:
        if isinstance(room.follower, Follower):
            room.follower.closed()  # a match that did not reach its end is recorded as abandoned
        if self.rooms.get(room.id) is room:
            del self.rooms[room.id]
            self.room_address.pop(room.id, None)

    # ------------------------------------------------------------------ HTTP
    async def http_or_api(self, connection: ServerConnection, request: Request) -> Response | None:
        """The records' JSON API under /api/ (it reads the database), else :meth:`http`."""
        path, _, query = request.path.partition("?")
        if not path.startswith("/api/"):
            return self.http(connection, request)
        if self.database is None:
            body = b'{"error": {"code": "no_records", "message": "this server keeps no records (no database)"}}'
            return _response(connection, http.HTTPStatus.NOT_FOUND, body, "application/json")
        if m := replays.STORED.fullmatch(path):  # a stored hand for the web client's replay viewer
            data = await replays.stored(self.database, int(m.group(1)), int(m.group(2)))
            if data is None:
                return _response(connection, http.HTTPStatus.NOT_FOUND, b"no such finished hand\n", "text/plain")
            return _response(connection, http.HTTPStatus.OK, data, "application/msgpack")
        r = await records_api.answer(self.database, path, query)
        return _response(connection, http.HTTPStatus(r.status), r.body, r.content_type)

    def http(self, connection: ServerConnection, request: Request) -> Response | None:
        path = request.path.split("?", 1)[0]
        if path == "/ws":
            return None
        if path == "/healthz":
            body = {
                "ok": True,
                "rooms": len(self.rooms),
                "connections": len(self.connections),
                "players": len(self.players),
                "uptime_s": round(time.time() - self.started, 1),
                "redis": None if self.store is None else ("up" if self.store.link.up else "down"),
                "games": games.names(),
                "robots": self.robot_menus(),
            }
            return _response(connection, http.HTTPStatus.OK, json.dumps(body).encode(), "application/json")
        if path == "/metrics":
            return _response(connection, http.HTTPStatus.OK, *metrics.exposition())
        if path.startswith("/replay/"):
            return self.replay(connection, path)
        f = self.static_file("/" if CLIENT_PAGES.fullmatch(path) else path)
        if f is None:
            return _response(connection, http.HTTPStatus.NOT_FOUND, b"not found\n", "text/plain; charset=utf-8")
        ctype = CONTENT_TYPES.get(f.suffix.lower()) or mimetypes.guess_type(f.name)[0] or "application/octet-stream"
        return _response(connection, http.HTTPStatus.OK, f.read_bytes(), ctype)

    def robot_menus(self) -> dict[str, list[tuple[str, str]]]:
        """Each game's robots with their descriptions, strongest (the default) first."""
        if self.describe is None:
            return {}
        menus = {}
        for game in games.names():
            described = dict(self.describe(game))
            menus[game] = [(name, described[name]) for name in rank_robots(list(described))]
        return menus

    def replay(self, connection: ServerConnection, path: str) -> Response:
        """``/replay/ROOM/HAND``: the web client's replay of a finished hand (a redirect to
        ``/?replay=ROOM/HAND``); ``/replay/ROOM/HAND.msgpack``: its frames (server/replays.py)."""
        parts = unquote(path).split("/")[2:]
        if len(parts) == 2 and parts[1].removesuffix(".msgpack").isdigit():
            room, hand = parts[0], parts[1].removesuffix(".msgpack")
            if not parts[1].endswith(".msgpack"):
                r = _response(connection, http.HTTPStatus.FOUND, b"", "text/plain; charset=utf-8")
                r.headers["Location"] = f"../../?replay={room}/{hand}"
                return r
            data = self.replays.get(room, int(hand))
            if data is not None:
                return _response(connection, http.HTTPStatus.OK, data, "application/msgpack")
        return _response(connection, http.HTTPStatus.NOT_FOUND, b"no such finished hand\n", "text/plain; charset=utf-8")

    def static_file(self, path: str) -> Path | None:
        """The file under the web folder that ``path`` names, or None (never outside it).

        >>> s = Server.__new__(Server); s.web_dir = Path("/nonexistent")
        >>> s.static_file("/../../etc/passwd") is None, s.static_file("/%2e%2e/x") is None
        (True, True)
        """
        rel = unquote(path).lstrip("/") or "index.html"
        parts = rel.split("/")
        if any(p in ("", "..") or p.startswith(".") or "\\" in p or "\0" in p for p in parts):
            return None
        root = self.web_dir.resolve()
        f = (root / rel).resolve()
        if not f.is_relative_to(root) or not f.is_file():
            return None
        return f

    # ------------------------------------------------------------------ WebSocket
    async def handler(self, ws: ServerConnection) -> None:
        _forget_handshake(ws)
        if len(self.connections) >= self.limits.max_connections:
            await ws.close(1013, "server full")
            return
        conn = Connection(ws, self.limits)
        self.connections[conn] = None
        self.counts["connections"] += 1
        addr = self.address_of[conn] = _address(ws)
        self.per_address[addr] += 1
        cap = self.limits.address_connections
        # over the address's bound: whatever it sends first is answered with the refusal
        over = cap > 0 and self.per_address[addr] > cap
        try:
            while True:
                # recv(), not ``async for``: the async generator of the latter (and the loop's
                # weak reference to it) would be two more objects each idle connection holds
                msg = await ws.recv()
                self.counts["frames_in"] += 1
                conn.received = metrics.received(msg)
                # Back-pressure: a client whose answers are piling up is not read from until
                # they drain (its own requests must not overflow its own send queue).
                if not await conn.drained(self.limits.send_queue // 2):
                    break
                allowed = conn.allow()
                if not allowed and conn.strikes > self.limits.rate_strikes:
                    conn.close(1008, "flooding: rate limit exceeded too often")
                    break
                f: Frame | None = None
                try:
                    f = self._decode(msg, allowed)
                    self._admit(f, allowed)
                    if over:
                        raise LobbyError(
                            ErrorCode.TOO_MANY_CONNECTIONS, f"{cap} connections from one address at most: closing"
                        )
                    await self.dispatch(conn, f)
                except Moved as e:  # the room is another node's: the client goes there
                    conn.send(Redirect.answering(e, f))
                except Exception as e:  # every refusal (wire, lobby, room, game) is answered here
                    if not isinstance(e, PaijuError):
                        log.exception("dispatch of %s failed", type(f).__name__)
                        e = PaijuError(ErrorCode.INTERNAL, "internal error")
                    self.counts["errors"] += 1
                    peek = _peek_type(msg) if f is None and isinstance(msg, bytes) else None
                    refusal = Error.refusing(e, f, ref_type=peek)
                    p = self.connections.get(conn)
                    if p is not None and p.room is not None:
                        p.room.answer(conn, refusal)
                    else:
                        conn.send(refusal)
                    if over:
                        conn.close(1013, "too many connections from this address")  # after the ERROR
        except ConnectionClosed:
            pass
        finally:
            self.per_address[addr] -= 1
            if self.per_address[addr] <= 0:
                del self.per_address[addr]
            del self.address_of[conn]
            self._released += 1
            if self._released >= 64:  # a wave of connections ended: a second after its last
                if self._trim is not None:
                    self._trim.cancel()
                self._trim = asyncio.get_running_loop().call_later(1.0, self._trim_memory)
            p = self.connections.pop(conn, None)
            if p is not None and p.conn is conn:
                p.conn = None
                if p.room is not None:
                    p.room.feed(table.Drop(p.id, conn))
                self._release(p)
            await conn.finish()

    def _trim_memory(self) -> None:
        """After a wave of connections ended (abusers let go, a mass disconnect): collect the
        cycles their objects left and hand the allocator's free pages back to the system, so
        that the RSS returns to its level before them (glibc keeps them otherwise)."""
        self._trim, self._released = None, 0
        gc.collect()
        if _LIBC is not None:
            _LIBC.malloc_trim(0)

    def _release(self, p: Player) -> None:
        """Forget a player with neither connection nor room (its token makes a new record);
        one an ended room waits for (Room.catch_up) is kept for the grace period."""
        if p.conn is not None or p.room is not None or self.players.get(p.id) is not p:
            return
        if p.ended is None:
            del self.players[p.id]
        else:
            asyncio.get_running_loop().call_later(self.limits.grace, self._expire, p)

    def _expire(self, p: Player) -> None:
        p.ended = None
        self._release(p)

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

    async def dispatch(self, conn: Connection, f: Frame) -> None:
        """Carry out the client frame ``f`` (PaijuError: refused, nothing changed)."""
        if isinstance(f, Hello):
            await self._hello(conn, f)
            return
        p = self.connections.get(conn)
        if p is None:
            raise LobbyError(ErrorCode.HELLO_FIRST, "send HELLO first")
        if isinstance(f, Ping):
            conn.send(Pong(f.nonce))
        elif isinstance(f, Action):
            if p.room is None:
                raise LobbyError(ErrorCode.NOT_IN_ROOM, "not in a room")
            game = p.room.table.game_name
            p.room.feed(table.Act(p.id, conn, f.prompt_id, games.Action(f.code, f.cards)))
            metrics.action_latency(game, time.perf_counter() - conn.received)
        elif isinstance(f, ListRooms):
            rooms = [
                r.table.info()
                for r in self.rooms.values()
                if not r.table.private
                and not r.closed
                and r.table.phase is not Phase.OVER
                and (f.game is None or r.table.game_name == f.game)
            ]
            if self.cluster is not None:
                rooms += await self.cluster.lobby(f.game)
            conn.send(RoomList(rooms[:200]))
        elif isinstance(f, CreateRoom):
            if self.cluster is not None:
                self._free(p)
                self.cluster.accepting()
            self._create(conn, p, f)
        elif isinstance(f, Join):
            room = self.rooms.get(f.room)
            if room is None and self.cluster is not None:
                self._free(p)
                room = await self.cluster.locate(f.room)
            if room is None or room.closed:
                raise LobbyError(ErrorCode.NO_SUCH_ROOM, f"no room {f.room!r}")
            self._free(p)
            room.feed(table.Join(p.id, p.name, conn, f.seat))
        elif isinstance(f, Leave):
            if p.room is None or p.room.id != f.room:
                raise LobbyError(ErrorCode.NOT_IN_ROOM, f"not in room {f.room!r}")
            p.room.feed(table.Leave(p.id, conn))
        elif isinstance(f, QuickPlay):
            await self._quickplay(conn, p, f)
        elif isinstance(f, AccountFrame):
            await identity.account_frame(self.database, conn, p, f)
        else:  # pragma: no cover - every client frame is handled above
            raise ProtocolError(ErrorCode.UNKNOWN_FRAME, f"{type(f).__name__} is not handled")

    @staticmethod
    def _free(p: Player) -> None:
        """A player joins or opens a room only when it is in none."""
        if p.room is not None:
            raise LobbyError(ErrorCode.ALREADY_IN_ROOM, f"already in room {p.room.id}; leave it first")

    async def _hello(self, conn: Connection, f: Hello) -> None:
        if self.connections.get(conn) is not None:
            raise LobbyError(ErrorCode.WRONG_STATE, "HELLO was already done on this connection")
        if f.version != VERSION:
            raise ProtocolError(
                ErrorCode.BAD_VERSION, f"this server speaks protocol version {VERSION}, not {f.version}"
            )
        player: Player | None = None
        pid: str | None = None
        if f.token is not None:
            pid = tokens.verify(self.secret, f.token)
            if pid is None:
                raise LobbyError(ErrorCode.BAD_TOKEN, "the resume token is not valid (signature or expiry)")
            player = self.players.get(pid)
            if self.cluster is not None and pid is not None and (player is None or player.room is None):
                await self.cluster.resume(pid)  # Moved: its room is another node's
                player = self.players.get(pid)
        account = await identity.check_hello(self.database, f, player)
        if self.connections.get(conn) is not None:  # another HELLO was done meanwhile
            raise LobbyError(ErrorCode.WRONG_STATE, "HELLO was already done on this connection")
        if player is None:
            pid = pid or secrets.token_hex(8)
            player = self.players[pid] = Player(pid, f.name or "player")
        old = player.conn
        if old is not None and old is not conn:
            if old in self.connections:
                self.connections[old] = None
            old.close(1008, "replaced by a newer connection of the same player")
        player.conn = conn
        player.name = f.name or player.name
        self.connections[conn] = player
        if account:
            identity.become(player, account, f.session)
        conn.batch = bool(f.features & Feature.BATCH)  # what is flushed from now on
        granted = f.features & Feature.BATCH
        conn.send(Welcome(player.id, tokens.sign(self.secret, player.id, ttl=self.limits.token_ttl), VERSION, granted))
        if account:
            conn.send(Identity(account, True, None))
        if player.room is not None:
            metrics.resumed()
            player.room.feed(table.Resume(player.id, conn, f.last_seq))
        elif player.ended is not None:
            metrics.resumed()
            player.ended.catch_up(player, conn, f.last_seq)
        self._trim_players()

    def _trim_players(self) -> None:
        # Players with neither a connection nor a room are only kept for their resume
        # tokens' sake; past a bound the oldest go (a token then starts a fresh record).
        if len(self.players) > 4 * self.limits.max_connections:
            for pid in [k for k, v in self.players.items() if v.conn is None and v.room is None]:
                del self.players[pid]

    def _robot_for(self, game: str, wanted: str | None) -> str | None:
        known = list(self.robots(game)) if self.robots is not None else None
        if wanted is not None:
            return wanted if known is None or wanted in known else None
        if not known:
            return "random"
        return rank_robots(known)[0]  # the strongest the game has

    def _create(self, conn: Connection, p: Player, f: CreateRoom, *, quickplay: bool = False) -> Room:
        self._free(p)
        addr = self.address_of.get(conn, "")
        t = self._table(f, quickplay)
        self._count_room(addr)
        room = self._open(t, self.store.open(t.id) if self.store is not None else None)
        self.room_address[t.id] = addr
        if room.journal is not None:
            room.journal.append(t.head())
        self.counts["rooms"] += 1
        room.feed(table.Join(p.id, p.name, conn, "any"))
        return room

    def _count_room(self, addr: str) -> None:
        """A room is created from ``addr`` (LobbyError TOO_MANY_ROOMS: over its bounds)."""
        lim = self.limits
        if lim.address_rooms and sum(1 for a in self.room_address.values() if a == addr) >= lim.address_rooms:
            raise LobbyError(
                ErrorCode.TOO_MANY_ROOMS, f"{lim.address_rooms} open rooms created from one address at most"
            )
        now = time.monotonic()
        if len(self.created_at) > 1_000:  # addresses quiet for a minute are forgotten
            for a in [a for a, q in self.created_at.items() if not q or q[-1] < now - 60]:
                del self.created_at[a]
        recent = self.created_at.setdefault(addr, deque())
        while recent and recent[0] < now - 60:
            recent.popleft()
        if lim.address_rooms_per_minute and len(recent) >= lim.address_rooms_per_minute:
            raise LobbyError(
                ErrorCode.TOO_MANY_ROOMS,
                f"{lim.address_rooms_per_minute} rooms a minute from one address at most; try again in "
                f"{max(1, round(recent[0] + 60 - now))} s",
            )
        recent.append(now)

    def _table(self, f: CreateRoom, quickplay: bool) -> table.Table:
        """The table CREATE_ROOM asks for (LobbyError BAD_ROOM_OPTIONS or ROOM_FULL: none)."""

        def bad(msg: str) -> LobbyError:
            return LobbyError(ErrorCode.BAD_ROOM_OPTIONS, msg)

        if f.game not in games.names():
            raise bad(f"no game {f.game!r}; known: {', '.join(games.names())}")
        try:
            n, rules = games.shape(f.game, f.ruleset)
        except KeyError as e:
            raise bad(str(e).strip("\"'")) from None
        boards = 1
        # a bridge room without deals of its own plays the server's (paiju serve --pbn)
        pbn = f.pbn if f.pbn is not None else (self.config.pbn if f.game == "bridge" else None)
        if pbn is not None:
            try:
                rules, boards = pbn_rules(f.game, rules, pbn)
            except ValueError as e:
                raise bad(str(e)) from None
        hands = f.hands if f.hands is not None else min(boards, self.limits.max_hands)
        if not 1 <= hands <= self.limits.max_hands:
            raise bad(f"hands must be 1..{self.limits.max_hands}")
        clock = f.clock_ms if f.clock_ms is not None else self.config.clocks.get(f.game, FALLBACK_CLOCK_MS)
        if not self.limits.min_clock_ms <= clock <= self.limits.max_clock_ms:
            raise bad(f"clock_ms must be {self.limits.min_clock_ms}..{self.limits.max_clock_ms}")
        bots = sorted(set(f.bots))
        if any(b >= n for b in bots):
            raise bad(f"{f.game} has seats 0..{n - 1}")
        robot = self._robot_for(f.game, f.robot)
        if robot is None:
            raise bad(f"no robot {f.robot!r} for {f.game}")
        if len(f.robots) > n or any(name is not None and s not in bots for s, name in enumerate(f.robots)):
            raise bad(f"robots names a robot for each of the seats in bots, at most {n}")
        for name in f.robots:
            if name is not None and self._robot_for(f.game, name) is None:
                raise bad(f"no robot {name!r} for {f.game}")
        if len(self.rooms) >= self.limits.max_rooms:
            raise LobbyError(ErrorCode.ROOM_FULL, "the server has as many rooms as it may hold")
        while True:
            rid = secrets.token_hex(8) if f.private else "r" + secrets.token_hex(3)
            if rid not in self.rooms and (self.store is None or rid not in self.store.journals):
                break
        return table.Table(
            rid,
            f.game,
            rules,
            seed=f.seed if f.seed is not None else secrets.randbits(63),
            hands=hands,
            clock_ms=clock,
            # the game's time bank, unless the room sets its own clock
            bank_ms=self.config.banks.get(f.game, 0) if f.clock_ms is None else 0,
            bots=bots,
            robot=robot,
            robots=list(f.robots),
            private=f.private,
            quickplay=quickplay,
            limits=self.limits,
            reply_to=self.bus.server_id,
            created=time.time(),
            logged=self.store is not None or self.recorder is not None,  # the log feeds the records too
            **self._clock(),
        )

    async def _quickplay(self, conn: Connection, p: Player, f: QuickPlay) -> None:
        self._free(p)
        try:
            ruleset = games.get(f.game).ruleset(f.ruleset).name if f.game in games.names() else None
        except KeyError:
            ruleset = None
        if ruleset is None:
            raise LobbyError(ErrorCode.BAD_ROOM_OPTIONS, f"no game {f.game!r} with ruleset {f.ruleset!r}")
        for room in self.rooms.values():
            t = room.table
            if (
                t.quickplay
                and t.phase is Phase.WAITING
                and not room.closed
                and t.game_name == f.game
                and t.ruleset == ruleset
                and t.free_seats()
            ):
                room.feed(table.Join(p.id, p.name, conn, "any", quick=True))
                return
        if self.cluster is not None:  # Moved: a waiting room of another node, or a node that takes rooms
            await self.cluster.quickplay(f.game, ruleset)
        self._create(conn, p, CreateRoom(f.game, ruleset), quickplay=True)


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


def pbn_rules(game: str, base: Rules, text: str) -> tuple[Rules, int]:
    """CREATE_ROOM's ``pbn``: the rules that play the file's deals (hand h plays deal h mod
    their number) and the number of deals; ValueError with the message for BAD_ROOM_OPTIONS.

    >>> pbn_rules("niujiu", games.get("niujiu").ruleset(), "")
    Traceback (most recent call last):
    ...
    ValueError: pbn: PBN deals are for bridge rooms only, not niujiu
    >>> pbn_rules("bridge", games.get("bridge").ruleset(), '[Board "1"] [Deal "N:AKQ"]')
    Traceback (most recent call last):
    ...
    ValueError: pbn: line 1: Deal: a deal has four hands, not 1
    """
    if game != "bridge":
        raise ValueError(f"pbn: PBN deals are for bridge rooms only, not {game}")
    from games.bridge import BridgeRules
    from games.bridge.pbn import read_pbn, rules_from_pbn

    assert isinstance(base, BridgeRules)
    try:
        boards = read_pbn(text)
        rules = rules_from_pbn(boards, base)
    except ValueError as e:  # PbnError, whose message starts with "line N:"
        raise ValueError(f"pbn: {e}") from None
    return rules, len(boards)


def _peek_type(msg: bytes) -> int | None:
    """The frame type of an undecodable frame, when its head is readable (for ERROR.ref_type)."""
    try:
        u = msgpack.Unpacker(max_buffer_size=len(msg) + 1)
        u.feed(msg)
        if u.read_array_header() > 0:
            t = u.unpack()
            if type(t) is int and 0 <= t <= 0xFF:
                return t
    except Exception:
        pass
    return None


def _response(connection: ServerConnection, status: http.HTTPStatus, body: bytes, ctype: str) -> Response:
    r = connection.respond(status, "")
    headers = Headers()
    for k, v in r.headers.raw_items():
        if k.lower() not in ("content-length", "content-type"):
            headers[k] = v
    headers["Content-Type"] = ctype
    headers["Content-Length"] = str(len(body))
    headers["Cache-Control"] = "no-cache"
    headers["X-Content-Type-Options"] = "nosniff"
    r.headers = headers
    r.body = body
    return r
