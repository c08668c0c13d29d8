"""A room: one asyncio task owns a match of one game; everything else talks to it through
its inbox, so the game state is never touched concurrently.

The life of a room: created by the lobby (CREATE_ROOM or QUICK_PLAY) in status
``waiting``; seats fill with humans (JOIN) and robots (the seats named at creation, or
all free seats when quick play's wait runs out); when no seat is free the match starts
(``playing``): hand ``h`` is ``create(game, seed, ruleset, hand=h)``, so the dealer
rotates; after the last hand it is ``over``. The players at the table and the spectators
then go free at once, but a seated player whose connection is down keeps the room: its
event buffer and the final RESULT wait for that player's resume (which gets exactly the
missed events, MATCH_END included, and no event is ever added after MATCH_END) until its
grace period runs out; then the room closes. It also closes when no human holds a seat and
nobody watches.

Events carry one sequence number per room over the whole match. Each connected seat
receives every event as ``Event.seen_by(seat)`` and spectators ``seen_by(None)``; the
last ``replay_buffer`` events are kept so that a player who resumes gets exactly those
it missed (else a ROOM_STATE). The RESULT of a hand follows its HAND_END event and is
replayed with it.

Prompts: every seat in ``game.to_act()`` has one pending prompt (several at once in a
mahjong claim window), with its own id and deadline. The prompt goes to the seat's
controller (``game.controller(seat)``: bridge's declarer for the dummy); when that seat
is played by a robot, a DecisionRequest with exactly ``game.view(controller)`` goes on
the bus instead (and also the PROMPT, when a human owner is still connected). A prompt
whose seat leaves ``to_act()``, or whose legal set changes, is withdrawn with a PROMPT
of mask 0 and no options. When a deadline passes the room emits TIMEOUT and applies
``game.default_action(seat)``; after ``takeover_after`` consecutive timeouts of a human a
robot plays the seat until its owner sends an ACTION again.

With a :class:`~server.storage.Journal` (``paiju serve --redis``) the room appends its log
(the deal of each hand, every action applied, every event, the seats) as it plays, and
the frames a message produces reach the clients only once its entries are written
(:meth:`Journal.sync`, bounded): a room rebuilt from its log after a restart
(:meth:`Room.restore`) is never behind what its players saw.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import games
from games import Action, ActionSet, GameError, Rules
from games import Event as GameEvent
from protocol import (
    Ack,
    DecisionRequest,
    ErrorCode,
    Frame,
    Prompt,
    QuickPlay,
    Result,
    RoomEvent,
    RoomInfo,
    RoomState,
    SeatKind,
)
from protocol import Action as ActionFrame
from protocol import Decision as DecisionFrame
from protocol import Event as EventFrame

from . import metrics
from .connection import Connection, Player
from .storage import Journal, Replayed, event_entry, rules_options

if TYPE_CHECKING:
    from .app import Server

log = logging.getLogger("paiju.room")


@dataclass(eq=False)
class SeatState:
    kind: SeatKind = SeatKind.EMPTY
    player: Player | None = None
    robot: bool = False  # a robot plays this human seat for now (timeouts, or dropped)
    timeouts: int = 0  # consecutive
    away_until: float | None = None

    @property
    def robot_played(self) -> bool:
        return self.kind == SeatKind.BOT or self.robot

    @property
    def conn(self) -> Connection | None:
        if self.kind == SeatKind.HUMAN and self.player is not None and self.player.conn is not None:
            c = self.player.conn
            return None if c.closed else c
        return None


@dataclass(eq=False)
class Pending:
    id: int
    seat: int
    controller: int
    actions: ActionSet
    deadline: float  # loop time
    unix_deadline_ms: int


class Room:
    def __init__(
        self,
        server: Server,
        room_id: str,
        game: str,
        ruleset: str | Rules | None,
        *,
        hands: int,
        clock_ms: int,
        bots: list[int],
        robot: str,
        private: bool,
        seed: int,
        quickplay: bool = False,
        journal: Journal | None = None,
    ) -> None:
        self.server = server
        self.limits = server.config.limits
        self.id = room_id
        self.game_name = game
        self.seed = seed
        self.game = games.create(game, seed, ruleset, hand=0)
        self.rules: Rules = self.game.rules  # the whole value (a bridge room's PBN deals), not only its name
        self.ruleset = self.rules.name
        self.n = self.game.num_seats
        self.hands = hands
        self.clock_ms = clock_ms
        self.robot = robot
        self.private = private
        self.quickplay = quickplay
        self.seats = [SeatState() for _ in range(self.n)]
        for b in bots:
            self.seats[b].kind = SeatKind.BOT
        self.spectators: dict[str, Player] = {}
        self.status = "waiting"
        self.hand = 0
        self.totals = [0] * self.n
        self.seq = 0
        self.log: deque[tuple[int, GameEvent, Result | None]] = deque(maxlen=self.limits.replay_buffer)
        self.pending: dict[int, Pending] = {}
        self.answered: OrderedDict[int, tuple[int, Action]] = OrderedDict()
        self._prompt_ids = itertools.count(1)
        self.inbox: asyncio.Queue[tuple[Any, ...]] = asyncio.Queue()
        self.loop = asyncio.get_running_loop()
        self.start_at: float | None = self.loop.time() + self.limits.quickplay_wait if quickplay else None
        self.next_hand_at: float | None = None
        self.closed = False
        self.final_result: Result | None = None
        self.created = time.time()
        self.journal = journal
        self._holding = False  # frames wait in _outbox until the log is written
        self._outbox: list[tuple[Connection, Frame]] = []
        self._shutdown = False
        if journal is not None:
            journal.append(
                [
                    "room",
                    1,
                    game,
                    self.ruleset,
                    seed,
                    hands,
                    clock_ms,
                    robot,
                    private,
                    quickplay,
                    self.created,
                    rules_options(game, self.rules),
                ]
            )
        self.task = asyncio.create_task(self._run(), name=f"room-{room_id}")

    @classmethod
    def restore(cls, server: Server, r: Replayed, journal: Journal) -> Room:
        """The room that log ``r`` describes, at the same event sequence number, its players
        known to the server again (their tokens resume them); a message then makes its task
        mark the absent players AWAY and prompt whoever must act."""
        room = cls(
            server,
            r.room_id,
            r.game_name,
            r.rules,
            hands=r.hands,
            clock_ms=r.clock_ms,
            bots=[],
            robot=r.robot,
            private=r.private,
            seed=r.seed,
            quickplay=r.quickplay,
        )
        room.created = r.created
        room.start_at = None
        room.game = r.game
        room.status = r.status
        room.hand = r.hand
        room.seq = r.seq
        room.totals = list(r.totals)
        room.log.extend(r.events)
        room._prompt_ids = itertools.count(r.prompt_id + 1)
        for i, (kind, pid, name, robot) in enumerate(r.seats):
            st = room.seats[i]
            st.kind, st.robot = SeatKind(kind), robot
            if pid is not None and st.kind in (SeatKind.HUMAN, SeatKind.AWAY):
                player = server.players.get(pid)
                if player is None:
                    player = server.players[pid] = Player(pid, name or "player")
                player.room, player.seat = room, i
                st.player = player
        room.journal = journal
        room.post("restored")
        return room

    # ------------------------------------------------------------------ outside the task
    def post(self, *msg: Any) -> None:
        """Hand a message to the room's task (the only way in)."""
        if not self.closed:
            self.inbox.put_nowait(msg)

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
            self.status,
        )

    def free_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.kind == SeatKind.EMPTY]

    def seat_names(self) -> list[str | None]:
        out: list[str | None] = []
        for s in self.seats:
            if s.kind == SeatKind.BOT:
                out.append(f"{self.robot} (robot)")
            elif s.player is not None:
                out.append(s.player.name)
            else:
                out.append(None)
        return out

    # ------------------------------------------------------------------ the task
    async def _run(self) -> None:
        handlers: dict[str, Callable[..., Any]] = {
            "join": self._join,
            "leave": self._leave,
            "drop": self._drop,
            "resume": self._resume,
            "action": self._action,
            "decision": self._decision,
            "restored": self._restored,
        }
        try:
            while not self.closed:
                deadline = self._next_deadline()
                try:
                    if deadline is None:
                        msg = await self.inbox.get()
                    else:
                        async with asyncio.timeout_at(deadline):
                            msg = await self.inbox.get()
                except TimeoutError:
                    self._holding = self.journal is not None
                    try:
                        await self._clock()
                    finally:
                        await self._deliver()
                    continue
                self._holding = self.journal is not None
                try:
                    await handlers[msg[0]](*msg[1:])
                except Exception:
                    log.exception("room %s failed on %s", self.id, msg[0])
                    conn = next((m for m in msg if isinstance(m, Connection)), None)
                    if conn is not None:
                        conn.error(ErrorCode.INTERNAL, "internal error")
                finally:
                    await self._deliver()
        except asyncio.CancelledError:
            self._shutdown = True  # the server is stopping: the room stays in the store
            raise
        finally:
            self._release()

    def _send(self, conn: Connection, frame: Frame) -> None:
        if self._holding:
            self._outbox.append((conn, frame))
        else:
            conn.send(frame)

    async def _deliver(self) -> None:
        """Send the frames held for the log to be written (see the module's docstring)."""
        if self._holding and self.journal is not None:
            try:
                await self.journal.sync()
            finally:
                self._holding = False
                out, self._outbox = self._outbox, []
                for conn, frame in out:
                    conn.send(frame)

    def _next_deadline(self) -> float | None:
        times = [p.deadline for p in self.pending.values()]
        times += [s.away_until for s in self.seats if s.away_until is not None]
        for t in (self.start_at, self.next_hand_at):
            if t is not None:
                times.append(t)
        return min(times) if times else None

    async def _clock(self) -> None:
        now = self.loop.time()
        if self.status == "over":  # only dropped players' grace periods are left to run out
            for st in self.seats:
                if st.away_until is not None and now >= st.away_until:
                    self._let_go(st)
            self._close_if_done()
            return
        if self.start_at is not None and now >= self.start_at:
            self.start_at = None
            if self.status == "waiting":
                for i in self.free_seats():
                    self.seats[i].kind = SeatKind.BOT
                    self._emit(GameEvent(RoomEvent.SEAT, i, arg=SeatKind.BOT))
                await self._start()
        for i, s in enumerate(self.seats):
            if s.away_until is not None and now >= s.away_until:
                self._release_seat(i, to=SeatKind.BOT)
        if self.next_hand_at is not None and now >= self.next_hand_at:
            self.next_hand_at = None
            await self._begin_hand()
        expired = sorted((p for p in self.pending.values() if p.deadline <= now), key=lambda p: p.seat)
        for p in expired:
            if self.pending.get(p.seat) is not p:
                continue  # withdrawn by an earlier timeout's action in this window
            c = self.seats[p.controller]
            self._emit(GameEvent(RoomEvent.TIMEOUT, p.seat, arg=p.id))
            metrics.clock_default(self.game_name, c.robot_played)
            await self._apply(p, self.game.default_action(p.seat))
            if c.kind == SeatKind.HUMAN and not c.robot:
                c.timeouts += 1
                if c.timeouts >= self.limits.takeover_after:
                    await self._set_robot(p.controller, True)
            if self.closed:
                return
        self._maybe_close()

    async def _restored(self) -> None:
        """First message of a room rebuilt from its log: nobody is connected yet, so the
        seated players are AWAY for the grace period (a robot plays for them unless
        ``--no-robot-on-drop``); then the room carries on where the log stops."""
        now = self.loop.time()
        for i, st in enumerate(self.seats):
            if st.kind in (SeatKind.HUMAN, SeatKind.AWAY) and st.player is not None:
                st.away_until = now + self.limits.grace
                if st.kind != SeatKind.AWAY:
                    st.kind = SeatKind.AWAY
                    self._emit(GameEvent(RoomEvent.SEAT, i, arg=SeatKind.AWAY))
                if self.limits.robot_on_drop and not st.robot:
                    await self._set_robot(i, True)
        self._maybe_close()  # no human seated (robots only): nobody is left to play for
        if self.closed or self.status != "playing":
            return
        if self.game.is_over:
            if self.hand < self.hands:  # between two hands
                self.next_hand_at = now + max(self.limits.hand_pause, 0.0)
        else:
            await self._sync_prompts()

    # ------------------------------------------------------------------ seats and people
    async def _join(self, player: Player, conn: Connection, seat: int | str | None, ref: Frame) -> None:
        """Seat ``player`` (``seat`` "any": the first free seat, else watch; quick play: else
        ROOM_FULL) or let it watch (None)."""
        if player.room is not None and player.room is not self:
            conn.error(ErrorCode.ALREADY_IN_ROOM, f"already in room {player.room.id}; leave it first", ref)
            return
        if player.room is self:
            conn.error(ErrorCode.ALREADY_IN_ROOM, f"already in room {self.id}", ref)
            return
        if self.status == "over":
            conn.error(ErrorCode.NO_SUCH_ROOM, f"room {self.id} is over", ref)
            return
        if seat == "any":
            free = self.free_seats()
            if not free and isinstance(ref, QuickPlay):
                conn.error(ErrorCode.ROOM_FULL, f"room {self.id} filled up; try again", ref)
                return
            seat = free[0] if free else None
        if not isinstance(seat, int):
            self.spectators[player.id] = player
            player.room, player.seat = self, None
            self._send(conn, self._state(None))
            if self.status == "waiting" and not self.free_seats():
                await self._start()  # robots only: the match starts with its first watcher
            return
        if not 0 <= seat < self.n:
            conn.error(ErrorCode.BAD_ROOM_OPTIONS, f"{self.game_name} has seats 0..{self.n - 1}", ref)
            return
        st = self.seats[seat]
        if st.kind != SeatKind.EMPTY:
            conn.error(ErrorCode.SEAT_TAKEN, f"seat {seat} is taken", ref)
            return
        st.kind, st.player, st.robot, st.timeouts = SeatKind.HUMAN, player, False, 0
        player.room, player.seat = self, seat
        self._emit(GameEvent(RoomEvent.SEAT, seat, arg=SeatKind.HUMAN))
        self._send(conn, self._state(seat))
        if self.status == "waiting" and not self.free_seats():
            await self._start()

    async def _leave(self, player: Player, conn: Connection | None, ref: Frame | None) -> None:
        if player.room is not self:
            if conn is not None:
                conn.error(ErrorCode.NOT_IN_ROOM, f"not in room {self.id}", ref)
            return
        if player.seat is None:
            self.spectators.pop(player.id, None)
            player.room = None
        else:
            self._release_seat(player.seat, to=SeatKind.EMPTY if self.status == "waiting" else SeatKind.BOT)
        self._maybe_close()

    def _release_seat(self, i: int, to: SeatKind) -> None:
        st = self.seats[i]
        if st.player is not None and st.player.room is self:
            st.player.room, st.player.seat = None, None
        st.player, st.robot, st.timeouts, st.away_until = None, False, 0, None
        st.kind = to
        self._emit(GameEvent(RoomEvent.SEAT, i, arg=to))
        if to == SeatKind.BOT:
            self._redispatch(i)

    async def _drop(self, player: Player, conn: Connection) -> None:
        """The connection of ``player`` closed (it may resume within the grace period)."""
        if player.room is not self or player.conn not in (None, conn):
            return  # a newer connection of this player has already taken over
        if self.status == "over":
            return  # the match ended first: the seat already waits for its resume (see _finish)
        if player.seat is None:
            self.spectators.pop(player.id, None)
            player.room = None
        elif self.status != "playing":
            self._release_seat(player.seat, to=SeatKind.EMPTY)
        else:
            i = player.seat
            st = self.seats[i]
            st.kind, st.away_until = SeatKind.AWAY, self.loop.time() + self.limits.grace
            self._emit(GameEvent(RoomEvent.SEAT, i, arg=SeatKind.AWAY))
            if self.limits.robot_on_drop and not st.robot:
                await self._set_robot(i, True)
        self._maybe_close()

    async def _resume(self, player: Player, conn: Connection, last_seq: int | None) -> None:
        if player.room is not self:
            return
        if self.status == "over":
            # the match ended while this player was away: what it missed, then it goes free
            self._send_since(conn, player.seat, last_seq)
            if player.seat is not None:
                self._let_go(self.seats[player.seat])
            else:
                player.room = None
            self._close_if_done()
            return
        if player.seat is None:
            self.spectators[player.id] = player
            self._send_since(conn, None, last_seq)
            return
        i = player.seat
        st = self.seats[i]
        self._send_since(conn, i, last_seq)
        st.kind, st.away_until, st.timeouts = SeatKind.HUMAN, None, 0
        self._emit(GameEvent(RoomEvent.SEAT, i, arg=SeatKind.HUMAN))
        if st.robot:
            await self._set_robot(i, False)
        else:
            self._redispatch(i)

    def _send_since(self, conn: Connection, seat: int | None, last_seq: int | None) -> None:
        """The events after ``last_seq`` as ``seat`` sees them, or a ROOM_STATE."""
        first = self.log[0][0] if self.log else self.seq + 1
        if last_seq is None or last_seq > self.seq or last_seq + 1 < first:
            self._send(conn, self._state(seat))
            if self.status == "over" and self.final_result is not None:
                self._send(conn, self.final_result)  # the snapshot of an ended match: how it ended
            return
        for seq, ev, result in self.log:
            if seq > last_seq:
                self._send(conn, self._event_frame(seq, ev, seat))
                if result is not None:
                    self._send(conn, result)

    async def _set_robot(self, i: int, on: bool) -> None:
        st = self.seats[i]
        if st.robot == on:
            return
        st.robot = on
        st.timeouts = 0
        self._emit(GameEvent(RoomEvent.ROBOT, i, arg=int(on)))
        self._redispatch(i)

    # ------------------------------------------------------------------ actions
    async def _action(self, player: Player, conn: Connection, frame: ActionFrame, received: float = 0.0) -> None:
        if player.room is not self or player.seat is None:
            conn.error(ErrorCode.NOT_IN_ROOM, "only a seated player acts", frame, frame.prompt_id)
            return
        me = player.seat
        st = self.seats[me]
        if st.robot:  # the owner is back at the controls
            await self._set_robot(me, False)
        st.timeouts = 0
        action = Action(frame.code, frame.cards)
        p = next((q for q in self.pending.values() if q.id == frame.prompt_id), None)
        if p is None or p.controller != me:
            done = self.answered.get(frame.prompt_id)
            if done is not None and done[0] == me and done[1] == action:
                self._send(conn, _ack(frame.prompt_id))  # a retry: acknowledged, not applied twice
            elif done is not None and done[0] == me:
                conn.error(
                    ErrorCode.NO_SUCH_PROMPT, f"prompt {frame.prompt_id} was already answered", frame, frame.prompt_id
                )
            elif self.status != "playing":
                code = ErrorCode.GAME_OVER if self.status == "over" else ErrorCode.NOT_YOUR_TURN
                conn.error(code, f"the room is {self.status}", frame, frame.prompt_id)
            elif not any(q.controller == me for q in self.pending.values()):
                conn.error(ErrorCode.NOT_YOUR_TURN, "you have no decision pending", frame, frame.prompt_id)
            else:
                conn.error(
                    ErrorCode.NO_SUCH_PROMPT, f"prompt {frame.prompt_id} is not yours now", frame, frame.prompt_id
                )
            return
        try:
            await self._apply(p, action, conn)
            metrics.action_latency(self.game_name, time.perf_counter() - received)
        except GameError as e:
            conn.error(e.code, e.reason, frame, frame.prompt_id)

    async def _decision(self, d: DecisionFrame) -> None:
        p = self.pending.get(d.seat)
        if p is None or p.id != d.prompt_id or not self.seats[p.controller].robot_played:
            return  # late, or the seat's owner took it back
        metrics.robot_latency(self.game_name, self.loop.time() - p.deadline + self.clock_ms / 1000)
        try:
            await self._apply(p, Action(d.code, d.cards))
        except GameError as e:
            log.warning("room %s: robot's decision for prompt %d refused: %s", self.id, p.id, e)

    async def _apply(self, p: Pending, action: Action, conn: Connection | None = None) -> None:
        """Apply ``action`` for prompt ``p`` (GameError: nothing changed), then carry on."""
        events = self.game.apply(p.seat, action)
        metrics.applied(self.game_name)
        if self.journal is not None:
            self.journal.append(["act", p.seat, action.code, bytes(action.cards), p.id])
        self.answered[p.id] = (p.controller, action)
        while len(self.answered) > 256:
            self.answered.popitem(last=False)
        del self.pending[p.seat]
        if conn is not None:
            self._send(conn, _ack(p.id))
        for ev in events:
            self._emit(ev)
        if self.game.is_over:
            await self._end_hand()
        else:
            await self._sync_prompts()

    # ------------------------------------------------------------------ prompts
    async def _sync_prompts(self) -> None:
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
            now = self.loop.time()
            p = Pending(
                next(self._prompt_ids),
                s,
                c,
                legal,
                now + self.clock_ms / 1000,
                int(time.time() * 1000) + self.clock_ms,
            )
            self.pending[s] = p
            await self._dispatch(p)

    async def _dispatch(self, p: Pending) -> None:
        if self.pending.get(p.seat) is not p:
            return  # answered or withdrawn before this (scheduled) dispatch ran
        st = self.seats[p.controller]
        if st.robot_played:
            metrics.requested(self.game_name)
            await self.server.bus.publish(
                DecisionRequest(
                    self.id,
                    self.game_name,
                    self.ruleset,
                    p.seat,
                    p.id,
                    p.unix_deadline_ms,
                    self.robot,
                    p.actions.mask,
                    list(p.actions.options),
                    self.game.view(p.controller),
                    self.server.bus.server_id,
                )
            )
        conn = st.conn
        if conn is not None:
            self._send(conn, self._prompt_frame(p))

    def _prompt_frame(self, p: Pending) -> Prompt:
        ms = max(0, int((p.deadline - self.loop.time()) * 1000))
        return Prompt(self.id, p.id, p.seat, ms, p.actions.mask, list(p.actions.options))

    def _redispatch(self, controller: int) -> None:
        """The controller of some pending prompts changed hands: tell its new holder."""
        for p in list(self.pending.values()):
            if p.controller == controller:
                self.loop.create_task(self._dispatch(p))

    def _withdraw(self, p: Pending) -> None:
        conn = self.seats[p.controller].conn
        if conn is not None:
            self._send(conn, Prompt(self.id, p.id, p.seat, 0, 0, []))

    # ------------------------------------------------------------------ the match
    async def _start(self) -> None:
        self.status = "playing"
        self.start_at = None
        await self._begin_hand()

    async def _begin_hand(self) -> None:
        if self.hand > 0:
            self.game = games.create(self.game_name, self.seed, self.rules, hand=self.hand)
        if self.journal is not None:
            self.journal.append(["hand", self.hand])
        for ev in self.game.events:
            self._emit(ev)
        if self.game.is_over:  # a hand over at the deal (possible in some games)
            await self._end_hand()
        else:
            await self._sync_prompts()

    async def _end_hand(self) -> None:
        for p in self.pending.values():
            self._withdraw(p)
        self.pending.clear()
        out = self.game.outcome()
        self.totals = [t + s for t, s in zip(self.totals, out.scores, strict=True)]
        final = self.hand + 1 >= self.hands
        result = Result(self.id, self.hand, list(out.scores), list(self.totals), list(out.hands), final, out.detail)
        self._emit(GameEvent(RoomEvent.HAND_END, None, arg=self.hand), result)
        self.hand += 1
        if not final:
            if self.limits.hand_pause > 0:
                self.next_hand_at = self.loop.time() + self.limits.hand_pause
            else:
                await self._begin_hand()
            return
        self.final_result = result
        self._emit(GameEvent(RoomEvent.MATCH_END, None, arg=self.hand))
        self._finish()

    def _finish(self) -> None:
        """The match is over: nothing more is emitted. Those connected have had everything
        and go free (they may create or join another room at once); a seated player whose
        connection is down (noticed or not yet: its "drop" may still be in the inbox) keeps
        the room until it resumes or its grace period, at most ``grace`` from now, runs out."""
        self.status = "over"
        self.pending.clear()
        self.next_hand_at = None
        if self.journal is not None:
            self.journal.close()  # the log is complete: the room is no longer one to rebuild
        until = self.loop.time() + self.limits.grace
        for st in self.seats:
            if st.player is None or st.player.room is not self:
                continue
            if st.kind == SeatKind.AWAY or st.conn is None:
                st.kind = SeatKind.AWAY
                st.away_until = until if st.away_until is None else min(st.away_until, until)
            else:
                self._let_go(st)
        for sp in self.spectators.values():
            if sp.room is self:
                sp.room = None
        self.spectators.clear()
        self._close_if_done()

    def _let_go(self, st: SeatState) -> None:
        """The seat's player is no longer in this (ended) room; no event is emitted."""
        p = st.player
        if p is not None and p.room is self:
            p.room, p.seat = None, None
        st.away_until = None

    def _close_if_done(self) -> None:
        if self.status == "over" and all(s.away_until is None for s in self.seats):
            self.closed = True

    # ------------------------------------------------------------------ sending
    def _emit(self, ev: GameEvent, result: Result | None = None) -> None:
        self.seq += 1
        self.log.append((self.seq, ev, result))
        if self.journal is not None:
            self.journal.append(event_entry(self.seq, ev, result))
            if ev.code in (RoomEvent.SEAT, RoomEvent.ROBOT):
                self.journal.append(["seats", [self._seat_entry(s) for s in self.seats]])
        for i, st in enumerate(self.seats):
            conn = st.conn
            if conn is not None:
                self._send(conn, self._event_frame(self.seq, ev, i))
                if result is not None:
                    self._send(conn, result)
        if self.spectators:
            frame = self._event_frame(self.seq, ev, None)
            for sp in self.spectators.values():
                if sp.conn is not None:
                    self._send(sp.conn, frame)
                    if result is not None:
                        self._send(sp.conn, result)

    @staticmethod
    def _seat_entry(s: SeatState) -> list[Any]:
        p = s.player
        return [int(s.kind), p.id if p is not None else None, p.name if p is not None else None, s.robot]

    def _event_frame(self, seq: int, ev: GameEvent, seat: int | None) -> EventFrame:
        e = ev.seen_by(seat)
        return EventFrame(self.id, seq, e.code, e.seat, e.cards, e.arg)

    def _state(self, seat: int | None) -> RoomState:
        view = self.game.view(seat) if self.status != "waiting" else {}
        return RoomState(
            self.id, self.game_name, self.ruleset, seat, self.seq, self.hand, self.seat_names(), list(self.totals), view
        )

    # ------------------------------------------------------------------ the end
    def _maybe_close(self) -> None:
        if self.closed:
            return
        humans = any(s.kind in (SeatKind.HUMAN, SeatKind.AWAY) for s in self.seats)
        if not humans and not self.spectators:
            self.closed = True

    def _release(self) -> None:
        if self.journal is not None and not self._shutdown and not self.journal.closing:
            self.journal.close()
        self.closed = True
        if self.status != "over":
            self.status = "over"
        self.pending.clear()
        for st in self.seats:
            if st.player is not None and st.player.room is self:
                st.player.room, st.player.seat = None, None
        for sp in self.spectators.values():
            if sp.room is self:
                sp.room = None
        self.server.forget_room(self)


def _ack(prompt_id: int) -> Frame:
    return Ack(prompt_id)
