"""The :class:`Lobby`: who is connected, who plays as whom, which rooms there are, sans-I/O;
made of parts with one job each (see the package's docstring), to which it routes each input.

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
does no I/O: paiju/server/lobby.py feeds it and carries its outputs out, and the tests drive it
directly (tests/server/test_lobby_core.py).

Rooms are whatever handle the shell registers (paiju/server/room.py's Room; a test's stand-in):
the lobby reads its ``id``, ``table`` and ``closed``, and talks to it only through outputs.
A connection is whatever the caller passes (the shell's Connection, a test's int).

>>> from paiju.core.config import Limits
>>> from paiju.protocol import VERSION, Hello
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

from paiju import games
from paiju.core import errors
from paiju.core.lobby.common import Common, R
from paiju.core.lobby.hosting import Hosting
from paiju.core.lobby.login import Login
from paiju.core.lobby.messages import (
    Checked,
    Connect,
    Disconnect,
    Evict,
    Failed,
    Feed,
    Garbled,
    Listed,
    LobbyIn,
    LobbyOut,
    Looked,
    Lookup,
    Received,
    RoomClosed,
    SessionsListed,
)
from paiju.core.lobby.people import People
from paiju.core.messages import Conn, Tick
from paiju.core.table import AnswerRematch, Exit, MuteName, Reply, SayLine, SwapSeat, TableIn
from paiju.core.table.messages import Bound, Rematched, Unbound
from paiju.protocol import (
    Account,
    Action,
    CreateRoom,
    ErrorCode,
    Frame,
    Hello,
    Join,
    Leave,
    ListRooms,
    LobbyError,
    Mute,
    Ping,
    Pong,
    ProtocolError,
    QuickPlay,
    RematchAnswer,
    Say,
    Sessions,
    SetSeat,
)

log = logging.getLogger("paiju.lobby")


class Lobby(Common[R]):
    """The lobby of one server process, sans-I/O (see the module's docstring): the settings,
    people and rooms it shares with its parts (:class:`~paiju.core.lobby.common.Common`), and
    the parts, to which :meth:`handle` routes each input.

    ``config`` gives the limits, the games' clocks and the server's PBN deals; ``secret``
    signs the resume tokens; ``robots(game)`` lists the robot names a room may ask for (None:
    any name); ``directory``: the other nodes answer the lookups that may be theirs (without
    it, JOIN, CREATE_ROOM, QUICK_PLAY and LIST_ROOMS are answered at once); ``accounts``: the
    server keeps accounts (HELLO and ACCOUNT ask the database); ``epoch`` turns ``now`` into
    unix time; ``taken(id)``: a room id that may not be given (a log of that id exists).
    """

    people: People[R]
    login: Login[R]
    hosting: Hosting[R]

    def assemble(self) -> None:
        """The parts, made at the end of :class:`Common`'s ``__init__`` (the arguments are its)."""
        self.people = People(self)
        self.login = Login(self, self.people)
        self.hosting = Hosting(self)

    def add(self, room: R) -> None:
        """Register ``room`` (opened after :class:`Open`, or rebuilt from its log)."""
        self.rooms[room.id] = room

    def next_deadline(self) -> float | None:
        """When the next :class:`Tick` is due (None: nothing waits)."""
        return min(self.expiring.values()) if self.expiring else None

    def robot_for(self, game: str, wanted: str | None) -> str | None:
        """The robot a room of ``game`` gets for ``wanted`` (see :meth:`Hosting.robot_for
        <paiju.core.lobby.hosting.Hosting.robot_for>`)."""
        return self.hosting.robot_for(game, wanted)

    # ------------------------------------------------------------------ the one way in
    def handle(self, msg: LobbyIn, now: float) -> list[LobbyOut]:
        """Apply one input at time ``now``; what must happen outside, in order. A room's
        :class:`Bound` or :class:`Unbound` may come in while the caller carries out the
        outputs of another input (the lobby is re-entered: each call has its own outputs)."""
        self.now = now
        saved, out = self.out, list[LobbyOut]()
        self.out = out
        try:
            self._route(msg)
        except Exception as e:  # a refusal, or a bug: the sender hears of it
            conn = getattr(msg, "conn", None)
            frame = getattr(msg, "frame", None)
            err = errors.refusal(e, f"lobby on {type(frame or msg).__name__}")
            if conn is not None:
                self.refuse(conn, err, frame)
        finally:
            self.out = saved
        return out

    def _route(self, msg: LobbyIn) -> None:
        if isinstance(msg, Received):
            self._received(msg.conn, msg.frame)
        elif isinstance(msg, Looked):
            self._looked(msg)
        elif isinstance(msg, Garbled):
            self.refuse(msg.conn, msg.error, msg.ref, msg.ref_type, msg.ref_id)
        elif isinstance(msg, Bound):
            self.people.bound(msg)
        elif isinstance(msg, Unbound):
            self.people.unbound(msg)
        elif isinstance(msg, Connect):
            self.people.connect(msg)
        elif isinstance(msg, Disconnect):
            self.people.disconnect(msg.conn)
        elif isinstance(msg, RoomClosed):
            self.people.room_closed(msg)
        elif isinstance(msg, Evict):
            self.people.evict(msg)
        elif isinstance(msg, Rematched):
            self.hosting.rematch(msg)
        elif isinstance(msg, Tick):
            self.people.tick()

    # ------------------------------------------------------------------ client frames
    def _received(self, conn: Conn, f: Frame) -> None:
        if conn in self.over:
            cap = self.limits.address_connections
            raise LobbyError(ErrorCode.TOO_MANY_CONNECTIONS, f"{cap} connections from one address at most: closing")
        if isinstance(f, Hello):
            self.login.hello(conn, f)
            return
        p = self.player(conn)
        if isinstance(f, Ping):
            self.send(conn, Pong(f.nonce))
        elif isinstance(f, Action):
            if p.room is None:
                raise LobbyError(ErrorCode.NOT_IN_ROOM, "not in a room")
            self.out.append(Feed(p.room, Reply(p.id, conn, f.prompt_id, games.GameAction(f.code, f.cards)), f))
        elif isinstance(f, Leave):
            # (after its match a room offering a rematch still takes the LEAVE of its players)
            if (p.room is not None and p.room != f.room) or (p.room is None and not self.here(f.room)):
                raise LobbyError(ErrorCode.NOT_IN_ROOM, f"not in room {f.room!r}")
            if p.room is not None:
                self.leaving.add(p.id)  # its token ends when the room lets it go
            self.out.append(Feed(f.room, Exit(p.id, conn), f))
        elif isinstance(f, SetSeat):
            if p.room is None or p.room != f.room:
                raise LobbyError(ErrorCode.NOT_IN_ROOM, f"not in room {f.room!r}")
            self.out.append(Feed(p.room, SwapSeat(p.id, conn, f.seat, f.robot), f))
        elif isinstance(f, (Say, Mute, RematchAnswer)):
            # the room's chat and, after its match, its rematch offer (the table checks who may)
            if not self.here(f.room):
                raise LobbyError(ErrorCode.NO_SUCH_ROOM, f"no room {f.room!r}")
            if isinstance(f, RematchAnswer) and p.room is not None and p.room != f.room:
                raise LobbyError(
                    ErrorCode.ALREADY_IN_ROOM, f"in room {p.room}: the rematch of {f.room} goes on without you"
                )
            if isinstance(f, Say):
                # per address too: fresh connections from one address do not add up their lines
                wait = self.chat_rate.take(self.address_of.get(conn, ""), self.now)
                if wait > 0:
                    raise LobbyError(
                        ErrorCode.RATE_LIMITED, f"too many chat lines from this address: wait {wait:.1f} s"
                    )
                msg: TableIn = SayLine(p.id, conn, f.text)
            elif isinstance(f, Mute):
                msg = MuteName(p.id, conn, f.name, f.on)
            else:
                msg = AnswerRematch(p.id, conn, f.accept)
            self.out.append(Feed(f.room, msg, f))
        elif isinstance(f, ListRooms):
            if self.directory:
                self.out.append(Lookup(conn, f))
            else:
                self.hosting.listing(conn, f, [])
        elif isinstance(f, Join):
            if f.room in self.rooms or not self.directory:
                self.hosting.go(conn, p, f)
            else:  # another node's, or a dead node's that this one takes over
                self.free(p)
                self.out.append(Lookup(conn, f))
        elif isinstance(f, CreateRoom):
            self.free(p)
            if self.directory:  # while this node drains, another one opens it
                self.out.append(Lookup(conn, f))
            else:
                self.hosting.go(conn, p, f)
        elif isinstance(f, QuickPlay):
            self.free(p)
            ruleset = self.hosting.ruleset(f)
            if self.hosting.waiting(f.game, ruleset) is None and self.directory:  # a waiting room elsewhere?
                self.out.append(Lookup(conn, f))
            else:
                self.hosting.go(conn, p, f)
        elif isinstance(f, Account):
            self.login.account(conn, p, f)
        elif isinstance(f, Sessions):
            self.login.sessions(conn, p, f)
        else:  # pragma: no cover - every client frame is handled above
            raise ProtocolError(ErrorCode.UNKNOWN_FRAME, f"{type(f).__name__} is not handled")

    def _looked(self, m: Looked) -> None:
        conn, f, a = m.conn, m.frame, m.answer
        self.login.checked(m)
        if conn not in self.conns:
            return  # the connection closed meanwhile
        if isinstance(f, Account):
            self.login.identified(conn, f, a)
            return
        if isinstance(a, Failed):
            raise a.error
        if isinstance(a, SessionsListed):
            self.login.listed(conn, a)
        elif isinstance(f, Hello):
            assert isinstance(a, Checked)
            self.login.welcome(conn, f, a.account)
        elif isinstance(f, ListRooms):
            self.hosting.listing(conn, f, a.rooms if isinstance(a, Listed) else [])
        elif isinstance(f, (CreateRoom, Join, QuickPlay)):
            self.hosting.go(conn, self.player(conn), f)
