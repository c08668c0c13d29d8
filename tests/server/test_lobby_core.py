"""The lobby's core (paiju/core/lobby/) driven in-process, without sockets or subprocesses:
HELLO, resume with and without a gap, the expiry after the grace period, the per-address
limits, quick play, the redirect decisions with a fake directory, login throttling."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from paiju.core.config import Limits
from paiju.core.lobby import Answer, Checked, Failed, Go, Identified, Listed, LobbyOut, Looked, Lookup
from paiju.core.throttle import Throttle
from paiju.protocol import (
    VERSION,
    Account,
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
    LobbyError,
    Ping,
    Pong,
    QuickPlay,
    RoomList,
    RoomState,
    Sessions,
    Token,
    Welcome,
)

from .lobbykit import Kit, default_answer, moved


def test_hello_welcomes_once_and_nothing_comes_before_it() -> None:
    k = Kit()
    k.connect(1)
    assert k.send(1, Ping(5)) == [k.frames[1][0]] and k.errors(1) == [ErrorCode.HELLO_FIRST]
    w = k.hello(2, "bob")
    assert k.lobby.conns[2] is k.lobby.players[w.player_id]
    assert k.send(2, Ping(7)) == [Pong(7)]
    k.send(2, Hello(VERSION, "bob"))
    assert k.errors(2) == [ErrorCode.WRONG_STATE]
    k.connect(3)
    k.send(3, Hello(VERSION + 1, "old"))
    assert k.errors(3) == [ErrorCode.BAD_VERSION] and k.lobby.conns[3] is None
    k.send(3, Hello(VERSION, "x", token="p.1.nope"))
    assert k.errors(3)[-1] == ErrorCode.BAD_TOKEN


def _tricks_match(k: Kit) -> tuple[Welcome, str]:
    """Player "ann" on connection 1 alone with a robot in a 3-hand tricks room."""
    w = k.hello(1, "ann")
    got = k.send(1, CreateRoom("tricks", hands=3, clock_ms=60_000, bots=[1]))
    state = next(f for f in got if isinstance(f, RoomState))
    assert k.lobby.players[w.player_id].room == state.room
    return w, state.room


def test_resume_without_a_gap_gets_the_missed_events_and_with_a_gap_a_state() -> None:
    k = Kit()
    w, rid = _tricks_match(k)
    seen = max(f.seq for f in k.frames[1] if isinstance(f, Event))
    k.drop(1)
    assert k.lobby.players[w.player_id].conn is None  # kept: its seat waits for the grace period
    k.tick(1.0)  # the table marks the seat away meanwhile (one event at least)
    k.connect(2)
    got = k.send(2, Hello(VERSION, "ann", token=w.token, last_seq=seen))
    assert isinstance(got[0], Welcome) and got[0].player_id == w.player_id
    events = [f for f in got if isinstance(f, Event)]
    assert events and events[0].seq == seen + 1 and not any(isinstance(f, RoomState) for f in got)
    # a gap (no last_seq): the room's state instead (each resume has a new token)
    k.drop(2)
    k.connect(3)
    got = k.send(3, Hello(VERSION, "ann", token=got[0].token))  # type: ignore[attr-defined]
    assert any(isinstance(f, RoomState) and f.room == rid for f in got)
    # a newer connection of the same player replaces the older one
    k.connect(4)
    k.send(4, Hello(VERSION, "ann", token=got[0].token))  # type: ignore[attr-defined]
    assert k.closed[3][0] == 1008 and k.lobby.players[w.player_id].conn == 4


def test_a_player_is_forgotten_after_the_grace_period_and_not_before() -> None:
    k = Kit()
    w = k.hello(1)
    k.drop(1)
    assert w.player_id not in k.lobby.players  # no connection, no room: forgotten at once
    # a player let go by an ended room, its connection then lost: kept for the grace period
    k2 = Kit()
    w2 = k2.hello(1, "bob")
    k2.send(1, CreateRoom("tricks", hands=1, clock_ms=60_000, bots=[1]))
    rid2 = k2.lobby.players[w2.player_id].room
    assert rid2 is not None
    while k2.lobby.players[w2.player_id].room is not None:  # the clock plays the hand out
        k2.tick(61.0)
    assert k2.lobby.players[w2.player_id].ended == rid2
    k2.drop(1)
    k2.tick(k2.limits.grace - 1)
    assert w2.player_id in k2.lobby.players
    k2.connect(2)  # a resume within the grace period catches up with the ended match
    got = k2.send(2, Hello(VERSION, "bob", token=w2.token, last_seq=1))
    assert any(isinstance(f, Event) for f in got[1:])
    k2.drop(2)
    k2.tick(k2.limits.grace + 1)
    assert w2.player_id not in k2.lobby.players and k2.lobby.next_deadline() is None
    assert rid2 not in k2.lobby.finished


def test_per_address_limits_on_connections_and_rooms() -> None:
    k = Kit(limits=Limits(address_connections=2, address_rooms=1, address_rooms_per_minute=2))
    k.hello(1, "a", address="10.0.0.9")
    k.hello(2, "b", address="10.0.0.9")
    k.connect(3, "10.0.0.9")
    k.send(3, Hello(VERSION, "c"))
    assert k.errors(3) == [ErrorCode.TOO_MANY_CONNECTIONS] and k.closed[3][0] == 1013
    k.drop(3)
    k.hello(4, "d", address="10.0.0.8")  # another address is not counted with it
    k.send(1, CreateRoom("tricks", bots=[1], private=True))
    k.send(2, CreateRoom("tricks", bots=[1]))
    assert k.errors(2) == [ErrorCode.TOO_MANY_ROOMS]
    rid = k.lobby.players[k.lobby.conns[1].id].room  # type: ignore[union-attr]
    assert rid is not None
    k.send(1, Leave(rid))  # the room closes: the address may open another
    k.send(2, CreateRoom("tricks", bots=[1]))
    assert k.errors(2) == [ErrorCode.TOO_MANY_ROOMS]  # two rooms this minute already
    k.send(2, Leave(k.lobby.conns[2].room))  # type: ignore[union-attr,arg-type]
    k.now += 61  # a minute later
    k.send(2, CreateRoom("tricks", bots=[1]))
    assert k.errors(2) == [ErrorCode.TOO_MANY_ROOMS] and k.lobby.conns[2].room is not None  # type: ignore[union-attr]


def test_quick_play_matches_waiting_rooms_of_the_same_game_and_ruleset() -> None:
    k = Kit()
    for c, name in ((1, "a"), (2, "b"), (3, "c")):
        k.hello(c, name)
    k.send(1, QuickPlay("mahjong"))
    k.send(2, QuickPlay("mahjong"))
    k.send(3, QuickPlay("tricks"))
    rooms = [k.lobby.conns[c].room for c in (1, 2, 3)]  # type: ignore[union-attr]
    assert rooms[0] == rooms[1] and rooms[2] not in (None, rooms[0])
    assert k.lobby.rooms[rooms[0]].table.quickplay  # type: ignore[index]
    k.send(3, QuickPlay("tricks"))
    assert k.errors(3) == [ErrorCode.ALREADY_IN_ROOM]
    k.hello(4, "d")
    k.send(4, QuickPlay("mahjong", "no-such-rules"))
    assert k.errors(4) == [ErrorCode.BAD_ROOM_OPTIONS]
    k.tick(k.limits.quickplay_wait + 0.1)  # the wait runs out: robots fill the seats
    k.send(4, QuickPlay("mahjong"))  # that room plays now: a new one
    assert k.lobby.conns[4].room not in (None, rooms[0])  # type: ignore[union-attr]


def test_refusals_come_out_in_order_and_a_bug_is_an_internal_error() -> None:
    k = Kit()
    k.hello(1)
    k.send(1, Join("nope"))
    k.send(1, CreateRoom("chess"))
    k.send(1, Leave("nope"))
    assert k.errors(1) == [ErrorCode.NO_SUCH_ROOM, ErrorCode.BAD_ROOM_OPTIONS, ErrorCode.NOT_IN_ROOM]
    k.lobby.robots = lambda game: 1 / 0  # type: ignore[assignment,return-value]
    k.send(1, CreateRoom("tricks"))
    assert k.errors(1)[-1] == ErrorCode.INTERNAL  # and the lobby carries on
    assert k.send(1, Ping(1)) == [Pong(1)]


class FakeDirectory:
    """The other nodes: room "far" lives on node B, node A is draining, B has a waiting
    quick-play tricks room."""

    def __init__(self) -> None:
        self.draining = False

    def __call__(self, lk: Lookup) -> Answer:
        f = lk.frame
        if isinstance(f, Join):
            return moved("ws://b/ws", f.room) if f.room == "far" else Go()
        if isinstance(f, CreateRoom):
            if self.draining:
                return moved("ws://b/ws")
            return Go()
        if isinstance(f, QuickPlay):
            return moved("ws://b/ws", "rq") if f.game == "tricks" else Go()
        if isinstance(f, ListRooms):
            return Listed([])
        if isinstance(f, Hello) and lk.player == "gone":
            return Failed(LobbyError(ErrorCode.SHUTTING_DOWN, "x"))
        return default_answer(lk)


def test_redirect_decisions_with_a_fake_directory() -> None:
    d = FakeDirectory()
    k = Kit(directory=True, look=d)
    k.hello(1)
    k.send(1, Join("far"))
    r = k.redirects(1)[-1]
    assert (r.url, r.room, r.ref_type) == ("ws://b/ws", "far", Join.TYPE) and not k.errors(1)
    k.send(1, Join("gone"))  # the directory knows no such room either
    assert k.errors(1) == [ErrorCode.NO_SUCH_ROOM]
    k.send(1, QuickPlay("tricks"))  # a waiting room on B
    assert k.redirects(1)[-1].room == "rq"
    k.send(1, QuickPlay("mahjong"))  # none elsewhere: one here
    rid = k.lobby.conns[1].room  # type: ignore[union-attr]
    assert rid in k.lobby.rooms
    asked = len(k.lookups)
    k.hello(2, "bob")
    k.send(2, QuickPlay("mahjong"))  # a waiting room here: the directory is not asked
    assert k.lobby.conns[2].room == rid and len(k.lookups) == asked  # type: ignore[union-attr]
    k.send(2, Leave(rid))  # type: ignore[arg-type]
    k.send(2, Join(rid))  # type: ignore[arg-type]  # a room of this node: not asked either
    assert len(k.lookups) == asked and k.lobby.conns[2].room == rid  # type: ignore[union-attr]
    d.draining = True
    k.hello(3, "cy")
    k.send(3, CreateRoom("tricks"))
    assert k.redirects(3)[-1].url == "ws://b/ws" and k.lobby.conns[3].room is None  # type: ignore[union-attr]
    k.send(3, ListRooms())
    assert isinstance(k.frames[3][-1], RoomList) and [r.room for r in k.frames[3][-1].rooms] == [rid]


class FakeAccounts:
    """The database's answers: "ann" has the password "right"; counts the checks."""

    def __init__(self) -> None:
        self.checks = 0

    def __call__(self, lk: Lookup) -> Answer:
        f = lk.frame
        if isinstance(f, Account):
            self.checks += 1
            if f.name == "ann" and f.password == "right":
                return Identified("ann", "session-1")
            if f.op == "logout":
                return Identified(None)
            return Failed(LobbyError(ErrorCode.BAD_LOGIN, "wrong name or password"))
        if isinstance(f, Hello) and f.session == "session-1":
            return Checked("ann")
        return default_answer(lk)


def test_login_throttling_by_name_and_address_never_locks_the_owner_out() -> None:
    """The patient attacker: 10 wrong passwords for ann from one address, each paced as the
    RATE_LIMITED message says. Each is answered BAD_LOGIN after its wait (a password check
    each); the owner's login from another address goes through at once, and so does one on a
    connection that holds ann's session, from the attacker's own address."""
    db = FakeAccounts()
    k = Kit(accounts=True, look=db)
    k.lobby.throttle = Throttle(free=3, base=1.0, cap=300.0, per_address=10)
    k.hello(1, "x", address="10.0.0.5")
    waited = []
    for _ in range(10):
        k.send(1, Account("login", "ann", "wrong"))
        last = k.frames[1][-1]
        while isinstance(last, Error) and last.code == ErrorCode.RATE_LIMITED:
            wait = float(last.message.split("try again in ")[1].split()[0])
            waited.append(wait)
            k.now += wait
            k.send(1, Account("login", "ann", "wrong"))
            last = k.frames[1][-1]
        assert isinstance(last, Error) and last.code == ErrorCode.BAD_LOGIN
    assert waited == [1, 2, 4, 8, 16, 32, 64] and db.checks == 10  # 127 s: exponential
    k.send(1, Account("login", "ann", "right"))  # the attacker's address waits, whatever the password
    assert k.errors(1)[-1] == ErrorCode.RATE_LIMITED and db.checks == 10  # and costs no check
    k.hello(2, "y", address="10.0.0.6")  # the owner, elsewhere: at once
    k.send(2, Account("login", "ann", "right"))
    assert k.frames[2][-1] == Identity("ann", True, "session-1")
    k.connect(3, "10.0.0.5")  # the owner's browser on the attacker's address, with its session
    got = k.send(3, Hello(VERSION, "ann", session="session-1"))
    assert got[-1] == Identity("ann", True, None)
    k.send(3, Account("login", "ann", "right"))  # and even a login there: the owner is not slowed
    assert k.frames[3][-1] == Identity("ann", True, "session-1")
    # bounded: past the cap (300 s) the delay stops growing
    for _ in range(4):
        k.now += float(k.frames[1][-1].message.split("try again in ")[1].split()[0])  # type: ignore[attr-defined]
        k.send(1, Account("login", "ann", "wrong"))
        k.send(1, Account("login", "ann", "wrong"))
    assert [int(m.split()[-2]) for m in _messages(k, 1)[-5:]] == [128, 256, 300, 300, 300]


def _messages(k: Kit, conn: int) -> list[str]:
    return [f.message for f in k.frames[conn] if isinstance(f, Error) and f.code == ErrorCode.RATE_LIMITED]


def test_password_checks_are_bounded_per_address() -> None:
    """One check of an address at a time: a crowd of connections from one address waits for
    its own, while another address's check starts at once."""
    k = Kit(accounts=True, look=lambda lk: Go())  # (a lookup answered at once: no wait)
    held: list[Lookup] = []
    k.look = None
    k.carry = _holding(k, held)  # type: ignore[method-assign]
    for c, addr in ((1, "10.0.0.1"), (2, "10.0.0.1"), (3, "10.0.0.2")):
        k.hello(c, f"p{c}", address=addr)
        k.send(c, Account("login", "nobody", "pw"))
    assert [lk.conn for lk in held] == [1, 3]
    assert k.errors(2) == [ErrorCode.RATE_LIMITED] and "under way" in k.frames[2][-1].message  # type: ignore[attr-defined]
    k.send(1, Account("login", "nobody", "pw"))  # one at a time per connection too
    assert k.errors(1) == [ErrorCode.RATE_LIMITED]
    k.handle(Looked(1, held[0].frame, Failed(LobbyError(ErrorCode.BAD_LOGIN, "no"))))
    k.send(2, Account("login", "nobody", "pw"))  # the address's check is over: its next one starts
    assert [lk.conn for lk in held] == [1, 3, 2]


def _holding(k: Kit, held: list[Lookup]) -> Callable[[list[LobbyOut]], None]:
    """``k.carry`` that keeps the ACCOUNT lookups unanswered (checks under way)."""
    carry = Kit.carry.__get__(k)

    def hold(outs: list[LobbyOut]) -> None:
        held.extend(o for o in outs if isinstance(o, Lookup) and isinstance(o.frame, Account))
        carry([o for o in outs if not (isinstance(o, Lookup) and isinstance(o.frame, Account))])

    return hold


def _logged_in(k: Kit, conn: int, address: str = "10.0.0.1") -> Welcome:
    """Ann on ``conn``, logged in (FakeAccounts: session "session-1"), in a tricks room."""
    w = k.hello(conn, "x", address=address)
    k.send(conn, Account("login", "ann", "right"))
    assert k.frames[conn][-1] == Identity("ann", True, "session-1")
    k.send(conn, CreateRoom("tricks", hands=3, clock_ms=60_000, bots=[1]))
    return w


def _resume(k: Kit, conn: int, token: str, **kw: Any) -> Frame:
    """HELLO with ``token`` on a new connection ``conn``: its first answer."""
    k.connect(conn)
    return k.send(conn, Hello(VERSION, "ann", token=token, **kw))[0]


def test_a_resume_token_ends_at_the_next_resume_at_leave_and_at_logout() -> None:
    k = Kit(Limits(grace=10.0, address_connections=0, robot_on_drop=False), accounts=True, look=FakeAccounts())
    t1 = _logged_in(k, 1).token
    rid = k.lobby.conns[1].room  # type: ignore[union-attr]
    k.drop(1)
    w2 = _resume(k, 2, t1, session="session-1")
    assert isinstance(w2, Welcome) and w2.token != t1
    k.drop(2)
    assert isinstance(_resume(k, 3, t1), Error) and k.errors(3) == [ErrorCode.BAD_TOKEN]  # replaced
    w4 = _resume(k, 4, w2.token, session="session-1")
    assert isinstance(w4, Welcome) and w4.player_id == w2.player_id
    # LEAVE: the seat session is over, its token too; TOKEN gives the connection the next one
    got = k.send(4, Leave(rid))  # type: ignore[arg-type]
    t5 = next(f for f in got if isinstance(f, Token)).token
    assert isinstance(_resume(k, 5, w4.token), Error) and k.errors(5) == [ErrorCode.BAD_TOKEN]
    # logout: the same
    got = k.send(4, Account("logout"))
    assert Identity(f"guest-{w4.player_id[:4]}", False, None) in got
    t6 = next(f for f in got if isinstance(f, Token)).token
    assert isinstance(_resume(k, 6, t5), Error) and k.errors(6) == [ErrorCode.BAD_TOKEN]
    assert isinstance(_resume(k, 7, t6), Welcome)  # the last one given works
    # a player forgotten (gone with no room) takes its token with it
    k.drop(7)
    k.drop(4)
    assert isinstance(_resume(k, 8, t6), Error) and k.errors(8) == [ErrorCode.BAD_TOKEN]


def test_a_resume_token_is_no_session() -> None:
    """A logged-in player's resume token without the account's session: the seat comes back,
    the account does not (no IDENTITY; logout refused)."""
    k = Kit(Limits(grace=10.0, address_connections=0, robot_on_drop=False), accounts=True, look=FakeAccounts())
    w = _logged_in(k, 1)
    k.drop(1)
    k.connect(2)
    got = k.send(2, Hello(VERSION, "eve", token=w.token))
    assert isinstance(got[0], Welcome) and not any(isinstance(f, Identity) for f in got)
    assert any(isinstance(f, RoomState) for f in got)  # the seat, as a bearer token gives it
    p = k.lobby.conns[2]
    assert p is not None and "account" not in p.extra and "session" not in p.extra and p.name == "eve"
    k.send(2, Account("logout"))
    assert k.errors(2) == [ErrorCode.WRONG_STATE]
    k.send(2, Sessions())
    assert k.errors(2) == [ErrorCode.WRONG_STATE] * 2
