"""The room's core, sans-I/O: one match of one game at one table, driven by typed inputs.

A :class:`Table` holds the seats, the spectators, the pending prompts, the event sequence
number, the clocks (as deadlines on the caller's clock) and the match's :class:`Phase`.
:meth:`Table.handle` takes one input (:class:`Enter`, :class:`Exit`, :class:`Drop`,
:class:`Resume`, :class:`Reply`, :class:`Decide`, :class:`Tick`, :class:`Restored`,
:class:`Extra`) with the time ``now`` and returns what must happen outside: frames to send to
connections (:class:`Send`), requests for the robots (:class:`Publish`), entries for the room's
log (:class:`Append`, :class:`SealLog`), lobby bookkeeping (:class:`Bind`, :class:`Unbind`), a
deal to work on outside (:class:`Dealt`), a finished hand for replays (:class:`Archive`) and
the end of the room (:class:`Close`). It reads no clock and does no I/O: the asyncio shell
(paiju/server/room.py) feeds it and carries out its outputs, and the tests drive it directly. A
connection is whatever handle the caller passes (the shell's Connection, a test's int): the
table only compares it and hands it back.

The life of a table: in phase ``WAITING`` seats fill with humans (:class:`Enter`) and robots
(the seats named at creation, or all free seats when quick play's wait runs out); when no
seat is free the match starts (``PLAYING``): hand ``h`` is ``create(game, seed, rules,
hand=h)``, so the dealer rotates; after the last hand it is ``OVER``. The players at the
table and the spectators then go free at once, but a seated player whose connection is
down keeps the room: its events and the final RESULT wait for that player's resume (which
gets exactly the missed events, MATCH_END included, and no event is ever added after
MATCH_END) until its grace period runs out; then the table closes. It also closes when no
human holds a seat and nobody watches. A spectator whose connection drops keeps its place for
the grace period like a seat (and resumes like one); a table whose match has not started
within ``waiting_expiry`` closes, telling those in it (ERROR ROOM_EXPIRED).

Events carry one sequence number per table over the whole match. Each connected seat
receives every event as ``GameEvent.seen_by(seat)`` and spectators ``seen_by(None)``; the last
``replay_buffer`` events are kept so that a player who resumes gets exactly those it
missed (else a ROOM_STATE). The RESULT of a hand follows its HAND_END event.

Prompts: every seat in ``game.to_act()`` has one pending prompt (several at once in a
mahjong claim window), with its own id and deadline. The prompt goes to the seat's
controller (``game.controller(seat)``: bridge's declarer for the dummy); when that seat is
played by a robot, a DecisionRequest (:func:`games.decision_request`) is published instead
(and the PROMPT too, when a human owner is still connected). A prompt whose seat leaves
``to_act()``, or whose legal set changes, is withdrawn with a PROMPT of mask 0 and no
options. When a deadline passes the table emits TIMEOUT and applies
``game.default_action(seat)``; after ``takeover_after`` consecutive timeouts of a human a
robot plays the seat until its owner acts again.

A refusal (:class:`protocol.PaijuError`: a lobby or a game error) comes out last, as
:class:`Refused`, for the caller to answer to whoever sent the input; what the input changed
before the refusal (a robot handing the seat back) stands and its outputs come before it.

>>> t = Table("r1", "tricks", None, seed=1, hands=1, clock_ms=1000, bots=[1], robot="random")
>>> out = t.handle(Enter("p1", "ann", conn=7), now=0.0)
>>> t.phase.value, [type(o).__name__ for o in out][:4]
('playing', ['Bind', 'Send', 'Dealt', 'Send'])
"""

from __future__ import annotations

import itertools
import logging
from collections import OrderedDict, deque
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from paiju import games
from paiju.core import errors, roomlog
from paiju.core.config import Limits
from paiju.core.lifecycle import Phase
from paiju.core.roomlog import Emitted, Entry, Head, Replayed, SeatRecord, Seats, Watchers
from paiju.core.social import Chat, Line, Rematch, RematchState
from paiju.games import ActionSet, GameAction, GameError, GameEvent, Rules
from paiju.protocol import (
    Ack,
    ChatLine,
    DecisionRequest,
    Error,
    ErrorCode,
    Event,
    Frame,
    LobbyError,
    PaijuError,
    Prompt,
    RematchOffer,
    Result,
    RoomEvent,
    RoomInfo,
    RoomState,
    SeatKind,
)

log = logging.getLogger("paiju.room")

ROBOT_SUFFIX = " (robot)"  # a robot seat's name in ROOM_STATE: "NAME (robot)"; no person's name ends so


class Observer(Protocol):
    """What a table tells whoever counts (paiju/server/metrics.py's, passed in by the shell)."""

    def applied(self, game: str) -> None:
        """An action was applied to the game (a player's, a robot's or the clock's)."""

    def requested(self, game: str) -> None:
        """A robot was asked for a decision."""

    def robot_latency(self, game: str, seconds: float) -> None:
        """A robot's decision came this long after its prompt."""

    def clock_default(self, game: str, robot: bool) -> None:
        """A prompt's clock ran out (``robot``: a robot held the seat)."""


class Unobserved:
    """The observer that counts nothing (a table made without one)."""

    def applied(self, game: str) -> None:
        pass

    def requested(self, game: str) -> None:
        pass

    def robot_latency(self, game: str, seconds: float) -> None:
        pass

    def clock_default(self, game: str, robot: bool) -> None:
        pass


UNOBSERVED: Observer = Unobserved()  # typed: mypyc builds lobby.py, which reads it, with this module

Conn = Hashable
"""A connection as the caller knows it: the table only compares it and hands it back."""
ANSWERED_KEPT = 256  # answered (and withdrawn) prompts remembered: a retried or crossed ACTION is told so


# ------------------------------------------------------------------ inputs
@dataclass(frozen=True)
class Enter:
    """Player ``player`` takes ``seat`` ("any": the first free seat, else watch; None: watch)."""

    player: str
    name: str
    conn: Conn
    seat: int | Literal["any"] | None = "any"
    quick: bool = False  # quick play: a room with no free seat is ROOM_FULL, not a seat to watch from
    rematch: bool = False  # the connection answers rematch offers (HELLO's Feature.REMATCH)


@dataclass(frozen=True)
class Exit:
    """The player leaves (a seat in play is then played by a robot)."""

    player: str
    conn: Conn


@dataclass(frozen=True)
class Drop:
    """The connection ``conn`` of the player closed (it may resume within the grace period)."""

    player: str
    conn: Conn


@dataclass(frozen=True)
class Resume:
    """The player is back on connection ``conn``, having seen the events up to ``last_seq``."""

    player: str
    conn: Conn
    last_seq: int | None = None
    rematch: bool = False  # the connection answers rematch offers (HELLO's Feature.REMATCH)


@dataclass(frozen=True)
class Reply:
    """A seated player's answer to prompt ``prompt_id``."""

    player: str
    conn: Conn
    prompt_id: int
    action: GameAction


@dataclass(frozen=True)
class Decide:
    """A robot's answer for ``seat`` to prompt ``prompt_id`` (from the bus)."""

    seat: int
    prompt_id: int
    action: GameAction


@dataclass(frozen=True)
class Tick:
    """Time has passed: run the clocks whose deadline is reached."""


@dataclass(frozen=True)
class Restored:
    """First input of a table rebuilt from its log (:meth:`Table.restore`)."""


@dataclass(frozen=True)
class Extra:
    """What was computed outside the table from hand ``hand``'s deal (:class:`Dealt`), for
    its RESULT's detail (bridge's par, the trick game's solved value): merged when it comes
    before the hand ends, else ignored here (the shell gives it to the records)."""

    hand: int
    detail: dict[str, Any]


@dataclass(frozen=True)
class SayLine:
    """The player says ``text`` in the room's chat (paiju/core/social.py)."""

    player: str
    conn: Conn
    text: str


@dataclass(frozen=True)
class MuteName:
    """The player stops (``on``) or starts again hearing the chat lines of ``name``."""

    player: str
    conn: Conn
    name: str
    on: bool = True


@dataclass(frozen=True)
class AnswerRematch:
    """A human's answer to the rematch offered after the match."""

    player: str
    conn: Conn
    accept: bool


@dataclass(frozen=True)
class SwapSeat:
    """The room's creator gives the free ``seat`` to a robot (``robot``), or frees a robot's."""

    player: str
    conn: Conn
    seat: int
    robot: bool


Input = (
    Enter
    | Exit
    | Drop
    | Resume
    | Reply
    | Decide
    | Tick
    | Restored
    | Extra
    | SayLine
    | MuteName
    | AnswerRematch
    | SwapSeat
)


# ------------------------------------------------------------------ outputs
# Not frozen, with slots: a busy room makes several of these a move, and a frozen
# dataclass's __init__ (object.__setattr__ per field) costs four times as much. Read only.
@dataclass(slots=True)
class Send:
    conn: Conn
    frame: Frame


@dataclass(slots=True)
class Publish:
    """A robot plays the seat: this request goes on the bus."""

    request: DecisionRequest


@dataclass(slots=True)
class Append:
    """An entry for the room's log (only from a table made with ``logged=True``)."""

    entry: Entry


@dataclass(frozen=True)
class SealLog:
    """The match is over: the log is complete and the room is not one to rebuild."""


@dataclass(frozen=True)
class Bind:
    """The player is now in this room, at ``seat`` (None: watching)."""

    player: str
    name: str
    seat: int | None


@dataclass(frozen=True)
class Unbind:
    """The player is no longer in this room (free to join another)."""

    player: str


@dataclass(frozen=True)
class Close:
    """The table is done: nothing more will come out of it."""


@dataclass(frozen=True)
class Refused:
    """The input (of a connection) was refused: answer ``error`` to its sender."""

    error: PaijuError


@dataclass(frozen=True)
class Archive:
    """A hand is over: its events with every card face up and its RESULT, for replays (served
    only now that the hand is over, when every seat's cards are open to all)."""

    hand: int
    seats: list[str | None]  # the seats' names when it was dealt
    totals: list[int]  # the match's scores before it
    events: list[Event]
    result: Result


@dataclass(frozen=True)
class Dealt:
    """Hand ``hand`` is dealt (``game``, read only): what is slow to work out from the deal
    may start now, outside the table, and come back as :class:`Extra`."""

    hand: int
    game: games.Game[Any]


@dataclass(frozen=True)
class Rematched:
    """Every human still at the table accepted the rematch: the caller opens the new match with
    them (``humans``: seat -> (player, name, connection)); the seats of those who left
    (``left``) go to robots."""

    humans: dict[int, tuple[str, str, Conn]]
    left: frozenset[int]


Output = Send | Publish | Append | SealLog | Bind | Unbind | Close | Refused | Archive | Dealt | Rematched


# ------------------------------------------------------------------ state
@dataclass(eq=False)
class SeatState:
    kind: SeatKind = SeatKind.EMPTY
    player: str | None = None  # who holds (or held, after the match) the seat
    name: str | None = None
    member: bool = False  # the player is still in this room (false once let go after the end)
    conn: Conn | None = None  # the player's connection, while it is up
    stand_in: bool = False  # a robot stands in for this human seat for now (timeouts, or dropped)
    rematch: bool = False  # its connection answers rematch offers
    timeouts: int = 0  # consecutive
    bank: float = 0.0  # seconds of time bank left to this seat in this hand
    away_until: float | None = None

    @property
    def robot_played(self) -> bool:
        return self.kind == SeatKind.BOT or self.stand_in

    @property
    def live(self) -> Conn | None:
        """The connection that receives this seat's frames now."""
        return self.conn if self.kind == SeatKind.HUMAN else None


@dataclass(eq=False)
class Pending:
    id: int
    seat: int
    controller: int
    actions: ActionSet
    deadline: float  # on the caller's clock
    unix_deadline_ms: int
    start: float = 0.0  # when it was asked
    bank: float = 0.0  # the part of the time to the deadline that is the seat's bank
    ready: tuple[GameAction, float] | None = None  # a robot's answer and when it is played (pacing)

    # written out (dataclass keeps it): compiled, where dataclass's own runs as Python and
    # costs a microsecond (a prompt a move)
    def __init__(
        self,
        id: int,
        seat: int,
        controller: int,
        actions: ActionSet,
        deadline: float,
        unix_deadline_ms: int,
        start: float = 0.0,
        bank: float = 0.0,
        ready: tuple[GameAction, float] | None = None,
    ) -> None:
        self.id = id
        self.seat = seat
        self.controller = controller
        self.actions = actions
        self.deadline = deadline
        self.unix_deadline_ms = unix_deadline_ms
        self.start = start
        self.bank = bank
        self.ready = ready


class Table:
    """One room's match, sans-I/O (see the module's docstring).

    ``epoch`` turns the caller's clock into unix time (``epoch + now``: a robot's deadline);
    ``reply_to`` names this server process on the bus; ``logged`` makes the table produce
    its log entries (the caller appends :meth:`head` first).
    """

    def __init__(
        self,
        room_id: str,
        game: str,
        rules: str | Rules | None,
        *,
        seed: int,
        hands: int,
        clock_ms: int,
        robot: str,  # the keyword-only arguments without a default first: mypyc's signatures want it
        bank_ms: int = 0,
        bots: list[int] | tuple[int, ...] = (),
        robots: list[str | None] | tuple[str | None, ...] = (),
        private: bool = False,
        quickplay: bool = False,
        limits: Limits | None = None,
        now: float = 0.0,
        epoch: float = 0.0,
        reply_to: str = "",
        created: float = 0.0,
        logged: bool = False,
        observer: Observer = UNOBSERVED,
    ) -> None:
        self.id = room_id
        self.observer = observer
        self.game_name = game
        self.seed = seed
        self.game = games.create(game, seed, rules, hand=0)
        self.rules: Rules = self.game.rules  # the whole value (a bridge room's PBN deals), not only its name
        self.ruleset = self.rules.name
        self.n = self.game.num_seats
        self.hands = hands
        self.clock_ms = clock_ms
        self.bank_ms = bank_ms
        self.default_robot = robot  # the robot of the robot seats
        self.seat_robots = tuple(robots)  # by seat: a robot seat's own robot (None or missing: the default)
        self.private = private
        self.quickplay = quickplay
        self.limits = limits if limits is not None else Limits()
        self.epoch = epoch
        self.reply_to = reply_to
        self.created = created
        self.logged = logged
        self.seats = [SeatState() for _ in range(self.n)]
        for b in bots:
            self.seats[b].kind = SeatKind.BOT
        self.spectators: dict[str, Conn] = {}  # the watchers connected now
        self.watchers: dict[str, str] = {}  # every watcher (connected or away) and its name
        self.watchers_away: dict[str, float] = {}  # a dropped watcher, until its grace runs out
        self.phase = Phase.WAITING
        self.hand = 0
        self.totals = [0] * self.n
        self.seq = 0
        self.log: deque[Emitted] = deque(maxlen=self.limits.replay_buffer)
        self.pending: dict[int, Pending] = {}
        self.answered: OrderedDict[int, tuple[int, GameAction]] = OrderedDict()
        self.withdrawn: OrderedDict[int, int] = OrderedDict()  # prompt id -> its controller
        self._prompt_ids = itertools.count(1)
        self.start_at: float | None = now + self.limits.quickplay_wait if quickplay else None
        self.expires_at: float | None = now + self.limits.waiting_expiry  # while its match has not started
        self.next_hand_at: float | None = None
        self.closed = False
        self.final_result: Result | None = None
        self._hand_frames: list[Event] | None = None  # the hand in play, every card face up
        self._hand_head: tuple[list[str | None], list[int]] = ([], [])
        self.now = now
        self._out: list[Output] = []
        self.extras: dict[int, dict[str, Any]] = {}  # by hand: Extra's detail, until the hand ends
        self.creator: str | None = None  # the first player seated: it may swap seats before the start
        self.chat = Chat()  # not in the log: a rebuilt room starts with an empty chat
        self.rematch: Rematch | None = None  # offered when the match ends
        self._rematch_conns: dict[str, Conn] = {}  # the humans offered a rematch, by player
        self._rematch_names: dict[str, str] = {}

    @classmethod
    def restore(
        cls,
        r: Replayed,
        *,
        limits: Limits | None = None,
        now: float = 0.0,
        epoch: float = 0.0,
        reply_to: str = "",
        observer: Observer = UNOBSERVED,
    ) -> Table:
        """The table that log ``r`` describes, at the same event sequence number; its first
        input must be :class:`Restored` (which binds its players again and prompts)."""
        h = r.head
        t = cls(
            r.room_id,
            h.game,
            r.rules,
            seed=h.seed,
            hands=h.hands,
            clock_ms=h.clock_ms,
            bank_ms=h.bank_ms,
            robot=h.robot,
            robots=h.robots,
            private=h.private,
            quickplay=h.quickplay,
            limits=limits,
            now=now,
            epoch=epoch,
            reply_to=reply_to,
            created=h.created,
            logged=True,
            observer=observer,
        )
        t.start_at = t.expires_at = None
        t.game = r.game
        t.phase = r.phase
        t.hand = r.hand
        t.seq = r.seq
        t.totals = list(r.totals)
        t.log.extend(r.events)
        t._prompt_ids = itertools.count(r.prompt_id + 1)
        for st, rec in zip(t.seats, r.seats, strict=False):
            st.kind, st.stand_in = SeatKind(rec.kind), rec.stand_in
            if rec.player is not None and st.kind in (SeatKind.HUMAN, SeatKind.AWAY):
                st.player, st.name, st.member = rec.player, rec.name or "player", True
        for s, st in enumerate(t.seats):  # what each seat had left of its bank when the log ended
            st.bank = r.banks.get(s, h.bank_ms) / 1000
        t.watchers = dict(r.watchers)
        return t

    def head(self) -> Head:
        """The first entry of this table's log."""
        return Head(
            self.game_name,
            self.ruleset,
            self.seed,
            self.hands,
            self.clock_ms,
            self.default_robot,
            self.private,
            self.quickplay,
            self.created,
            roomlog.rules_options(self.game_name, self.rules),
            self.seat_robots,
            self.bank_ms,
        )

    # ------------------------------------------------------------------ queries
    def info(self) -> RoomInfo:
        return RoomInfo(
            self.id,
            self.game_name,
            self.ruleset,
            self.seat_names(),
            [i for i, s in enumerate(self.seats) if s.kind == SeatKind.BOT],
            len(self.spectators),
            self.hands,
            self.hand,
            self.phase.value,
        )

    def free_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.kind == SeatKind.EMPTY]

    def seat_names(self) -> list[str | None]:
        out: list[str | None] = []
        for s in self.seats:
            if s.kind == SeatKind.BOT:
                out.append(f"{self.robot_of(len(out))}{ROBOT_SUFFIX}")
            else:
                out.append(s.name if s.player is not None else None)
        return out

    def robot_of(self, seat: int) -> str:
        """The robot that plays ``seat`` when a robot does."""
        own = self.seat_robots[seat] if seat < len(self.seat_robots) else None
        return own or self.default_robot

    def next_deadline(self) -> float | None:
        """When the next :class:`Tick` is due (None: no clock runs)."""
        times = [p.deadline for p in self.pending.values()]
        times += [p.ready[1] for p in self.pending.values() if p.ready is not None]
        times += [s.away_until for s in self.seats if s.away_until is not None]
        times += self.watchers_away.values()
        if self.rematch is not None and self.rematch.state is RematchState.OFFER:
            times.append(self.rematch.deadline)
        for t in (self.start_at, self.next_hand_at, self.expires_at):
            if t is not None:
                times.append(t)
        return min(times) if times else None

    def seat_of(self, player: str) -> int | None:
        """The seat ``player`` holds in this room, or None."""
        for i, s in enumerate(self.seats):
            if s.member and s.player == player:
                return i
        return None

    # ------------------------------------------------------------------ the one way in
    def handle(self, msg: Input, now: float) -> list[Output]:
        """Apply one input at time ``now``; what must happen outside, in order."""
        self.now = now
        out: list[Output] = []
        self._out = out
        if self.closed:
            return out
        refusal: PaijuError | None = None
        try:
            _HANDLERS[type(msg)](self, msg)
        except Exception as e:  # a refusal, or a bug (which must not take the room down): the asker hears of it
            refusal = errors.refusal(e, f"room {self.id} on {type(msg).__name__}")
        if self.closed:
            out.append(Close())
        if refusal is not None:
            self._refuse(msg, refusal)
        return out

    def _refuse(self, msg: Input, e: PaijuError) -> None:
        if hasattr(msg, "conn"):
            self._out.append(Refused(e))
        elif isinstance(msg, Decide):
            log.warning("room %s: robot's decision for prompt %d refused: %s", self.id, msg.prompt_id, e)

    # ------------------------------------------------------------------ seats and people
    def _enter(self, m: Enter) -> None:
        if self.seat_of(m.player) is not None or m.player in self.watchers:
            raise LobbyError(ErrorCode.ALREADY_IN_ROOM, f"already in room {self.id}")
        if self.phase is Phase.OVER:
            raise LobbyError(ErrorCode.NO_SUCH_ROOM, f"room {self.id} is over")
        seat = m.seat
        if seat == "any":
            free = self.free_seats()
            if not free and m.quick:
                raise LobbyError(ErrorCode.ROOM_FULL, f"room {self.id} filled up; try again")
            seat = free[0] if free else None
        if seat is None:
            self.spectators[m.player] = m.conn
            self.watchers[m.player] = m.name
            self._log_watchers()
            self._out.append(Bind(m.player, m.name, None))
            self._send(m.conn, self._state(None))
            self._chat_history(m.conn, m.player, spectator=True)
        else:
            if not 0 <= seat < self.n:
                raise LobbyError(ErrorCode.BAD_ROOM_OPTIONS, f"{self.game_name} has seats 0..{self.n - 1}")
            st = self.seats[seat]
            if st.kind != SeatKind.EMPTY:
                raise LobbyError(ErrorCode.SEAT_TAKEN, f"seat {seat} is taken")
            st.kind, st.player, st.name, st.member, st.conn = SeatKind.HUMAN, m.player, m.name, True, None
            st.stand_in, st.timeouts, st.rematch = False, 0, m.rematch
            if self.creator is None:
                self.creator = m.player
            self._out.append(Bind(m.player, m.name, seat))
            self._seat_event(seat, SeatKind.HUMAN)  # to the others: the state includes it
            st.conn = m.conn
            self._send(m.conn, self._state(seat))
            self._chat_history(m.conn, m.player, spectator=False)
        if self.phase is Phase.WAITING and not self.free_seats():
            self._start()  # the last seat filled (robots only: with the first watcher)

    def _exit(self, m: Exit) -> None:
        if m.player in self._rematch_conns and self.seat_of(m.player) is None:
            self._rematch_leave(m.player)  # leaving the table after the match: no rematch for it
            self._close_if_done()
            return
        seat = self.seat_of(m.player)
        if seat is None and m.player not in self.watchers:
            raise LobbyError(ErrorCode.NOT_IN_ROOM, f"not in room {self.id}")
        if seat is None:
            self._unwatch(m.player)
        elif self.phase is Phase.OVER:
            self._let_go(self.seats[seat])  # nothing is emitted after MATCH_END
            self._close_if_done()
        else:
            self._release_seat(seat, to=SeatKind.EMPTY if self.phase is Phase.WAITING else SeatKind.BOT)
        self._maybe_close()

    def _unwatch(self, player: str) -> None:
        self.spectators.pop(player, None)
        self.watchers_away.pop(player, None)
        del self.watchers[player]
        self._log_watchers()
        self._out.append(Unbind(player))

    def _log_watchers(self) -> None:
        if self.logged:
            self._out.append(Append(Watchers(tuple(self.watchers.items()))))

    def _release_seat(self, i: int, to: SeatKind) -> None:
        st = self.seats[i]
        if st.player is not None and st.member:
            self._out.append(Unbind(st.player))
        st.player, st.name, st.member, st.conn = None, None, False, None
        st.stand_in, st.timeouts, st.away_until = False, 0, None
        st.kind = to
        self._seat_event(i, to)
        if to == SeatKind.BOT:
            self._redispatch(i)

    def _drop(self, m: Drop) -> None:
        if self._rematch_conns.get(m.player) == m.conn:
            self._rematch_leave(m.player)
        seat = self.seat_of(m.player)
        if seat is None:
            if self.spectators.get(m.player) == m.conn:
                # like a seat, a watcher keeps its place for the grace period, to resume
                del self.spectators[m.player]
                self.watchers_away[m.player] = self.now + self.limits.grace
            return
        st = self.seats[seat]
        if st.conn != m.conn or self.phase is Phase.OVER:
            return  # a newer connection took over, or the ended match already waits for a resume
        st.conn = None
        if self.phase is Phase.WAITING:
            self._release_seat(seat, to=SeatKind.EMPTY)
        else:
            st.kind, st.away_until = SeatKind.AWAY, self.now + self.limits.grace
            self._seat_event(seat, SeatKind.AWAY)
            if self.limits.robot_on_drop and not st.stand_in:
                self._set_robot(seat, True)
        self._maybe_close()

    def _resume(self, m: Resume) -> None:
        seat = self.seat_of(m.player)
        if seat is None and m.player not in self.watchers:
            return
        if self.phase is Phase.OVER:
            # the match ended while this player was away: what it missed, then it goes free
            self._send_since(m.conn, seat, m.last_seq)
            if seat is not None:
                self._let_go(self.seats[seat])
            else:
                self._unwatch(m.player)
            self._close_if_done()
            return
        if seat is None:
            self.watchers_away.pop(m.player, None)
            self.spectators[m.player] = m.conn
            self._send_since(m.conn, None, m.last_seq)
            self._chat_history(m.conn, m.player, spectator=True)
            return
        st = self.seats[seat]
        st.conn, st.rematch = m.conn, m.rematch
        self._send_since(m.conn, seat, m.last_seq)
        self._chat_history(m.conn, m.player, spectator=False)
        st.kind, st.away_until, st.timeouts = SeatKind.HUMAN, None, 0
        self._seat_event(seat, SeatKind.HUMAN)
        self._grant_bank(seat)
        if st.stand_in:
            self._set_robot(seat, False)
        else:
            self._redispatch(seat)

    def _grant_bank(self, i: int) -> None:
        """Seat ``i``'s owner is back: a prompt it was given while away (so without its time
        bank, as after a restart) has the bank the seat has left added to its time."""
        st = self.seats[i]
        for p in self.pending.values():
            if p.controller == i and p.bank == 0 and st.bank > 0:
                p.bank = st.bank
                p.deadline += st.bank
                p.unix_deadline_ms += int(st.bank * 1000)

    def missed(self, player: str, conn: Conn, last_seq: int | None) -> list[Output]:
        """The frames an ended match sent ``player`` after ``last_seq`` (as the seat it held
        sees them, or a spectator), for a resume after the table let it go; nothing when
        ``last_seq`` is None or past the end. The table does not change."""
        if self.phase is not Phase.OVER or last_seq is None or last_seq >= self.seq:
            return []
        seat = next((i for i, s in enumerate(self.seats) if s.player == player), None)
        self._out = []
        self._send_since(conn, seat, last_seq)
        out, self._out = self._out, []
        return out

    def _send_since(self, conn: Conn, seat: int | None, last_seq: int | None) -> None:
        """The events after ``last_seq`` as ``seat`` sees them, or a ROOM_STATE."""
        first = self.log[0].seq if self.log else self.seq + 1
        if last_seq is None or last_seq > self.seq or last_seq + 1 < first:
            self._send(conn, self._state(seat))
            if self.phase is Phase.OVER and self.final_result is not None:
                self._send(conn, self.final_result)  # the snapshot of an ended match: how it ended
            return
        for e in self.log:
            if e.seq > last_seq:
                self._send(conn, self._event_frame(e.seq, e.event, seat))
                if e.result is not None:
                    self._send(conn, e.result)

    def _set_robot(self, i: int, on: bool) -> None:
        st = self.seats[i]
        if st.stand_in == on:
            return
        st.stand_in = on
        st.timeouts = 0
        if not on:  # the owner is back: a robot's answer held for pacing is not played
            for p in self.pending.values():
                if p.controller == i:
                    p.ready = None
        self._emit(GameEvent(RoomEvent.ROBOT, i, arg=int(on)))
        self._redispatch(i)

    # ------------------------------------------------------------------ chat and rematch
    def _say(self, m: SayLine) -> None:
        """A line of chat: a seated player's to the table, a watcher's to the watchers."""
        seat = self.seat_of(m.player)
        if seat is None and m.player in self._rematch_conns and self.rematch is not None:
            seat = self.rematch.seat_of(m.player)  # a player of the ended match, offered a rematch
        if seat is not None:
            name = self.seats[seat].name or "player"
        elif m.player in self.watchers:
            name = self.watchers[m.player]
        else:
            raise LobbyError(ErrorCode.NOT_IN_ROOM, f"not in room {self.id}")
        line = self.chat.say(m.player, name, seat, m.text, self.now)
        frame = self._chat_frame(line)
        for st in self.seats:
            conn = st.live
            if conn is not None and st.player is not None and self.chat.hears(line, st.player, spectator=False):
                self._send(conn, frame)
        for player, conn in self.spectators.items():
            if self.chat.hears(line, player, spectator=True):
                self._send(conn, frame)
        # after the match the humans offered a rematch still talk (they are no longer seated)
        for player, conn in self._rematch_conns.items():
            if self.seat_of(player) is None and self.chat.hears(line, player, spectator=False):
                self._send(conn, frame)

    def _mute(self, m: MuteName) -> None:
        if self.seat_of(m.player) is None and m.player not in self.watchers and m.player not in self._rematch_conns:
            raise LobbyError(ErrorCode.NOT_IN_ROOM, f"not in room {self.id}")
        self.chat.mute(m.player, m.name, m.on)

    def _chat_frame(self, line: Line) -> ChatLine:
        return ChatLine(self.id, line.id, int(line.channel), line.seat, line.name, line.text)

    def _chat_history(self, conn: Conn, player: str, *, spectator: bool) -> None:
        """The room's last chat lines, to one who joins or resumes (a known id is a duplicate)."""
        for line in self.chat.lines:
            if self.chat.hears(line, player, spectator=spectator):
                self._send(conn, self._chat_frame(line))

    def _offer_rematch(self, humans: dict[int, tuple[str, Conn]]) -> None:
        """The match is over: each human still connected is offered a rematch."""
        if self.limits.rematch_wait <= 0 or not humans:
            return
        self.rematch = Rematch({s: p for s, (p, _) in humans.items()}, self.now + self.limits.rematch_wait)
        self._rematch_conns = {p: conn for p, conn in humans.values()}
        self._rematch_names = {p: self.seats[s].name or "player" for s, (p, _) in humans.items()}
        self._tell_rematch()

    def _tell_rematch(self) -> None:
        r = self.rematch
        if r is None:
            return
        left = max(0, round((r.deadline - self.now) * 1000)) if r.state is RematchState.OFFER else 0
        if r.state is not RematchState.ACCEPTED:  # (an acceptance is told by the caller, with the new room)
            frame = RematchOffer(self.id, int(r.state), left, sorted(r.accepted), None, sorted(r.left))
            for conn in self._rematch_conns.values():
                self._send(conn, frame)
        if r.state is not RematchState.OFFER:
            self._end_rematch()

    def _end_rematch(self) -> None:
        """The offer is settled: accepted (the caller opens the new match), or not."""
        r = self.rematch
        assert r is not None
        if r.state is RematchState.ACCEPTED:
            humans = {s: (p, self._rematch_names[p], self._rematch_conns[p]) for s, p in r.humans.items()}
            self._out.append(Rematched(humans, frozenset(r.left)))
        self._rematch_conns = {}
        self._close_if_done()

    def _answer_rematch(self, m: AnswerRematch) -> None:
        if self.rematch is None:
            raise LobbyError(ErrorCode.WRONG_STATE, f"no rematch is offered in room {self.id}")
        self.rematch.answer(m.player, m.accept)
        self._tell_rematch()

    def _rematch_leave(self, player: str) -> None:
        """A human left or dropped while the rematch was offered: a robot takes its seat."""
        r = self.rematch
        if r is None or r.state is not RematchState.OFFER or r.seat_of(player) is None:
            return
        r.leave(player)
        self._rematch_conns.pop(player, None)
        self._tell_rematch()

    def _swap_seat(self, m: SwapSeat) -> None:
        """Before the start the creator chooses who fills a seat: a robot, or a player to come."""
        if m.player != self.creator or self.phase is not Phase.WAITING:
            raise LobbyError(ErrorCode.WRONG_STATE, "only the room's creator swaps seats, before the match starts")
        if not 0 <= m.seat < self.n:
            raise LobbyError(ErrorCode.BAD_ROOM_OPTIONS, f"{self.game_name} has seats 0..{self.n - 1}")
        st = self.seats[m.seat]
        if st.kind == SeatKind.HUMAN:
            raise LobbyError(ErrorCode.SEAT_TAKEN, f"seat {m.seat} is a player's")
        want = SeatKind.BOT if m.robot else SeatKind.EMPTY
        if st.kind == want:
            return
        st.kind = want
        self._seat_event(m.seat, want)
        if not self.free_seats():
            self._start()  # the last free seat went to a robot

    def _restored(self, m: Restored) -> None:
        """Nobody is connected yet to a table rebuilt from its log, so the seated players are
        AWAY for the grace period (a robot plays for them unless ``robot_on_drop`` is off);
        then the match carries on where the log stops."""
        for i, st in enumerate(self.seats):
            if st.player is not None and st.member:
                self._out.append(Bind(st.player, st.name or "player", i))
                st.away_until = self.now + self.limits.grace
                if st.kind != SeatKind.AWAY:
                    st.kind = SeatKind.AWAY
                    self._seat_event(i, SeatKind.AWAY)
                if self.limits.robot_on_drop and not st.stand_in:
                    self._set_robot(i, True)
        for player, name in self.watchers.items():  # a watched robot match too
            self._out.append(Bind(player, name, None))
            self.watchers_away[player] = self.now + self.limits.grace
        self._maybe_close()  # nobody seated or watching: nobody is left to play for
        if self.closed or self.phase is not Phase.PLAYING:
            return
        if self.game.is_over:
            if self.hand < self.hands:  # between two hands
                self.next_hand_at = self.now + max(self.limits.hand_pause, 0.0)
        else:
            self._out.append(Dealt(self.hand, self.game))  # its slow records start again
            self._sync_prompts()

    def _extra(self, m: Extra) -> None:
        if m.hand == self.hand and self.phase is Phase.PLAYING and not self.game.is_over:
            self.extras[m.hand] = {**self.extras.get(m.hand, {}), **m.detail}

    # ------------------------------------------------------------------ actions
    def _reply(self, m: Reply) -> None:
        me = self.seat_of(m.player)
        if me is None:
            raise LobbyError(ErrorCode.NOT_IN_ROOM, "only a seated player acts")
        st = self.seats[me]
        if st.stand_in:  # the owner is back at the controls
            self._set_robot(me, False)
        st.timeouts = 0
        p = next((q for q in self.pending.values() if q.id == m.prompt_id), None)
        if p is not None and p.controller == me:
            over = self.now - p.start - self.clock_ms / 1000
            bank = st.bank
            if p.bank > 0 and over > 0:  # the move ran over its own time: the rest came from the bank
                st.bank = max(0.0, st.bank - over)
            try:
                self._apply(p, m.action, m.conn)
            except GameError:
                st.bank = bank  # refused: nothing is spent
                raise
            return
        done = self.answered.get(m.prompt_id)
        if done is not None and done[0] == me:
            if done[1] == m.action:
                self._send(m.conn, Ack(m.prompt_id))  # a retry: acknowledged, not applied twice
                return
            raise GameError(ErrorCode.NO_SUCH_PROMPT, f"prompt {m.prompt_id} was already answered")
        if self.withdrawn.get(m.prompt_id) == me:  # the answer crossed the withdrawal on the wire
            raise GameError(ErrorCode.NO_SUCH_PROMPT, f"prompt {m.prompt_id} was withdrawn first")
        if self.phase is not Phase.PLAYING:
            code = ErrorCode.GAME_OVER if self.phase is Phase.OVER else ErrorCode.NOT_YOUR_TURN
            raise GameError(code, f"the room is {self.phase.value}")
        if not any(q.controller == me for q in self.pending.values()):
            raise GameError(ErrorCode.NOT_YOUR_TURN, "you have no decision pending")
        raise GameError(ErrorCode.NO_SUCH_PROMPT, f"prompt {m.prompt_id} is not yours now")

    def _decide(self, m: Decide) -> None:
        p = self.pending.get(m.seat)
        if p is None or p.id != m.prompt_id or not self.seats[p.controller].robot_played or p.ready is not None:
            return  # late, or the seat's owner took it back, or answered already
        self.observer.robot_latency(self.game_name, self.now - p.start)
        at = p.start + self._robot_wait(p)
        if at > self.now:  # paced: played by a Tick at ``at``
            p.ready = (m.action, at)
            return
        self._apply(p, m.action)

    def _robot_wait(self, p: Pending) -> float:
        """How long after its prompt a robot's answer is played.

        A human seat that a robot plays after its time bank ran out: the owner, if still
        connected, has the move's time to answer and so take the seat back. Otherwise, in a
        room that people play in or watch, the robot pace (so that they can follow); a room
        of robots alone plays at full speed."""
        st = self.seats[p.controller]
        if st.kind == SeatKind.HUMAN and st.stand_in and st.conn is not None and self.bank_ms > 0:
            return self.clock_ms / 1000
        watched = self.spectators or any(s.kind in (SeatKind.HUMAN, SeatKind.AWAY) for s in self.seats)
        return self.limits.robot_pace if watched else 0.0

    def _apply(self, p: Pending, action: GameAction, conn: Conn | None = None) -> None:
        """Apply ``action`` for prompt ``p`` (GameError: nothing changed), then carry on."""
        events = self.game.apply(p.seat, action)
        self.observer.applied(self.game_name)
        if self.logged:
            self._out.append(Append(roomlog.Applied(p.seat, action.code, bytes(action.cards), p.id)))
            if p.bank > 0:  # the prompt could draw on the bank: what is left goes in the log too
                self._out.append(Append(roomlog.Bank(p.controller, int(self.seats[p.controller].bank * 1000))))
        self.answered[p.id] = (p.controller, action)
        while len(self.answered) > ANSWERED_KEPT:
            self.answered.popitem(last=False)
        del self.pending[p.seat]
        if conn is not None:
            self._send(conn, Ack(p.id))
        for ev in events:
            self._emit(ev)
        if self.game.is_over:
            self._end_hand()
        else:
            self._sync_prompts()

    # ------------------------------------------------------------------ the clocks
    def _tick(self, m: Tick) -> None:
        now = self.now
        for player, until in list(self.watchers_away.items()):
            if now >= until:
                self._unwatch(player)
        if self.phase is Phase.OVER:  # only dropped players' grace periods are left to run out
            r = self.rematch
            if r is not None and r.state is RematchState.OFFER and r.tick(now) is not RematchState.OFFER:
                self._tell_rematch()
            for st in self.seats:
                if st.away_until is not None and now >= st.away_until:
                    self._let_go(st)
            self._close_if_done()
            return
        if self.expires_at is not None and now >= self.expires_at and self.phase is Phase.WAITING:
            self._expire()
            return
        if self.start_at is not None and now >= self.start_at:
            self.start_at = None
            if self.phase is Phase.WAITING:
                for i in self.free_seats():
                    self.seats[i].kind = SeatKind.BOT
                    self._seat_event(i, SeatKind.BOT)
                self._start()
        for i, s in enumerate(self.seats):
            if s.away_until is not None and now >= s.away_until:
                self._release_seat(i, to=SeatKind.BOT)
        if self.next_hand_at is not None and now >= self.next_hand_at:
            self.next_hand_at = None
            self._begin_hand()
        ready = [p for p in self.pending.values() if p.ready is not None and p.ready[1] <= now]
        for p in sorted(ready, key=lambda p: p.seat):
            if self.pending.get(p.seat) is p and p.ready is not None and self.seats[p.controller].robot_played:
                self._apply(p, p.ready[0])
            if self.closed:
                return
        expired = sorted((p for p in self.pending.values() if p.deadline <= now), key=lambda p: p.seat)
        for p in expired:
            if self.pending.get(p.seat) is not p:
                continue  # withdrawn by an earlier timeout's action in this window
            c = self.seats[p.controller]
            self._emit(GameEvent(RoomEvent.TIMEOUT, p.seat, arg=p.id))
            self.observer.clock_default(self.game_name, c.robot_played)
            human = c.kind == SeatKind.HUMAN and not c.stand_in
            if human and p.bank > 0:
                c.bank = 0.0  # spent (before the action, which may end the hand and deal a new bank)
            self._apply(p, self.game.default_action(p.seat))
            if human:
                c.timeouts += 1
                # a spent bank: a robot takes the seat at once (without a bank: after some timeouts)
                if p.bank > 0 or c.timeouts >= self.limits.takeover_after:
                    self._set_robot(p.controller, True)
            if self.closed:
                return
        self._maybe_close()

    # ------------------------------------------------------------------ prompts
    def _sync_prompts(self) -> None:
        want = set(self.game.to_act())
        for s in list(self.pending):
            if s not in want:
                self._withdraw(self.pending.pop(s))
        for s in sorted(want):
            legal = self.game.legal(s)
            c = self.game.controller(s)
            p = self.pending.get(s)
            if p is not None and p.actions == legal and p.controller == c:
                continue
            if p is not None:
                self._withdraw(p)
            st = self.seats[c]
            bank = st.bank if st.kind == SeatKind.HUMAN and not st.stand_in else 0.0
            deadline = self.now + self.clock_ms / 1000 + bank
            unix_ms = int((self.epoch + deadline) * 1000)
            p = Pending(next(self._prompt_ids), s, c, legal, deadline, unix_ms, start=self.now, bank=bank)
            self.pending[s] = p
            self._dispatch(p)

    def _dispatch(self, p: Pending) -> None:
        st = self.seats[p.controller]
        if st.robot_played:
            self.observer.requested(self.game_name)
            request = games.decision_request(
                self.game,
                p.seat,
                room=self.id,
                prompt_id=p.id,
                deadline_ms=p.unix_deadline_ms,
                robot=self.robot_of(p.controller),
                reply_to=self.reply_to,
                legal=p.actions,
            )
            self._out.append(Publish(request))
        conn = st.live
        if conn is not None:
            ms = max(0, int((p.deadline - self.now) * 1000))
            bank = p.bank - max(0.0, self.now - p.start - self.clock_ms / 1000)  # what is left of it
            bank_ms = min(ms, max(0, int(bank * 1000)))
            self._send(conn, Prompt(self.id, p.id, p.seat, ms, p.actions.mask, list(p.actions.options), bank_ms))

    def _redispatch(self, controller: int) -> None:
        """The controller of some pending prompts changed hands: tell its new holder."""
        for p in list(self.pending.values()):
            if p.controller == controller:
                self._dispatch(p)

    def _withdraw(self, p: Pending) -> None:
        self.withdrawn[p.id] = p.controller
        while len(self.withdrawn) > ANSWERED_KEPT:
            self.withdrawn.popitem(last=False)
        conn = self.seats[p.controller].live
        if conn is not None:
            self._send(conn, Prompt(self.id, p.id, p.seat, 0, 0, []))

    # ------------------------------------------------------------------ the match
    def _start(self) -> None:
        self.phase = Phase.PLAYING
        self.start_at = self.expires_at = None
        if self.logged:  # the seats as the match starts (robot seats set at creation emit no SEAT event)
            self._out.append(Append(Seats(tuple(self._seat_record(s) for s in self.seats))))
        self._begin_hand()

    def _begin_hand(self) -> None:
        if self.hand > 0:
            self.game = games.create(self.game_name, self.seed, self.rules, hand=self.hand)
        self._out.append(Dealt(self.hand, self.game))  # a slow record (bridge's par) may start now
        if self.logged:
            self._out.append(Append(roomlog.Hand(self.hand)))
        for st in self.seats:
            st.bank = self.bank_ms / 1000
        self._hand_frames = []
        self._hand_head = (self.seat_names(), list(self.totals))
        for ev in self.game.events:
            self._emit(ev)
        if self.game.is_over:  # a hand over at the deal (possible in some games)
            self._end_hand()
        else:
            self._sync_prompts()

    def _end_hand(self) -> None:
        for p in self.pending.values():
            self._withdraw(p)
        self.pending.clear()
        out = self.game.outcome()
        self.totals = [t + s for t, s in zip(self.totals, out.scores, strict=True)]
        final = self.hand + 1 >= self.hands
        detail = {**out.detail, **games.records(self.game), **self.extras.pop(self.hand, {})}
        result = Result(self.id, self.hand, list(out.scores), list(self.totals), list(out.hands), final, detail)
        self._emit(GameEvent(RoomEvent.HAND_END, None, arg=self.hand), result)
        if self._hand_frames is not None:
            seats, totals = self._hand_head
            self._out.append(Archive(self.hand, seats, totals, self._hand_frames, result))
            self._hand_frames = None
        self.hand += 1
        if not final:
            if self.limits.hand_pause > 0:
                self.next_hand_at = self.now + self.limits.hand_pause
            else:
                self._begin_hand()
            return
        self.final_result = result
        self._emit(GameEvent(RoomEvent.MATCH_END, None, arg=self.hand))
        self._finish()

    def _finish(self) -> None:
        """The match is over: nothing more is emitted. Those connected have had everything
        and go free (they may create or join another room at once); a seated player whose
        connection is down keeps the room until it resumes or its grace period, at most
        ``grace`` from now, runs out."""
        self.phase = Phase.OVER
        self.pending.clear()
        self.next_hand_at = None
        if self.logged:
            self._out.append(SealLog())
        until = self.now + self.limits.grace
        offered: dict[int, tuple[str, Conn]] = {}
        for i, st in enumerate(self.seats):
            if st.player is None or not st.member:
                continue
            if st.live is None:
                st.kind = SeatKind.AWAY
                st.away_until = until if st.away_until is None else min(st.away_until, until)
            else:
                if st.rematch:
                    offered[i] = (st.player, st.live)
                self._let_go(st)
        self._offer_rematch(offered)
        for player in list(self.spectators):  # (a dropped watcher waits for its resume)
            self._unwatch(player)
        self._close_if_done()

    def _let_go(self, st: SeatState) -> None:
        """The seat's player is no longer in this (ended) room; no event is emitted."""
        if st.player is not None and st.member:
            self._out.append(Unbind(st.player))
        st.member, st.conn, st.away_until = False, None, None

    def _close_if_done(self) -> None:
        if self.rematch is not None and self.rematch.state is RematchState.OFFER:
            return  # the room stays while the rematch is offered
        if self.phase is Phase.OVER and not self.watchers and all(s.away_until is None for s in self.seats):
            self._close()

    def _maybe_close(self) -> None:
        if self.closed:
            return
        humans = any(s.kind in (SeatKind.HUMAN, SeatKind.AWAY) for s in self.seats)
        if not humans and not self.watchers:
            self._close()

    def _expire(self) -> None:
        """The match did not start in time: those in the room are told (ERROR ROOM_EXPIRED,
        which answers no frame of theirs) and go free; the room closes."""
        wait = self.limits.waiting_expiry
        err = Error.refusing(LobbyError(ErrorCode.ROOM_EXPIRED, f"room {self.id}: no match within {wait:g} s"))
        for conn in [*(s.live for s in self.seats), *self.spectators.values()]:
            if conn is not None:
                self._send(conn, err)
        self._close()

    def _close(self) -> None:
        self.closed = True
        self.phase = Phase.OVER
        self.pending.clear()
        for st in self.seats:
            self._let_go(st)
        for player in list(self.watchers):
            self._unwatch(player)

    # ------------------------------------------------------------------ sending
    def _send(self, conn: Conn, frame: Frame) -> None:
        self._out.append(Send(conn, frame))

    def _emit(self, ev: GameEvent, result: Result | None = None) -> None:
        self.seq += 1
        entry = Emitted(self.seq, ev, result)
        self.log.append(entry)
        if self.logged:
            self._out.append(Append(entry))
            if ev.code in (RoomEvent.SEAT, RoomEvent.ROBOT):
                self._out.append(Append(Seats(tuple(self._seat_record(s) for s in self.seats))))
        # at most two frames, each shared by all who see the event alike (one encode each):
        # the cards as the seats of ``visible_to`` see them, and as everyone else does
        public = self._event_frame(self.seq, ev, None)
        shown = public if ev.visible_to is None else None
        for i, st in enumerate(self.seats):
            conn = st.live
            if conn is not None:
                if ev.visible_to is not None and i in ev.visible_to:
                    if shown is None:
                        shown = self._event_frame(self.seq, ev, i)
                    self._send(conn, shown)
                else:
                    self._send(conn, public)
                if result is not None:
                    self._send(conn, result)
        if self._hand_frames is not None:  # face up: the public frame itself when all see it alike
            self._hand_frames.append(
                public
                if ev.visible_to is None
                else Event(self.id, self.seq, ev.code, ev.seat, ev.cards, ev.arg, ev.text)
            )
        if self.spectators:
            frame = public
            for conn in self.spectators.values():
                self._send(conn, frame)
                if result is not None:
                    self._send(conn, result)

    @staticmethod
    def _seat_record(s: SeatState) -> SeatRecord:
        held = s.player is not None and s.member
        return SeatRecord(int(s.kind), s.player if held else None, s.name if held else None, s.stand_in)

    def _seat_event(self, seat: int, kind: int) -> None:
        """SEAT: ``seat`` is now of ``kind``; its text the holder's name as ROOM_STATE's seats
        name it (a person's, "NAME (robot)"), "" for an empty seat."""
        self._emit(GameEvent(RoomEvent.SEAT, seat, arg=kind, text=self.seat_names()[seat] or ""))

    def _event_frame(self, seq: int, ev: GameEvent, seat: int | None) -> Event:
        e = ev if ev.visible_to is None else ev.seen_by(seat)  # (most events: all see them alike)
        return Event(self.id, seq, e.code, e.seat, e.cards, e.arg, e.text)

    def _state(self, seat: int | None) -> RoomState:
        view = self.game.view(seat) if self.phase is not Phase.WAITING else {}
        robots = [i for i, s in enumerate(self.seats) if s.kind == SeatKind.BOT]
        names, totals = self.seat_names(), list(self.totals)
        return RoomState(self.id, self.game_name, self.ruleset, seat, self.seq, self.hand, names, totals, view, robots)


# the handler of each input (a module-level table: mypyc compiles no class attribute that
# names the class's own methods)
_HANDLERS: dict[type, Callable[[Table, Any], None]] = {
    Enter: Table._enter,
    Exit: Table._exit,
    Drop: Table._drop,
    Resume: Table._resume,
    Reply: Table._reply,
    Decide: Table._decide,
    Tick: Table._tick,
    Restored: Table._restored,
    Extra: Table._extra,
    SayLine: Table._say,
    MuteName: Table._mute,
    AnswerRematch: Table._answer_rematch,
    SwapSeat: Table._swap_seat,
}
