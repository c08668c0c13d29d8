"""A driver for the lobby's core (paiju/core/lobby/) with real tables and no I/O: what the
shell (paiju/server/lobby.py) does, in a few lines, with the clock, the database and the other nodes
as test doubles. Connections are ints; each one's frames are kept in order."""

from __future__ import annotations

import random
from collections import defaultdict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from paiju import games
from paiju.core import table
from paiju.core.config import Config, Limits
from paiju.core.lobby import (
    Answer,
    CatchUp,
    Checked,
    CloseConn,
    Connect,
    Disconnect,
    Failed,
    Feed,
    Go,
    Lobby,
    LobbyOut,
    Looked,
    Lookup,
    Open,
    Received,
    Refuse,
    RoomClosed,
    Send,
    Tick,
)
from paiju.protocol import (
    VERSION,
    Action,
    DecisionRequest,
    Error,
    Event,
    Frame,
    Hello,
    Moved,
    PaijuError,
    Redirect,
    RoomEvent,
    Welcome,
)


@dataclass(eq=False)
class FakeRoom:
    """A room as the lobby sees it: a real table, fed at once (no asyncio, no log)."""

    table: table.Table
    closed: bool = False

    @property
    def id(self) -> str:
        return self.table.id


@dataclass
class Kit:
    """``Kit()``: a lobby and what it sent; ``look`` answers its lookups (None: Go)."""

    limits: Limits = field(default_factory=lambda: Limits(grace=10.0, address_connections=0))
    directory: bool = False
    accounts: bool = False
    look: Callable[[Lookup], Answer] | None = None
    now: float = 0.0
    lobby: Lobby[FakeRoom] = field(init=False)
    frames: dict[int, list[Frame]] = field(default_factory=lambda: defaultdict(list))
    closed: dict[int, tuple[int, str]] = field(default_factory=dict)
    lookups: list[Lookup] = field(default_factory=list)

    config: Config | None = None
    robots: Callable[[str], list[str]] = lambda game: ["random"]
    rng: random.Random = field(default_factory=lambda: random.Random(7))
    requests: deque[DecisionRequest] = field(default_factory=deque)  # for the robots, in order
    answering: bool = True  # robot seats answer at once (a random legal option)
    _depth: int = 0

    def __post_init__(self) -> None:
        config = self.config if self.config is not None else Config(limits=self.limits)
        self.limits = config.limits
        self.lobby = Lobby(
            config,
            secret=b"test",
            robots=self.robots,
            directory=self.directory,
            accounts=self.accounts,
            epoch=1_700_000_000.0,
        )

    # ------------------------------------------------------------------ driving
    def handle(self, msg: Any) -> None:
        self._depth += 1
        try:
            self.carry(self.lobby.handle(msg, self.now))
        finally:
            self._depth -= 1
        if self._depth == 0:
            self.answer_robots()

    def answer_robots(self) -> None:
        """The robots' decisions, one request at a time (each may bring more)."""
        self._depth += 1
        try:
            while self.answering and self.requests:
                r = self.requests.popleft()
                room = self.lobby.rooms.get(r.room)
                if room is None or room.closed:
                    continue
                opt = self.rng.choice(r.options)
                cards = bytes(self.rng.sample(list(opt.cards), opt.pick))
                self.feed(r.room, table.Decide(r.seat, r.prompt_id, games.GameAction(opt.code, cards)))
        finally:
            self._depth -= 1

    def carry(self, outs: list[LobbyOut]) -> None:
        for o in outs:
            if isinstance(o, Send):
                self.frames[o.conn].append(o.frame)  # type: ignore[index]
            elif isinstance(o, Refuse):
                self.frames[o.conn].append(o.error)  # type: ignore[index]
            elif isinstance(o, CloseConn):
                self.closed[o.conn] = (o.code, o.reason)  # type: ignore[index]
            elif isinstance(o, Open):
                self.lobby.add(FakeRoom(o.table))
            elif isinstance(o, Feed):
                self.feed(o.room, o.input, o.ref)
            elif isinstance(o, CatchUp):
                assert isinstance(o.room, FakeRoom)
                for s in o.room.table.missed(o.player, o.conn, o.last_seq):
                    if isinstance(s, table.Send):
                        self.frames[s.conn].append(s.frame)  # type: ignore[index]
            elif isinstance(o, Lookup):
                self.lookups.append(o)
                try:
                    answer = self.look(o) if self.look is not None else default_answer(o)
                except PaijuError as e:
                    answer = Failed(e)
                self.handle(Looked(o.conn, o.frame, answer))

    def feed(self, rid: str, msg: table.TableIn, ref: Frame | None = None) -> None:
        room = self.lobby.rooms[rid]
        for o in room.table.handle(msg, self.now):
            if isinstance(o, table.Send):
                self.frames[o.conn].append(o.frame)  # type: ignore[index]
            elif isinstance(o, (table.Bound, table.Unbound)):  # the shell hands them to the lobby
                self.handle(o)
            elif isinstance(o, table.Refused):
                conn = msg.conn
                self.frames[conn].append(Error.refusing(o.error, ref))
            elif isinstance(o, table.Publish):
                self.requests.append(o.request)
            elif isinstance(o, table.Close):
                room.closed = True
                self.handle(RoomClosed(rid))
            elif isinstance(o, table.Rematched):  # the shell hands it to the lobby
                self.handle(o)

    def tick(self, seconds: float) -> None:
        """Let ``seconds`` pass: the tables' and the lobby's clocks run."""
        self.now += seconds
        self._depth += 1
        try:
            for room in list(self.lobby.rooms.values()):
                if not room.closed:
                    self.feed(room.id, table.Tick())
        finally:
            self._depth -= 1
        self.handle(Tick())

    def next_deadline(self) -> float | None:
        times = [r.table.next_deadline() for r in self.lobby.rooms.values() if not r.closed]
        times.append(self.lobby.next_deadline())
        return min((t for t in times if t is not None), default=None)

    def run_clock(self, until: Callable[[], bool], limit: float = 3600.0) -> None:
        """Let time pass, deadline after deadline, until ``until()`` (at most ``limit`` s)."""
        end = self.now + limit
        while not until():
            when = self.next_deadline()
            assert when is not None and when <= end, "nothing left to wait for"
            self.tick(max(0.0, when - self.now))

    def pending(self, conn: int) -> list[table.Pending]:
        """The prompts the player of ``conn`` has to answer now."""
        p = self.lobby.conns.get(conn)
        if p is None or p.room is None or p.seat is None or p.room not in self.lobby.rooms:
            return []
        t = self.lobby.rooms[p.room].table
        return sorted((q for q in t.pending.values() if q.controller == p.seat), key=lambda q: q.id)

    def play(self, *conns: int, rng: random.Random | None = None, limit: int = 100_000) -> None:
        """The players of ``conns`` answer their prompts with random legal options (the clock
        runs when none of them has one) until each connection has had MATCH_END."""
        rng = rng or self.rng

        def over(c: int) -> bool:
            return any(isinstance(f, Event) and f.code == RoomEvent.MATCH_END for f in self.frames[c])

        for _ in range(limit):
            if all(over(c) for c in conns):
                return
            moved = False
            for c in conns:
                for q in self.pending(c)[:1]:
                    opt = rng.choice(q.actions.options)
                    cards = bytes(rng.sample(list(opt.cards), opt.pick))
                    self.send(c, Action(q.id, opt.code, cards))
                    moved = True
            if not moved:
                when = self.next_deadline()
                assert when is not None, "the match is stuck"
                self.tick(max(0.0, when - self.now))
        raise AssertionError("the match did not end")

    # ------------------------------------------------------------------ a client's view
    def connect(self, conn: int, address: str = "10.0.0.1") -> None:
        self.handle(Connect(conn, address))

    def send(self, conn: int, frame: Frame) -> list[Frame]:
        """Frame ``frame`` from ``conn``: what ``conn`` received because of it."""
        before = len(self.frames[conn])
        self.handle(Received(conn, frame))
        return self.frames[conn][before:]

    def hello(self, conn: int, name: str = "ann", address: str = "10.0.0.1", **kw: Any) -> Welcome:
        self.connect(conn, address)
        got = self.send(conn, Hello(VERSION, name, **kw))
        assert isinstance(got[0], Welcome), got
        return got[0]

    def drop(self, conn: int) -> None:
        self.handle(Disconnect(conn))

    def errors(self, conn: int) -> list[int]:
        return [f.code for f in self.frames[conn] if isinstance(f, Error)]

    def redirects(self, conn: int) -> list[Redirect]:
        return [f for f in self.frames[conn] if isinstance(f, Redirect)]


def default_answer(lk: Lookup) -> Answer:
    if isinstance(lk.frame, Hello):
        return Checked(lk.account or "")
    return Go()


def moved(url: str, room: str | None = None) -> Answer:
    return Failed(Moved(url, room))


GAMES = games.names()
