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
import http
import json
import logging
import mimetypes
import secrets
import time
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
    Frame,
    Hello,
    Join,
    Leave,
    ListRooms,
    Ping,
    Pong,
    ProtocolError,
    QuickPlay,
    RoomList,
    SeatKind,
    Welcome,
    decode,
)
from protocol.bus import RoomBus
from protocol.frames import CLIENT, FRAMES

from . import metrics, tokens
from .config import FALLBACK_CLOCK_MS, PREFERRED_ROBOTS, Config
from .connection import Connection, Player
from .room import Room
from .storage import LogError, RoomStore, replay

log = logging.getLogger("paiju.server")

WEB_DIR = Path(__file__).parent / "web"
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
    for (the wiring in paiju/serve.py passes bots.registry.names; None accepts any name)."""

    def __init__(
        self,
        config: Config,
        bus: RoomBus,
        robots: Callable[[str], Sequence[str]] | None = None,
        web_dir: Path = WEB_DIR,
        store: RoomStore | None = None,
    ) -> None:
        self.config = config
        self.limits = config.limits
        self.bus = bus
        self.robots = robots
        self.web_dir = web_dir
        self.store = store  # room logs in Redis (paiju serve --redis), else None
        self.secret = config.secret or secrets.token_bytes(32)
        self.rooms: dict[str, Room] = {}
        self.players: dict[str, Player] = {}
        self.connections: set[Connection] = set()
        self.started = time.time()
        self.counts = {"frames_in": 0, "errors": 0, "connections": 0, "rooms": 0}
        self._ws: WsServer | None = None
        self._router: asyncio.Task[None] | None = None
        self.port = config.port
        metrics.watch(self)

    # ------------------------------------------------------------------ lifecycle
    async def start(self) -> None:
        self._ws = await serve(
            self.handler,
            self.config.host,
            self.config.port,
            process_request=self.http,
            compression=None,
            max_size=self.limits.max_message,
            max_queue=32,
            write_limit=16 * 1024,  # bytes buffered by websockets before send() waits
            close_timeout=2,
            ping_interval=20,
            ping_timeout=20,
        )
        sock = next(iter(self._ws.sockets))
        self.port = sock.getsockname()[1]
        self._router = asyncio.create_task(self._route_decisions(), name="decisions")

    async def close(self) -> None:
        if self._router is not None:
            self._router.cancel()
        for room in list(self.rooms.values()):
            room.task.cancel()
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
                room.post("decision", d)

    async def restore(self) -> list[Room]:
        """Rebuild the rooms in play that this server process owned, from their logs."""
        if self.store is None:
            return []
        rebuilt = []
        for rid, entries in await self.store.load():
            try:
                r = replay(rid, entries)
            except LogError as e:
                log.error("room %s not rebuilt: %s", rid, e)
                await self.store.forget(rid)
                continue
            if r.status != "playing" or not any(k in (SeatKind.HUMAN, SeatKind.AWAY) for k, *_ in r.seats):
                why = "its match is over" if r.status == "over" else "no human holds a seat"
                if r.status == "waiting":
                    why = "its match had not started"
                log.info("room %s (%s) not rebuilt: %s", rid, r.game_name, why)
                await self.store.forget(rid)
                continue
            room = Room.restore(self, r, self.store.open(rid, entries))
            self.rooms[rid] = room
            rebuilt.append(room)
            log.info(
                "room %s (%s) rebuilt from its log at seq %d, hand %d, %d actions replayed",
                rid,
                r.game_name,
                r.seq,
                r.hand,
                r.actions,
            )
        return rebuilt

    def forget_room(self, room: Room) -> None:
        if self.rooms.get(room.id) is room:
            del self.rooms[room.id]

    # ------------------------------------------------------------------ HTTP
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
            }
            return _response(connection, http.HTTPStatus.OK, json.dumps(body).encode(), "application/json")
        if path == "/metrics":
            return _response(connection, http.HTTPStatus.OK, *metrics.exposition())
        f = self.static_file(path)
        if f is None:
            return _response(connection, http.HTTPStatus.NOT_FOUND, b"not found\n", "text/plain; charset=utf-8")
        ctype = CONTENT_TYPES.get(f.suffix.lower()) or mimetypes.guess_type(f.name)[0] or "application/octet-stream"
        return _response(connection, http.HTTPStatus.OK, f.read_bytes(), ctype)

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
        if len(self.connections) >= self.limits.max_connections:
            await ws.close(1013, "server full")
            return
        conn = Connection(ws, self.limits)
        self.connections.add(conn)
        self.counts["connections"] += 1
        try:
            async for msg in ws:
                self.counts["frames_in"] += 1
                metrics.received(msg)
                # Back-pressure: a client whose answers are piling up is not read from until
                # they drain (its own requests must not overflow its own send queue).
                while conn.backlog > self.limits.send_queue // 2 and not conn.closed:
                    await asyncio.sleep(0.005)
                allowed = conn.allow()
                if not allowed and conn.strikes > self.limits.rate_strikes:
                    conn.close(1008, "flooding: rate limit exceeded too often")
                    break
                limited = f"over {self.limits.rate:g} frames/s: dropped"
                if isinstance(msg, str):
                    conn.error(ErrorCode.MALFORMED if allowed else ErrorCode.RATE_LIMITED, "text messages are not used")
                    continue
                try:
                    f = decode(msg)  # even when over the rate (bounded by max_message): the ERROR names it
                except ProtocolError as e:
                    self.counts["errors"] += 1
                    code = e.code if allowed else ErrorCode.RATE_LIMITED
                    conn.send(Error(code, (e.message if allowed else limited)[:1024], _peek_type(msg)))
                    continue
                if not allowed:
                    conn.error(ErrorCode.RATE_LIMITED, limited, f, getattr(f, "prompt_id", getattr(f, "nonce", None)))
                    continue
                if type(f) not in CLIENT_FRAMES:
                    conn.error(ErrorCode.WRONG_DIRECTION, f"{type(f).__name__} is not sent by clients", f)
                    continue
                try:
                    await self.dispatch(conn, f)
                except Exception:
                    log.exception("dispatch of %s failed", type(f).__name__)
                    conn.error(ErrorCode.INTERNAL, "internal error", f)
        except ConnectionClosed:
            pass
        finally:
            self.connections.discard(conn)
            p = conn.player
            if p is not None and p.conn is conn:
                p.conn = None
                if p.room is not None:
                    p.room.post("drop", p, conn)
            await conn.finish()

    async def dispatch(self, conn: Connection, f: Frame) -> None:
        if isinstance(f, Hello):
            self._hello(conn, f)
            return
        p = conn.player
        if p is None:
            conn.error(ErrorCode.HELLO_FIRST, "send HELLO first", f)
            return
        if isinstance(f, Ping):
            conn.send(Pong(f.nonce))
        elif isinstance(f, Action):
            if p.room is None:
                conn.error(ErrorCode.NOT_IN_ROOM, "not in a room", f, f.prompt_id)
            else:
                p.room.post("action", p, conn, f, time.perf_counter())
        elif isinstance(f, ListRooms):
            rooms = [
                r.info()
                for r in self.rooms.values()
                if not r.private and not r.closed and r.status != "over" and (f.game is None or r.game_name == f.game)
            ]
            conn.send(RoomList(rooms[:200]))
        elif isinstance(f, CreateRoom):
            self._create(conn, p, f)
        elif isinstance(f, Join):
            room = self.rooms.get(f.room)
            if room is None or room.closed:
                conn.error(ErrorCode.NO_SUCH_ROOM, f"no room {f.room!r}", f)
            elif p.room is not None:
                conn.error(ErrorCode.ALREADY_IN_ROOM, f"already in room {p.room.id}; leave it first", f)
            else:
                room.post("join", p, conn, f.seat, f)
        elif isinstance(f, Leave):
            if p.room is None or p.room.id != f.room:
                conn.error(ErrorCode.NOT_IN_ROOM, f"not in room {f.room!r}", f)
            else:
                p.room.post("leave", p, conn, f)
        elif isinstance(f, QuickPlay):
            self._quickplay(conn, p, f)
        else:  # pragma: no cover - every client frame is handled above
            conn.error(ErrorCode.UNKNOWN_FRAME, f"{type(f).__name__} is not handled", f)

    def _hello(self, conn: Connection, f: Hello) -> None:
        if conn.player is not None:
            conn.error(ErrorCode.WRONG_STATE, "HELLO was already done on this connection", f)
            return
        if f.version != VERSION:
            conn.error(ErrorCode.BAD_VERSION, f"this server speaks protocol version {VERSION}, not {f.version}", f)
            return
        player: Player | None = None
        if f.token is not None:
            pid = tokens.verify(self.secret, f.token)
            if pid is None:
                conn.error(ErrorCode.BAD_TOKEN, "the resume token is not valid (signature or expiry)", f)
                return
            player = self.players.get(pid)
            if player is None:
                player = self.players[pid] = Player(pid, f.name or "player")
        if player is None:
            pid = secrets.token_hex(8)
            player = self.players[pid] = Player(pid, f.name or "player")
        old = player.conn
        if old is not None and old is not conn:
            old.player = None
            old.close(1008, "replaced by a newer connection of the same player")
        player.conn = conn
        player.name = f.name or player.name
        conn.player = player
        conn.send(Welcome(player.id, tokens.sign(self.secret, player.id, ttl=self.limits.token_ttl)))
        if player.room is not None:
            metrics.resumed()
            player.room.post("resume", player, conn, f.last_seq)
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
        # the best the game has: a preferred name, else any robot but the random baseline
        others = [r for r in known if r != "random"]
        return next((r for r in PREFERRED_ROBOTS if r in known), others[0] if others else known[0])

    def _create(self, conn: Connection, p: Player, f: CreateRoom, *, quickplay: bool = False) -> Room | None:
        def bad(msg: str) -> None:
            conn.error(ErrorCode.BAD_ROOM_OPTIONS, msg, f)

        if p.room is not None:
            conn.error(ErrorCode.ALREADY_IN_ROOM, f"already in room {p.room.id}; leave it first", f)
            return None
        if f.game not in games.names():
            bad(f"no game {f.game!r}; known: {', '.join(games.names())}")
            return None
        try:
            probe = games.create(f.game, 0, f.ruleset)
        except KeyError as e:
            bad(str(e).strip("\"'"))
            return None
        n = probe.num_seats
        rules = probe.rules
        boards = 1
        if f.pbn is not None:
            try:
                rules, boards = pbn_rules(f.game, rules, f.pbn)
            except ValueError as e:
                bad(str(e))
                return None
        hands = f.hands if f.hands is not None else min(boards, self.limits.max_hands)
        if not 1 <= hands <= self.limits.max_hands:
            bad(f"hands must be 1..{self.limits.max_hands}")
            return None
        clock = f.clock_ms if f.clock_ms is not None else self.config.clocks.get(f.game, FALLBACK_CLOCK_MS)
        if not self.limits.min_clock_ms <= clock <= self.limits.max_clock_ms:
            bad(f"clock_ms must be {self.limits.min_clock_ms}..{self.limits.max_clock_ms}")
            return None
        bots = sorted(set(f.bots))
        if any(b >= n for b in bots):
            bad(f"{f.game} has seats 0..{n - 1}")
            return None
        robot = self._robot_for(f.game, f.robot)
        if robot is None:
            bad(f"no robot {f.robot!r} for {f.game}")
            return None
        if len(self.rooms) >= self.limits.max_rooms:
            conn.error(ErrorCode.ROOM_FULL, "the server has as many rooms as it may hold", f)
            return None
        while True:
            rid = secrets.token_hex(8) if f.private else "r" + secrets.token_hex(3)
            if rid not in self.rooms and (self.store is None or rid not in self.store.journals):
                break
        room = Room(
            self,
            rid,
            f.game,
            rules,
            hands=hands,
            clock_ms=clock,
            bots=bots,
            robot=robot,
            private=f.private,
            seed=f.seed if f.seed is not None else secrets.randbits(63),
            quickplay=quickplay,
            journal=self.store.open(rid) if self.store is not None else None,
        )
        self.rooms[rid] = room
        self.counts["rooms"] += 1
        room.post("join", p, conn, "any", f)
        return room

    def _quickplay(self, conn: Connection, p: Player, f: QuickPlay) -> None:
        if p.room is not None:
            conn.error(ErrorCode.ALREADY_IN_ROOM, f"already in room {p.room.id}; leave it first", f)
            return
        try:
            ruleset = games.get(f.game).ruleset(f.ruleset).name if f.game in games.names() else None
        except KeyError:
            ruleset = None
        if ruleset is None:
            conn.error(ErrorCode.BAD_ROOM_OPTIONS, f"no game {f.game!r} with ruleset {f.ruleset!r}", f)
            return
        for room in self.rooms.values():
            if (
                room.quickplay
                and room.status == "waiting"
                and not room.closed
                and room.game_name == f.game
                and room.ruleset == ruleset
                and room.free_seats()
            ):
                room.post("join", p, conn, "any", f)
                return
        self._create(conn, p, CreateRoom(f.game, ruleset), quickplay=True)


CLIENT_FRAMES = frozenset(c for c in FRAMES.values() if c.SENDER == CLIENT)


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
