"""A driver for the room core in-process: a :class:`~paiju.core.table.Table` with a clock the test
moves, players who join, act, drop and resume on numbered connections, and every output
recorded per connection, with the checks the core's tests share."""

from __future__ import annotations

import itertools
import random
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from paiju import games
from paiju.core.config import Limits
from paiju.core.lifecycle import Phase
from paiju.core.table import (
    Bound,
    Close,
    Decide,
    Drop,
    Enter,
    Exit,
    Publish,
    Refused,
    Reply,
    Resume,
    Send,
    Table,
    TableOut,
    Tick,
    Unbound,
)
from paiju.games import GameAction
from paiju.protocol import Ack, ChatLine, Error, Event, Frame, Prompt, RematchOffer, Result, RoomEvent, RoomState

_conn_ids = itertools.count(1)


@dataclass
class Person:
    """A client of the table: its player id, its current connection and what it received."""

    id: str
    conn: int | None = None
    seat: int | None = None
    inside: bool = False  # bound to the table (Bound seen, no Unbound since)
    last_seq: int = 0


@dataclass
class Driver:
    table: Table
    now: float = 0.0
    people: dict[str, Person] = field(default_factory=dict)
    got: dict[int, list[Frame]] = field(default_factory=lambda: defaultdict(list))
    published: list[Any] = field(default_factory=list)
    outputs: list[TableOut] = field(default_factory=list)
    conn_seat: dict[int, int | None] = field(default_factory=dict)  # the seat each connection speaks for
    closed: bool = False

    @classmethod
    def new(
        cls, game: str = "tricks", *, seed: int = 1, hands: int = 1, bots: list[int] | None = None, **kw: Any
    ) -> Driver:
        # (no rematch offer unless a test asks: the room closes at the end of its match)
        limits = kw.pop("limits", None) or Limits(hand_pause=0.0, grace=5.0, quickplay_wait=1.0, rematch_wait=0.0)
        t = Table(
            "r1",
            game,
            kw.pop("rules", None),
            seed=seed,
            hands=hands,
            clock_ms=kw.pop("clock_ms", 1000),
            bots=bots or [],
            robot="random",
            limits=limits,
            **kw,
        )
        return cls(t)

    # ------------------------------------------------------------------ inputs
    def feed(self, msg: Any, conn: int | None = None) -> list[TableOut]:
        out = self.table.handle(msg, self.now)
        self.outputs.extend(out)
        for o in out:
            if isinstance(o, Send):
                assert isinstance(o.conn, int)
                self.got[o.conn].append(o.frame)
                if isinstance(o.frame, Event):
                    for p in self.people.values():
                        if p.conn == o.conn:
                            p.last_seq = o.frame.seq
            elif isinstance(o, Publish):
                self.published.append(o.request)
            elif isinstance(o, Bound):
                p = self.people[o.player]
                p.inside, p.seat = True, o.seat
                if conn is not None:
                    self.conn_seat[conn] = o.seat
            elif isinstance(o, Unbound):
                self.people[o.player].inside = False
            elif isinstance(o, Close):
                self.closed = True
            elif isinstance(o, Refused):  # what the server answers to the sender
                self.got[msg.conn].append(Error.refusing(o.error))
        return out

    def person(self, pid: str) -> Person:
        if pid not in self.people:
            self.people[pid] = Person(pid)
        return self.people[pid]

    def join(self, pid: str, seat: int | str | None = "any", **kw: Any) -> list[TableOut]:
        p = self.person(pid)
        if p.conn is None or not p.inside:  # a new stay in the room: its own stream of events
            p.conn = next(_conn_ids)
        return self.feed(Enter(pid, pid, p.conn, seat, **kw), p.conn)  # type: ignore[arg-type]

    def leave(self, pid: str) -> list[TableOut]:
        p = self.person(pid)
        return self.feed(Exit(pid, p.conn if p.conn is not None else -1))

    def drop(self, pid: str) -> list[TableOut]:
        p = self.person(pid)
        conn, p.conn = p.conn, None
        return self.feed(Drop(pid, conn if conn is not None else -1))

    def resume(self, pid: str, last_seq: int | str | None = "last") -> list[TableOut]:
        """Back on a new connection, with the last event seen (or as given)."""
        p = self.person(pid)
        p.conn = next(_conn_ids)
        self.conn_seat[p.conn] = p.seat
        seq = p.last_seq if last_seq == "last" else last_seq
        return self.feed(Resume(pid, p.conn, seq), p.conn)  # type: ignore[arg-type]

    def act(self, pid: str, prompt_id: int, action: GameAction) -> list[TableOut]:
        p = self.person(pid)
        return self.feed(Reply(pid, p.conn if p.conn is not None else -1, prompt_id, action))

    def decide(self, seat: int, prompt_id: int, action: GameAction) -> list[TableOut]:
        return self.feed(Decide(seat, prompt_id, action))

    def tick(self, dt: float) -> list[TableOut]:
        self.now += dt
        return self.feed(Tick())

    def step_clock(self) -> bool:
        """Move the clock to the next deadline and tick (False: no clock runs)."""
        when = self.table.next_deadline()
        if when is None or self.closed:
            return False
        self.now = max(self.now, when)
        self.feed(Tick())
        return True

    def run_clock(self, limit: int = 10_000) -> None:
        """Move the clock from deadline to deadline until none is left."""
        for _ in range(limit):
            if not self.step_clock():
                return
        raise AssertionError("the clocks never stop")

    # ------------------------------------------------------------------ reading
    def frames(self, pid: str, kind: type | None = None, conn: int | None = None) -> list[Any]:
        c = conn if conn is not None else self.people[pid].conn
        fs = self.got.get(c, []) if c is not None else []
        return [f for f in fs if kind is None or isinstance(f, kind)]

    def open_prompts(self, conn: int) -> dict[int, Prompt]:
        """The prompts a connection was sent and not withdrawn or answered (by its ACK)."""
        out: dict[int, Prompt] = {}
        for f in self.got.get(conn, []):
            if isinstance(f, Prompt):
                if f.mask:
                    out[f.prompt_id] = f
                else:
                    out.pop(f.prompt_id, None)
            elif isinstance(f, Ack):
                out.pop(f.prompt_id, None)
        return out

    def random_answer(self, pid: str, rng: random.Random) -> bool:
        """Answer one of the person's pending prompts with a random legal option."""
        t = self.table
        me = self.people[pid].seat
        mine = [p for p in t.pending.values() if p.controller == me]
        if not mine:
            return False
        p = rng.choice(mine)
        o = rng.choice(p.actions.options)
        self.act(pid, p.id, GameAction(o.code, bytes(rng.sample(list(o.cards), o.pick))))
        return True

    def answer_robots(self, rng: random.Random) -> bool:
        t = self.table
        robots = [p for p in t.pending.values() if t.seats[p.controller].robot_played]
        if not robots:
            return False
        p = rng.choice(robots)
        o = rng.choice(p.actions.options)
        self.decide(p.seat, p.id, GameAction(o.code, bytes(rng.sample(list(o.cards), o.pick))))
        return True


# ------------------------------------------------------------------ the invariants
def check_streams(d: Driver, resumed_from: dict[int, int] | None = None) -> None:
    """Every connection's events are consecutive (a ROOM_STATE sets the position), each
    is exactly the table's event as the connection's seat sees it, no event follows
    MATCH_END, a RESULT follows only its HAND_END, and prompts go only to seats."""
    t = d.table
    by_seq = {e.seq: e for e in t.log}
    for conn, frames in d.got.items():
        seat = d.conn_seat.get(conn)
        cur = (resumed_from or {}).get(conn)
        ended = False
        last_event: Event | None = None
        for f in frames:
            if isinstance(f, Event):
                assert not ended, f"connection {conn}: an event after MATCH_END"
                if cur is not None:
                    assert f.seq == cur + 1, f"connection {conn}: event {f.seq} after {cur}"
                cur = f.seq
                last_event = f
                if f.code == RoomEvent.MATCH_END:
                    ended = True
                if f.seq in by_seq:
                    e = by_seq[f.seq].event.seen_by(seat)
                    assert (f.code, f.seat, f.cards, f.arg) == (e.code, e.seat, e.cards, e.arg), (
                        f"connection {conn} (seat {seat}) got {f}, the table's event is {e}"
                    )
            elif isinstance(f, RoomState):
                assert f.seat == seat, f"connection {conn}: the ROOM_STATE of seat {f.seat}, not {seat}"
                assert cur is None or f.seq >= cur
                cur = f.seq
            elif isinstance(f, Result):
                is_end = last_event is not None and last_event.code == RoomEvent.HAND_END
                assert is_end or cur is None, f"connection {conn}: a RESULT not after HAND_END"
            elif isinstance(f, Prompt):
                assert seat is not None, f"connection {conn}: a spectator got a PROMPT"
                # a seat's own prompts only (bridge: the declarer also decides for dummy)
                assert f.seat == seat or t.game_name == "bridge", f"seat {seat} got the prompt of seat {f.seat}"
            else:
                assert isinstance(f, (Ack, Error, ChatLine, RematchOffer)), f


def check_prompts(d: Driver) -> None:
    """While a hand is in play every seat to act has exactly one pending prompt, for its
    controller; prompt ids are unique."""
    t = d.table
    ids = [p.id for p in t.pending.values()]
    assert len(ids) == len(set(ids))
    if t.closed or t.phase is not Phase.PLAYING or t.game.is_over:
        return
    assert set(t.pending) == set(t.game.to_act())
    for s, p in t.pending.items():
        assert p.seat == s and p.controller == t.game.controller(s)
        assert p.actions == t.game.legal(s)


def seats_of(game: str) -> int:
    return games.create(game, 0).num_seats


def check_default_actions(frames: list[Any], seat: int = 0) -> int:
    """What a silent seat's client receives (over the wire or from the core): it was
    prompted, its clock ran out, each TIMEOUT names a prompt it was sent and the default
    action's echo follows it, and after repeated timeouts a robot plays the seat.
    Returns the number of timeouts."""
    ev = [f for f in frames if isinstance(f, Event)]
    # (a robot seat may time out too when the machine is loaded: only the silent seat's count here)
    timeouts = [e for e in ev if e.code == RoomEvent.TIMEOUT and e.seat == seat]
    prompts = [f for f in frames if isinstance(f, Prompt) and f.mask]
    assert prompts, "the seat was asked"
    assert timeouts
    # every TIMEOUT names a prompt this client was sent, and an echo of the default follows
    assert {e.arg for e in timeouts} <= {p.prompt_id for p in prompts}
    # the default action is applied: its echo follows the TIMEOUT, except for a pass in a
    # mahjong claim window, which is private (the window then resolves and play goes on)
    followers = [next(e for e in ev if e.seq > t.seq) for t in timeouts]
    assert all(
        f.seat == t.seat and f.code >= 0x20 for t, f in zip(timeouts, followers, strict=True) if f.seat == t.seat
    )
    assert any(f.seat == t.seat and f.code >= 0x20 for t, f in zip(timeouts, followers, strict=True))
    robot = [e for e in ev if e.code == RoomEvent.ROBOT and e.seat == seat]
    assert [e.arg for e in robot][:1] == [1], "after repeated timeouts a robot plays the seat"
    return len(timeouts)
