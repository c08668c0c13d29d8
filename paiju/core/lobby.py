"""The lobby's core, sans-I/O: who is connected, who plays as whom, which rooms there are.

A :class:`Lobby` is the one owner of the player and room directory of a server process: the
connections and the player each speaks for (HELLO, a resume with its token, the expiry of a
player let go by an ended room), the per-address limits, the rooms (CREATE_ROOM, JOIN,
LEAVE, LIST_ROOMS, quick play), the login throttling. :meth:`Lobby.handle` takes one input
(:class:`Connect`, :class:`Received`, :class:`Looked`, :class:`Disconnect`, what a room says
of its players (:class:`Bound`, :class:`Unbound`), :class:`RoomClosed`, :class:`Evict`,
:class:`Tick`) with the time ``now`` and returns what must happen outside, in order: frames
to send (:class:`Send`), refusals (:class:`Refuse`, ordered behind what the player's room
still holds), inputs for a room's table (:class:`Feed`), a room to open (:class:`Open`: the
shell makes its room and :meth:`Lobby.add`\\ s it), a resume's catch-up from an ended room
(:class:`CatchUp`), connections to close (:class:`CloseConn`) and questions for the database
or the other nodes (:class:`Lookup`, answered with :class:`Looked`). It reads no clock and
does no I/O: paiju/server/app.py feeds it and carries its outputs out, and the tests drive it
directly (tests/server/test_lobby_core.py).

Rooms are whatever handle the shell registers (paiju/server/room.py's Room; a test's stand-in):
the lobby reads its ``id``, ``table`` and ``closed``, and talks to it only through outputs.
A connection is whatever the caller passes (the shell's Connection, a test's int).

>>> from paiju.core.config import Limits
>>> lobby: Lobby[Any] = Lobby(Limits(), secret=b"k", accounts=True)
>>> lobby.handle(Connect(1, "10.0.0.1"), 0.0)
[]
>>> [type(o).__name__ for o in lobby.handle(Received(1, Hello(VERSION, "ann")), 0.0)]
['Lookup']
>>> out = lobby.handle(Looked(1, Hello(VERSION, "ann"), Checked("")), 0.0)
>>> [type(o).__name__ for o in out], lobby.conns[1].name
(['Send'], 'ann')
"""

from __future__ import annotations

import logging
import secrets
from collections import Counter, deque
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, Protocol, TypeVar

from paiju import games
from paiju.core import errors, table, tokens
from paiju.core.config import FALLBACK_CLOCK_MS, Config, rank_robots
from paiju.core.lifecycle import Phase
from paiju.core.throttle import Throttle, seconds
from paiju.games import Rules
from paiju.protocol import (
    VERSION,
    Account,
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
    Mute,
    PaijuError,
    Ping,
    Pong,
    ProtocolError,
    QuickPlay,
    Redirect,
    RematchAnswer,
    RematchOffer,
    RematchState,
    RoomInfo,
    RoomList,
    Say,
    SetSeat,
    Welcome,
)

log = logging.getLogger("paiju.lobby")

Conn = Hashable
"""A connection as the caller knows it: the lobby only compares it and hands it back."""


class RoomHandle(Protocol):
    """What the lobby reads of a room the shell registers (paiju/server/room.py's Room)."""

    @property
    def id(self) -> str: ...
    @property
    def table(self) -> table.Table: ...
    @property
    def closed(self) -> bool: ...


R = TypeVar("R", bound=RoomHandle)


@dataclass(eq=False)
class Player:
    """A person (or a client program) known by its player id across connections."""

    id: str
    name: str
    conn: Conn | None = None
    room: str | None = None  # the room it is in (seated or watching)
    seat: int | None = None  # None with a room: watching
    # The ended room that let this player go while its connection looked up: a resume catches
    # up from it (Room.catch_up), in case that link was already dead.
    ended: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


# ------------------------------------------------------------------ inputs
# Read only, all of them; those made for every frame (Received, Feed, Send) are not frozen but
# have slots: a frozen dataclass's __init__ costs several times as much on the hot path.
@dataclass(frozen=True)
class Connect:
    """A connection opened from ``address`` (the client's IP: the per-address limits count by it)."""

    conn: Conn
    address: str


@dataclass(slots=True)
class Received:
    """A client frame, decoded and admitted (its type is a client's, its rate within bounds)."""

    conn: Conn
    frame: Frame


@dataclass(frozen=True)
class Garbled:
    """A client frame refused before the lobby could read it (not decodable, a server's frame,
    over the rate): ``error`` answers it (``ref_type``: its type, when readable)."""

    conn: Conn
    error: PaijuError
    ref: Frame | None = None
    ref_type: int | None = None


@dataclass(frozen=True)
class Checked:
    """A HELLO's account, checked in the database ("" for a guest)."""

    account: str


@dataclass(frozen=True)
class Identified:
    """An ACCOUNT frame carried out: the player plays as ``account`` (None: logged out), with
    this new ``session`` token (register and login)."""

    account: str | None
    session: str | None = None


@dataclass(frozen=True)
class Listed:
    """The other nodes' public rooms, for LIST_ROOMS."""

    rooms: list[RoomInfo]


@dataclass(frozen=True)
class Go:
    """Nothing stands in the way (the directory: the request is this node's to serve)."""


@dataclass(frozen=True)
class Failed:
    """The lookup refused the request (:class:`protocol.Moved`: it is another node's)."""

    error: PaijuError


Answer = Checked | Identified | Listed | Go | Failed


@dataclass(frozen=True)
class Looked:
    """The answer to the :class:`Lookup` that ``frame`` of ``conn`` needed."""

    conn: Conn
    frame: Frame
    answer: Answer


@dataclass(frozen=True)
class Disconnect:
    """The connection closed."""

    conn: Conn


@dataclass(frozen=True)
class Bound:
    """A room's table bound ``player`` (:class:`paiju.core.table.Bind`)."""

    room: str
    player: str
    name: str
    seat: int | None


@dataclass(frozen=True)
class Unbound:
    """A room's table let ``player`` go (:class:`paiju.core.table.Unbind`); ``over``: its match is over."""

    room: str
    player: str
    over: bool


@dataclass(frozen=True)
class RoomClosed:
    """The room closed: it leaves the directory."""

    room: str


@dataclass(frozen=True)
class Evict:
    """The room stopped here (it moved to another node): its players go, their connections
    closed with ``why`` (they resume on the room's new node)."""

    room: str
    why: str


@dataclass(frozen=True)
class Tick:
    """Time has passed: forget the players whose wait for a resume has run out."""


@dataclass(frozen=True)
class Rematch:
    """Every human at room ``room``'s table accepted a rematch (:class:`paiju.core.table.Rematched`):
    a new match with them (``humans``: seat -> (player, name, connection); ``left``: the seats
    of those who left, for robots)."""

    room: str
    humans: dict[int, tuple[str, str, Conn]]
    left: frozenset[int]


Input = Connect | Received | Garbled | Looked | Disconnect | Bound | Unbound | RoomClosed | Evict | Tick | Rematch


# ------------------------------------------------------------------ outputs
@dataclass(slots=True)
class Send:
    conn: Conn
    frame: Frame


@dataclass(frozen=True)
class Refuse:
    """Answer ``error`` to ``conn``, behind what room ``room`` (the player's, if any) still
    holds for it: a refusal must not arrive before the events that explain it."""

    conn: Conn
    error: Error
    room: str | None = None


@dataclass(slots=True)
class Feed:
    """Hand ``input`` to room ``room``'s table; a refusal answers ``ref``."""

    room: str
    input: table.Input
    ref: Frame | None = None


@dataclass(frozen=True)
class Open:
    """Open a room for ``table`` (new: its log starts with ``table.head()``) and register it
    with :meth:`Lobby.add` before carrying out the next outputs."""

    table: table.Table


@dataclass(frozen=True)
class CatchUp:
    """A resume of ``player`` after room ``room`` ended and let it go (Room.catch_up)."""

    room: RoomHandle
    player: str
    conn: Conn
    last_seq: int | None


@dataclass(frozen=True)
class CloseConn:
    conn: Conn
    code: int
    reason: str


@dataclass(frozen=True)
class Lookup:
    """``frame`` of ``conn`` needs an answer from outside (feed it back as :class:`Looked`):

    - HELLO: the other nodes first when ``player`` (a valid token's) is in no room here
      (its room may be another node's: Failed(Moved)), then its account (Checked; ``account``
      is the one the resumed player plays as);
    - ACCOUNT: the database's answer (Identified); ``session`` is the player's to log out;
      ``rank``: the password check's turn (lower first: the address's failed logins);
    - LIST_ROOMS: the other nodes' public rooms (Listed);
    - CREATE_ROOM, JOIN, QUICK_PLAY: whether this node serves it (Go; Failed(Moved)).
    """

    conn: Conn
    frame: Frame
    player: str | None = None
    account: str | None = None
    session: str | None = None
    rank: int = 0


Output = Send | Refuse | Feed | Open | CatchUp | CloseConn | Lookup


class Lobby(Generic[R]):
    """The lobby of one server process, sans-I/O (see the module's docstring).

    ``config`` gives the limits, the games' clocks and the server's PBN deals; ``secret``
    signs the resume tokens; ``robots(game)`` lists the robot names a room may ask for (None:
    any name); ``directory``: the other nodes answer the lookups that may be theirs (without
    it, JOIN, CREATE_ROOM, QUICK_PLAY and LIST_ROOMS are answered at once); ``accounts``: the
    server keeps accounts (HELLO and ACCOUNT ask the database); ``epoch`` turns ``now`` into
    unix time; ``taken(id)``: a room id that may not be given (a log of that id exists).
    """

    def __init__(
        self,
        config: Config | Any,
        *,
        secret: bytes,
        robots: Callable[[str], Sequence[str]] | None = None,
        directory: bool = False,
        accounts: bool = False,
        epoch: float = 0.0,
        reply_to: str = "",
        logged: bool = False,
        taken: Callable[[str], bool] = lambda rid: False,
        throttle: Throttle | None = None,
        observer: table.Observer = table.UNOBSERVED,
    ) -> None:
        self.observer = observer  # the tables' (paiju/server/metrics.py)
        self.config: Config = config if isinstance(config, Config) else Config(limits=config)
        self.limits = self.config.limits
        self.secret = secret
        self.robots = robots
        self.directory = directory
        self.accounts = accounts
        self.epoch = epoch
        self.reply_to = reply_to
        self.logged = logged  # tables produce their log entries (a room store or the records)
        self.taken = taken
        lim = self.limits
        self.throttle = throttle or Throttle(base=lim.login_delay, cap=lim.login_delay_max)
        self.players: dict[str, Player] = {}
        self.conns: dict[Conn, Player | None] = {}  # every open connection, and the player it speaks for
        self.rooms: dict[str, R] = {}
        self.finished: dict[str, R] = {}  # closed rooms whose players may still resume from them
        # per client address: open connections, the address of each, the rooms created from
        # it (open ones) and when it created rooms in the last minute
        self.per_address: Counter[str] = Counter()
        self.address_of: dict[Conn, str] = {}
        self.over: set[Conn] = set()  # connections over their address's bound
        self.room_address: dict[str, str] = {}
        self.created_at: dict[str, deque[float]] = {}
        self.expiring: dict[str, float] = {}  # player -> when it is forgotten (an ended room waits for it)
        # connection -> (its address, whether it holds the account's session) while its ACCOUNT
        # is checked (paiju/core/throttle.py)
        self.checking: dict[Conn, tuple[str, bool]] = {}
        self.rematching: set[Conn] = set()  # connections that answer rematch offers (Feature.REMATCH)
        self.now = 0.0
        self._out: list[Output] = []

    # ------------------------------------------------------------------ queries
    def add(self, room: R) -> None:
        """Register ``room`` (opened after :class:`Open`, or rebuilt from its log)."""
        self.rooms[room.id] = room

    def room_of(self, conn: Conn) -> str | None:
        p = self.conns.get(conn)
        return p.room if p is not None else None

    def public_rooms(self, game: str | None) -> list[RoomInfo]:
        """The rooms LIST_ROOMS shows from this node (of ``game``, or all)."""
        return [
            r.table.info()
            for r in self.rooms.values()
            if not r.table.private
            and not r.closed
            and r.table.phase is not Phase.OVER
            and (game is None or r.table.game_name == game)
        ]

    def next_deadline(self) -> float | None:
        """When the next :class:`Tick` is due (None: nothing waits)."""
        return min(self.expiring.values()) if self.expiring else None

    # ------------------------------------------------------------------ the one way in
    def handle(self, msg: Input, now: float) -> list[Output]:
        """Apply one input at time ``now``; what must happen outside, in order. A room's
        :class:`Bound` or :class:`Unbound` may come in while the caller carries out the
        outputs of another input (the lobby is re-entered: each call has its own outputs)."""
        self.now = now
        saved, out = self._out, list[Output]()
        self._out = out
        try:
            self._dispatch(msg)
        except Exception as e:  # a refusal, or a bug: the sender hears of it
            conn = getattr(msg, "conn", None)
            frame = getattr(msg, "frame", None)
            err = errors.refusal(e, f"lobby on {type(frame or msg).__name__}")
            if conn is not None:
                self._refuse(conn, err, frame)
        finally:
            self._out = saved
        return out

    def _dispatch(self, msg: Input) -> None:
        if isinstance(msg, Received):
            self._received(msg.conn, msg.frame)
        elif isinstance(msg, Looked):
            self._looked(msg)
        elif isinstance(msg, Garbled):
            self._refuse(msg.conn, msg.error, msg.ref, msg.ref_type)
        elif isinstance(msg, Bound):
            self._bound(msg)
        elif isinstance(msg, Unbound):
            self._unbound(msg)
        elif isinstance(msg, Connect):
            self._connect(msg)
        elif isinstance(msg, Disconnect):
            self._disconnect(msg.conn)
        elif isinstance(msg, RoomClosed):
            room = self.rooms.pop(msg.room, None)
            self.room_address.pop(msg.room, None)
            if room is not None and any(p.ended == msg.room for p in self.players.values()):
                self.finished[msg.room] = room  # kept for those who may resume from it
        elif isinstance(msg, Evict):
            self._evict(msg)
        elif isinstance(msg, Rematch):
            self._rematch(msg)
        elif isinstance(msg, Tick):
            for pid in [p for p, at in self.expiring.items() if at <= self.now]:
                del self.expiring[pid]
                p = self.players.get(pid)
                if p is not None:
                    p.ended = None
                    self._release(p)
            waited = {p.ended for p in self.players.values()}
            for rid in [r for r in self.finished if r not in waited]:
                del self.finished[rid]

    def _refuse(self, conn: Conn, e: PaijuError, frame: Frame | None, ref_type: int | None = None) -> None:
        if isinstance(e, Moved):  # the room is another node's: the client goes there
            self._out.append(Send(conn, Redirect.answering(e, frame)))
        else:
            self._out.append(Refuse(conn, Error.refusing(e, frame, ref_type=ref_type), self.room_of(conn)))
        if conn in self.over:
            self._out.append(CloseConn(conn, 1013, "too many connections from this address"))

    # ------------------------------------------------------------------ connections
    def _connect(self, m: Connect) -> None:
        self.conns[m.conn] = None
        self.address_of[m.conn] = m.address
        self.per_address[m.address] += 1
        cap = self.limits.address_connections
        if cap > 0 and self.per_address[m.address] > cap:
            self.over.add(m.conn)  # whatever it sends first is answered with the refusal

    def _disconnect(self, conn: Conn) -> None:
        addr = self.address_of.pop(conn, None)
        if addr is not None:
            self.per_address[addr] -= 1
            if self.per_address[addr] <= 0:
                del self.per_address[addr]
        self.over.discard(conn)
        self.rematching.discard(conn)
        p = self.conns.pop(conn, None)
        if p is not None and p.conn == conn:
            p.conn = None
            if p.room is not None:
                self._out.append(Feed(p.room, table.Drop(p.id, conn)))
            elif p.ended is not None and p.ended in self.rooms:
                # the match ended but its room may still offer a rematch: the others hear at once
                self._out.append(Feed(p.ended, table.Drop(p.id, conn)))
            self._release(p)

    def _release(self, p: Player) -> None:
        """Forget a player with neither connection nor room (its token would make a new
        record); one an ended room waits for (:class:`CatchUp`) is kept for the grace period.
        The one place where players are forgotten."""
        if p.conn is not None or p.room is not None or self.players.get(p.id) is not p:
            return
        if p.ended is None:
            del self.players[p.id]
            self.expiring.pop(p.id, None)
        else:
            self.expiring.setdefault(p.id, self.now + self.limits.grace)

    def _trim_players(self) -> None:
        # Players with neither a connection nor a room are only kept for their resume
        # tokens' sake; past a bound the oldest go (a token then starts a fresh record).
        if len(self.players) > 4 * self.limits.max_connections:
            for pid in [k for k, v in self.players.items() if v.conn is None and v.room is None]:
                del self.players[pid]
                self.expiring.pop(pid, None)

    # ------------------------------------------------------------------ from the rooms
    def _bound(self, m: Bound) -> None:
        p = self.players.get(m.player)
        if p is None:  # a player of a room rebuilt from its log
            p = self.players[m.player] = Player(m.player, m.name)
        p.room, p.seat, p.ended = m.room, m.seat, None
        self.expiring.pop(p.id, None)

    def _unbound(self, m: Unbound) -> None:
        p = self.players.get(m.player)
        if p is None or p.room != m.room:
            return
        p.room, p.seat = None, None
        if p.conn is None:  # gone for good: its token would start a new record
            del self.players[p.id]
            self.expiring.pop(p.id, None)
        elif m.over:
            p.ended = m.room

    def _evict(self, m: Evict) -> None:
        self.rooms.pop(m.room, None)
        self.room_address.pop(m.room, None)
        for p in list(self.players.values()):
            if p.room == m.room:
                p.room, p.seat = None, None
                if p.conn is not None:
                    self._out.append(CloseConn(p.conn, 1012, m.why))
                else:
                    self._release(p)

    # ------------------------------------------------------------------ client frames
    def _received(self, conn: Conn, f: Frame) -> None:
        if conn in self.over:
            cap = self.limits.address_connections
            raise LobbyError(ErrorCode.TOO_MANY_CONNECTIONS, f"{cap} connections from one address at most: closing")
        if isinstance(f, Hello):
            self._hello(conn, f)
            return
        p = self._player(conn)
        if isinstance(f, Ping):
            self._out.append(Send(conn, Pong(f.nonce)))
        elif isinstance(f, Action):
            if p.room is None:
                raise LobbyError(ErrorCode.NOT_IN_ROOM, "not in a room")
            self._out.append(Feed(p.room, table.Reply(p.id, conn, f.prompt_id, games.GameAction(f.code, f.cards)), f))
        elif isinstance(f, Leave):
            # (after its match a room offering a rematch still takes the LEAVE of its players)
            if (p.room is not None and p.room != f.room) or (p.room is None and not self._here(f.room)):
                raise LobbyError(ErrorCode.NOT_IN_ROOM, f"not in room {f.room!r}")
            self._out.append(Feed(f.room, table.Exit(p.id, conn), f))
        elif isinstance(f, SetSeat):
            if p.room is None or p.room != f.room:
                raise LobbyError(ErrorCode.NOT_IN_ROOM, f"not in room {f.room!r}")
            self._out.append(Feed(p.room, table.SwapSeat(p.id, conn, f.seat, f.robot), f))
        elif isinstance(f, (Say, Mute, RematchAnswer)):
            # the room's chat and, after its match, its rematch offer (the table checks who may)
            if not self._here(f.room):
                raise LobbyError(ErrorCode.NO_SUCH_ROOM, f"no room {f.room!r}")
            if isinstance(f, Say):
                msg: table.Input = table.SayLine(p.id, conn, f.text)
            elif isinstance(f, Mute):
                msg = table.MuteName(p.id, conn, f.name, f.on)
            else:
                msg = table.AnswerRematch(p.id, conn, f.accept)
            self._out.append(Feed(f.room, msg, f))
        elif isinstance(f, ListRooms):
            if self.directory:
                self._out.append(Lookup(conn, f))
            else:
                self._list(conn, f, [])
        elif isinstance(f, Join):
            if f.room in self.rooms or not self.directory:
                self._go(conn, p, f)
            else:  # another node's, or a dead node's that this one takes over
                self._free(p)
                self._out.append(Lookup(conn, f))
        elif isinstance(f, CreateRoom):
            self._free(p)
            if self.directory:  # while this node drains, another one opens it
                self._out.append(Lookup(conn, f))
            else:
                self._go(conn, p, f)
        elif isinstance(f, QuickPlay):
            self._free(p)
            ruleset = self._ruleset(f)
            if self._waiting(f.game, ruleset) is None and self.directory:  # a waiting room elsewhere?
                self._out.append(Lookup(conn, f))
            else:
                self._go(conn, p, f)
        elif isinstance(f, Account):
            self._account(conn, p, f)
        else:  # pragma: no cover - every client frame is handled above
            raise ProtocolError(ErrorCode.UNKNOWN_FRAME, f"{type(f).__name__} is not handled")

    def _player(self, conn: Conn) -> Player:
        p = self.conns.get(conn)
        if p is None:
            raise LobbyError(ErrorCode.HELLO_FIRST, "send HELLO first")
        return p

    def _here(self, rid: str) -> bool:
        r = self.rooms.get(rid)
        return r is not None and not r.closed

    @staticmethod
    def _free(p: Player) -> None:
        """A player joins or opens a room only when it is in none."""
        if p.room is not None:
            raise LobbyError(ErrorCode.ALREADY_IN_ROOM, f"already in room {p.room}; leave it first")

    def _looked(self, m: Looked) -> None:
        conn, f, a = m.conn, m.frame, m.answer
        checked = self.checking.pop(conn, None) if isinstance(f, Account) and f.op != "logout" else None
        if checked is not None and isinstance(f, Account):
            addr, owner = checked
            self.throttle.finish(addr)
            if f.name is not None and not owner:  # the owner's own logins count for nothing
                failed = isinstance(a, Failed) and a.error.code == ErrorCode.BAD_LOGIN
                self.throttle.record(f.name, addr, self.now, ok=not failed)
        if conn not in self.conns:
            return  # the connection closed meanwhile
        if isinstance(f, Account):
            self._identified(conn, f, a)
            return
        if isinstance(a, Failed):
            raise a.error
        if isinstance(f, Hello):
            assert isinstance(a, Checked)
            self._welcome(conn, f, a.account)
        elif isinstance(f, ListRooms):
            self._list(conn, f, a.rooms if isinstance(a, Listed) else [])
        elif isinstance(f, (CreateRoom, Join, QuickPlay)):
            self._go(conn, self._player(conn), f)

    def _list(self, conn: Conn, f: ListRooms, others: list[RoomInfo]) -> None:
        self._out.append(Send(conn, RoomList((self.public_rooms(f.game) + others)[:200])))

    def _go(self, conn: Conn, p: Player, f: CreateRoom | Join | QuickPlay) -> None:
        if isinstance(f, Join):
            room = self.rooms.get(f.room)
            if room is None or room.closed:
                raise LobbyError(ErrorCode.NO_SUCH_ROOM, f"no room {f.room!r}")
            self._free(p)
            # an invite link: the first free seat, else watch
            seat: int | Literal["any"] | None = "any" if f.first_free else f.seat
            self._out.append(Feed(room.id, table.Enter(p.id, p.name, conn, seat, rematch=conn in self.rematching), f))
        elif isinstance(f, CreateRoom):
            self._create(conn, p, f, f)
        else:
            self._quickplay(conn, p, f)

    # ------------------------------------------------------------------ HELLO
    def _hello(self, conn: Conn, f: Hello) -> None:
        if self.conns.get(conn) is not None:
            raise LobbyError(ErrorCode.WRONG_STATE, "HELLO was already done on this connection")
        if f.version != VERSION:
            raise ProtocolError(
                ErrorCode.BAD_VERSION, f"this server speaks protocol version {VERSION}, not {f.version}"
            )
        if f.name.endswith(table.ROBOT_SUFFIX):  # a person is never taken for a robot (ROOM_STATE's seats)
            ends = table.ROBOT_SUFFIX
            raise ProtocolError(ErrorCode.BAD_FIELD, f"name: {f.name!r} ends as a robot seat's name does ({ends!r})")
        if f.session is not None and not self.accounts:
            raise LobbyError(ErrorCode.NO_ACCOUNTS, "this server keeps no accounts")
        pid = self._token(f)
        player = self.players.get(pid) if pid is not None else None
        kept = player.extra.get("account") if player is not None else None
        account = kept if isinstance(kept, str) else None  # a resumed player keeps its account
        # a token's player in no room here may be in another node's room: the directory knows
        ask = pid if self.directory and pid is not None and (player is None or player.room is None) else None
        # the database: a session's account, or whether a guest's name is an account's
        check = self.accounts and (f.session is not None or (account is None and bool(f.name)))
        if ask is None and not check:
            self._welcome(conn, f, account or "")
        else:
            self._out.append(Lookup(conn, f, player=ask, account=account))

    def _token(self, f: Hello) -> str | None:
        if f.token is None:
            return None
        pid = tokens.verify(self.secret, f.token, now=self.epoch + self.now)
        if pid is None:
            raise LobbyError(ErrorCode.BAD_TOKEN, "the resume token is not valid (signature or expiry)")
        return pid

    def _welcome(self, conn: Conn, f: Hello, account: str) -> None:
        if self.conns.get(conn) is not None:  # another HELLO was done meanwhile
            raise LobbyError(ErrorCode.WRONG_STATE, "HELLO was already done on this connection")
        pid = self._token(f)
        player = self.players.get(pid) if pid is not None else None
        if player is None:
            pid = pid or secrets.token_hex(8)
            player = self.players[pid] = Player(pid, f.name or f"guest-{pid[:4]}")  # never nameless
        old = player.conn
        if old is not None and old != conn:
            if old in self.conns:
                self.conns[old] = None
            self._out.append(CloseConn(old, 1008, "replaced by a newer connection of the same player"))
        player.conn = conn
        player.name = f.name or player.name
        self.conns[conn] = player
        self.expiring.pop(player.id, None)
        if account:
            become(player, account, f.session)
        token = tokens.sign(self.secret, player.id, ttl=self.limits.token_ttl, now=self.epoch + self.now)
        if f.features & Feature.REMATCH:
            self.rematching.add(conn)
        self._out.append(Send(conn, Welcome(player.id, token, VERSION, f.features & (Feature.BATCH | Feature.REMATCH))))
        if account:
            self._out.append(Send(conn, Identity(account, True, None)))
        if player.room is not None:
            resume = table.Resume(player.id, conn, f.last_seq, rematch=conn in self.rematching)
            self._out.append(Feed(player.room, resume))
        elif player.ended is not None:
            ended = self.rooms.get(player.ended) or self.finished.get(player.ended)
            if ended is not None:
                self._out.append(CatchUp(ended, player.id, conn, f.last_seq))
        self._trim_players()

    # ------------------------------------------------------------------ ACCOUNT
    def _account(self, conn: Conn, p: Player, f: Account) -> None:
        if not self.accounts:
            raise LobbyError(ErrorCode.NO_ACCOUNTS, "this server keeps no accounts")
        if f.op == "logout":
            if "account" not in p.extra:
                raise LobbyError(ErrorCode.WRONG_STATE, "not logged in")
            session = p.extra.get("session")
            self._out.append(Lookup(conn, f, session=session if isinstance(session, str) else None))
            return
        if f.op not in ("register", "login"):
            raise LobbyError(ErrorCode.BAD_ACCOUNT, f"op is 'register', 'login' or 'logout', not {f.op!r}")
        if f.name is None or f.password is None:
            raise LobbyError(ErrorCode.BAD_ACCOUNT, f"{f.op} needs a name and a password")
        if conn in self.checking:
            raise LobbyError(ErrorCode.RATE_LIMITED, "this connection's last ACCOUNT is still being checked")
        addr = self.address_of.get(conn, "")
        # a connection that holds a session of the account (its owner) is never slowed
        owner = isinstance(p.extra.get("account"), str) and p.extra["account"].casefold() == f.name.casefold()
        wait = 0.0 if owner else self.throttle.wait(f.name, addr, self.now)
        if wait > 0:  # the same answer whether the name is an account's or not
            raise LobbyError(ErrorCode.RATE_LIMITED, f"too many failed logins: try again in {seconds(wait)} s")
        if not self.throttle.start(addr, exempt=owner):  # each check holds a hashing thread for a while
            raise LobbyError(ErrorCode.RATE_LIMITED, "a password check from this address is under way: try again soon")
        self.checking[conn] = (addr, owner)
        self._out.append(Lookup(conn, f, rank=0 if owner else self.throttle.failures(addr)))

    def _identified(self, conn: Conn, f: Account, a: Answer) -> None:
        p = self._player(conn)
        if isinstance(a, Failed):
            raise a.error
        assert isinstance(a, Identified)
        if a.account is None:
            p.extra.pop("account", None)
            p.extra.pop("session", None)
            p.name = f"guest-{p.id[:4]}"
            self._out.append(Send(conn, Identity(p.name, False, None)))
        else:
            become(p, a.account, a.session)
            self._out.append(Send(conn, Identity(a.account, True, a.session)))

    # ------------------------------------------------------------------ rooms
    def _create(self, conn: Conn, p: Player, f: CreateRoom, ref: Frame, *, quickplay: bool = False) -> None:
        self._free(p)
        addr = self.address_of.get(conn, "")
        t = self.table(f, quickplay)
        self._count_room(addr)
        self.room_address[t.id] = addr
        self._out.append(Open(t))
        self._out.append(Feed(t.id, table.Enter(p.id, p.name, conn, "any", rematch=conn in self.rematching), ref))

    def _count_room(self, addr: str) -> None:
        """A room is created from ``addr`` (LobbyError TOO_MANY_ROOMS: over its bounds)."""
        lim, now = self.limits, self.now
        if lim.address_rooms and sum(1 for a in self.room_address.values() if a == addr) >= lim.address_rooms:
            raise LobbyError(
                ErrorCode.TOO_MANY_ROOMS, f"{lim.address_rooms} open rooms created from one address at most"
            )
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

    def robot_for(self, game: str, wanted: str | None) -> str | None:
        """The robot a room of ``game`` gets for ``wanted`` (None: the strongest; None back:
        no robot of that name)."""
        known = list(self.robots(game)) if self.robots is not None else None
        if wanted is not None:
            return wanted if known is None or wanted in known else None
        if not known:
            return "random"
        return rank_robots(known)[0]

    def table(self, f: CreateRoom, quickplay: bool = False) -> table.Table:
        """The table CREATE_ROOM asks for (LobbyError BAD_ROOM_OPTIONS or ROOM_FULL: none)."""

        def bad(msg: str) -> LobbyError:
            return LobbyError(ErrorCode.BAD_ROOM_OPTIONS, msg)

        lim = self.limits
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
        hands = f.hands if f.hands is not None else min(boards, lim.max_hands)
        if not 1 <= hands <= lim.max_hands:
            raise bad(f"hands must be 1..{lim.max_hands}")
        clock = f.clock_ms if f.clock_ms is not None else self.config.clocks.get(f.game, FALLBACK_CLOCK_MS)
        if not lim.min_clock_ms <= clock <= lim.max_clock_ms:
            raise bad(f"clock_ms must be {lim.min_clock_ms}..{lim.max_clock_ms}")
        bots = sorted(set(f.bots))
        if any(b >= n for b in bots):
            raise bad(f"{f.game} has seats 0..{n - 1}")
        robot = self.robot_for(f.game, f.robot)
        if robot is None:
            raise bad(f"no robot {f.robot!r} for {f.game}")
        if len(f.robots) > n or any(name is not None and s not in bots for s, name in enumerate(f.robots)):
            raise bad(f"robots names a robot for each of the seats in bots, at most {n}")
        for name in f.robots:
            if name is not None and self.robot_for(f.game, name) is None:
                raise bad(f"no robot {name!r} for {f.game}")
        if len(self.rooms) >= lim.max_rooms:
            raise LobbyError(ErrorCode.ROOM_FULL, "the server has as many rooms as it may hold")
        return table.Table(
            self._room_id(f.private),
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
            limits=lim,
            reply_to=self.reply_to,
            created=self.epoch + self.now,
            logged=self.logged,
            now=self.now,
            epoch=self.epoch,
            observer=self.observer,
        )

    def _room_id(self, private: bool) -> str:
        """A new room's id: 16 hex digits for a private room (its link is the way in), else 6."""
        while True:
            rid = secrets.token_hex(8) if private else "r" + secrets.token_hex(3)
            if rid not in self.rooms and not self.taken(rid):
                return rid

    @staticmethod
    def _ruleset(f: QuickPlay) -> str:
        try:
            ruleset = str(games.get(f.game).ruleset(f.ruleset).name) if f.game in games.names() else None
        except KeyError:
            ruleset = None
        if ruleset is None:
            raise LobbyError(ErrorCode.BAD_ROOM_OPTIONS, f"no game {f.game!r} with ruleset {f.ruleset!r}")
        return ruleset

    def _waiting(self, game: str, ruleset: str) -> R | None:
        """A waiting quick-play room of ``game`` and ``ruleset`` with a free seat."""
        for room in self.rooms.values():
            t = room.table
            if (
                t.quickplay
                and t.phase is Phase.WAITING
                and not room.closed
                and t.game_name == game
                and t.ruleset == ruleset
                and t.free_seats()
            ):
                return room
        return None

    def _quickplay(self, conn: Conn, p: Player, f: QuickPlay) -> None:
        """A waiting quick-play room of the game and ruleset with a free seat, else a new one
        (the directory, asked before, found none on the other nodes)."""
        self._free(p)
        ruleset = self._ruleset(f)
        room = self._waiting(f.game, ruleset)
        if room is not None:
            join = table.Enter(p.id, p.name, conn, "any", quick=True, rematch=conn in self.rematching)
            self._out.append(Feed(room.id, join, f))
        else:
            self._create(conn, p, CreateRoom(f.game, ruleset), f, quickplay=True)

    def _rematch(self, m: Rematch) -> None:
        """A new match for those who accepted a rematch, in a new room with the old one's
        settings and a new seed: mahjong's and Niujiu's players move one seat on (the first
        seat of the deal changes hands), bridge keeps its partnerships; the seat of one who
        left, or who went to another room meanwhile, goes to a robot."""
        old = self.rooms.get(m.room)
        if old is None:
            return
        t = old.table
        rotate = 1 if t.game_name in ("mahjong", "niujiu") else 0
        seated: dict[int, tuple[Player, Conn]] = {}
        for s, (pid, _name, conn) in m.humans.items():
            p = self.players.get(pid)
            if p is not None and p.room is None and p.conn == conn:
                seated[(s + rotate) % t.n] = (p, conn)
        if not seated or len(self.rooms) >= self.limits.max_rooms:
            return
        robots = [t.robot_of((s - rotate) % t.n) if s not in seated else None for s in range(t.n)]
        new = table.Table(
            self._room_id(t.private),
            t.game_name,
            t.rules,
            seed=secrets.randbits(63),
            hands=t.hands,
            clock_ms=t.clock_ms,
            bank_ms=t.bank_ms,
            bots=[s for s in range(t.n) if s not in seated],
            robot=t.default_robot,
            robots=robots,
            private=t.private,
            limits=self.limits,
            reply_to=self.reply_to,
            created=self.epoch + self.now,
            logged=self.logged,
            now=self.now,
            epoch=self.epoch,
            observer=self.observer,
        )
        self.room_address[new.id] = self.room_address.get(m.room, "")
        self._out.append(Open(new))
        told = RematchOffer(m.room, RematchState.ACCEPTED, 0, sorted(m.humans), new.id)
        for _pid, _name, conn in m.humans.values():
            if conn in self.conns:
                self._out.append(Send(conn, told))
        for s, (p, conn) in sorted(seated.items()):
            self._out.append(Feed(new.id, table.Enter(p.id, p.name, conn, s, rematch=conn in self.rematching)))


def become(player: Player, account: str, session: str | None) -> None:
    """``player`` plays as ``account`` from now on."""
    player.extra["account"] = account
    if session is not None:
        player.extra["session"] = session
    player.name = account


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
    from paiju.games.bridge import BridgeRules
    from paiju.games.bridge.pbn import read_pbn, rules_from_pbn

    assert isinstance(base, BridgeRules)
    try:
        boards = read_pbn(text)
        rules = rules_from_pbn(boards, base)
    except ValueError as e:  # PbnError, whose message starts with "line N:"
        raise ValueError(f"pbn: {e}") from None
    return rules, len(boards)
