"""A table's events: numbered once over the whole match, sent to each seat as it sees them and
to the watchers, the last ``replay_buffer`` kept for a player who resumes (who gets exactly the
events it missed, else a ROOM_STATE), the hand in play kept face up for its archive.

>>> from paiju.core.table.common import Common
>>> from paiju.games import GameEvent
>>> from paiju.protocol import RoomEvent
>>> c = Common("r1", "tricks", None, seed=1, hands=1, clock_ms=1000, robot="random")
>>> c.spectators["ann"] = 7
>>> s = Stream(c)
>>> s.emit(GameEvent(RoomEvent.SEAT, 0, arg=1))
>>> s.seq, [type(o).__name__ for o in c.out]
(1, ['Send'])
"""

from __future__ import annotations

from collections import deque

from paiju.core.lifecycle import Phase
from paiju.core.messages import Conn
from paiju.core.roomlog import Emitted, SeatRecord, Seats
from paiju.core.table.common import Common, SeatState
from paiju.core.table.messages import Append, Archive, TableOut
from paiju.games import GameEvent
from paiju.protocol import Event, Result, RoomEvent, RoomState, SeatKind


class Stream:
    """The events of table ``c``'s match (see the module's docstring)."""

    def __init__(self, c: Common) -> None:
        self.c = c
        self.seq = 0
        self.log: deque[Emitted] = deque(maxlen=c.limits.replay_buffer)
        self.final_result: Result | None = None  # the last hand's, once the match is over
        self.hand_frames: list[Event] | None = None  # the hand in play, every card face up
        self.hand_head: tuple[list[str | None], list[int]] = ([], [])

    def emit(self, ev: GameEvent, result: Result | None = None) -> None:
        c = self.c
        self.seq += 1
        entry = Emitted(self.seq, ev, result)
        self.log.append(entry)
        if c.logged:
            if c.log_events or result is not None or ev.code == RoomEvent.MATCH_END:
                c.out.append(Append(entry))
            if ev.code in (RoomEvent.SEAT, RoomEvent.ROBOT):
                self.log_seats()
        # at most two frames, each shared by all who see the event alike (one encode each):
        # the cards as the seats of ``visible_to`` see them, and as everyone else does
        public = self.event_frame(self.seq, ev, None)
        shown = public if ev.visible_to is None else None
        for i, st in enumerate(c.seats):
            conn = st.live
            if conn is not None:
                if ev.visible_to is not None and i in ev.visible_to:
                    if shown is None:
                        shown = self.event_frame(self.seq, ev, i)
                    c.send(conn, shown)
                else:
                    c.send(conn, public)
                if result is not None:
                    c.send(conn, result)
        if self.hand_frames is not None:  # face up: the public frame itself when all see it alike
            self.hand_frames.append(
                public if ev.visible_to is None else Event(c.id, self.seq, ev.code, ev.seat, ev.cards, ev.arg, ev.text)
            )
        if c.spectators:
            frame = public
            for conn in c.spectators.values():
                c.send(conn, frame)
                if result is not None:
                    c.send(conn, result)

    def seat_event(self, seat: int, kind: int) -> None:
        """SEAT: ``seat`` is now of ``kind``; its text the holder's name as ROOM_STATE's seats
        name it (a person's, "NAME (robot)"), "" for an empty seat."""
        self.emit(GameEvent(RoomEvent.SEAT, seat, arg=kind, text=self.c.seat_names()[seat] or ""))

    def log_seats(self) -> None:
        """The seats as they are now, into the log (a table made with ``logged=True``)."""
        self.c.out.append(Append(Seats(tuple(_seat_record(s) for s in self.c.seats))))

    def open_hand(self) -> None:
        """A hand is dealt: its events are kept face up from now on, for its :class:`Archive`."""
        self.hand_frames = []
        self.hand_head = (self.c.seat_names(), list(self.c.totals))

    def archive(self, hand: int, result: Result) -> None:
        """Hand ``hand`` ended with ``result``: its events face up go out for the replays."""
        if self.hand_frames is not None:
            seats, totals = self.hand_head
            self.c.out.append(Archive(hand, seats, totals, self.hand_frames, result))
            self.hand_frames = None

    def send_since(self, conn: Conn, seat: int | None, last_seq: int | None) -> None:
        """The events after ``last_seq`` as ``seat`` sees them, or a ROOM_STATE."""
        c = self.c
        first = self.log[0].seq if self.log else self.seq + 1
        if last_seq is None or last_seq > self.seq or last_seq + 1 < first:
            c.send(conn, self.state(seat))
            if c.phase is Phase.OVER and self.final_result is not None:
                c.send(conn, self.final_result)  # the snapshot of an ended match: how it ended
            return
        for e in self.log:
            if e.seq > last_seq:
                c.send(conn, self.event_frame(e.seq, e.event, seat))
                if e.result is not None:
                    c.send(conn, e.result)

    def restate(self) -> None:
        """A ROOM_STATE to every seat and spectator connected (what they know of the room
        changed outside the events: a full room held for its robots' worker, or no longer)."""
        c = self.c
        for i, st in enumerate(c.seats):
            if st.live is not None:
                c.send(st.live, self.state(i))
        for conn in c.spectators.values():
            c.send(conn, self.state(None))

    def missed(self, player: str, conn: Conn, last_seq: int | None) -> list[TableOut]:
        """The frames an ended match sent ``player`` after ``last_seq`` (as the seat it held
        sees them, or a spectator), for a resume after the table let it go; nothing when
        ``last_seq`` is None or past the end. The table does not change."""
        c = self.c
        if c.phase is not Phase.OVER or last_seq is None or last_seq >= self.seq:
            return []
        seat = next((i for i, s in enumerate(c.seats) if s.player == player), None)
        c.out = []
        self.send_since(conn, seat, last_seq)
        out, c.out = c.out, []
        return out

    def event_frame(self, seq: int, ev: GameEvent, seat: int | None) -> Event:
        e = ev if ev.visible_to is None else ev.seen_by(seat)  # (most events: all see them alike)
        return Event(self.c.id, seq, e.code, e.seat, e.cards, e.arg, e.text)

    def state(self, seat: int | None) -> RoomState:
        c = self.c
        view = c.game.view(seat) if c.phase is not Phase.WAITING else {}
        robots = [i for i, s in enumerate(c.seats) if s.kind == SeatKind.BOT]
        names, totals = c.seat_names(), list(c.totals)
        return RoomState(
            c.id, c.game_name, c.ruleset, seat, self.seq, c.hand, names, totals, view, robots, c.commitment, c.waiting
        )


def _seat_record(s: SeatState) -> SeatRecord:
    held = s.player is not None and s.member
    return SeatRecord(int(s.kind), s.player if held else None, s.name if held else None, s.stand_in)
