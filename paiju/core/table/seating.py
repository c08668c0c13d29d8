"""Who is at a table: players taking seats and watchers (:class:`Enter`), leaving
(:class:`Exit`), dropping and coming back (:class:`Drop`, :class:`Resume`), the creator giving
seats to robots before the start (:class:`SwapSeat`), and the people of a table rebuilt from its
log (:class:`Restored`).

In phase ``WAITING`` seats fill with humans and robots (the seats named at creation, or all free
seats when quick play's wait runs out); when no seat is free the match starts. A seat in play
that its player leaves goes to a robot. A seated player or a watcher whose connection drops
keeps its place for the grace period (a robot plays the seat meanwhile unless
``robot_on_drop`` is off) and resumes with exactly the events it missed.

>>> from paiju.core.table import Table
>>> t = Table("r1", "tricks", None, seed=1, hands=1, clock_ms=1000, robot="random")
>>> _ = t.handle(Enter("p1", "ann", conn=7), now=0.0)
>>> t.seat_of("p1"), t.free_seats(), t.phase.value
(0, [1], 'waiting')
"""

from __future__ import annotations

from paiju.core.lifecycle import Phase
from paiju.core.table.common import Common
from paiju.core.table.match import Match
from paiju.core.table.messages import Bound, Drop, Enter, Exit, Restored, Resume, SwapSeat, Unbound
from paiju.core.table.prompts import Prompts
from paiju.core.table.standins import StandIns
from paiju.core.table.stream import Stream
from paiju.core.table.talk import Talk
from paiju.protocol import ErrorCode, LobbyError, SeatKind


class Seating:
    """The seats and watchers of table ``c`` (see the module's docstring)."""

    def __init__(
        self, c: Common, stream: Stream, prompts: Prompts, standins: StandIns, talk: Talk, match: Match
    ) -> None:
        self.c = c
        self.stream = stream
        self.prompts = prompts
        self.standins = standins
        self.talk = talk
        self.match = match

    def enter(self, m: Enter) -> None:
        c = self.c
        if c.seat_of(m.player) is not None or m.player in c.watchers:
            raise LobbyError(ErrorCode.ALREADY_IN_ROOM, f"already in room {c.id}")
        if c.phase is Phase.OVER:
            raise LobbyError(ErrorCode.NO_SUCH_ROOM, f"room {c.id} is over")
        seat = m.seat
        if seat == "any":
            free = c.free_seats()
            if not free and m.quick:
                raise LobbyError(ErrorCode.ROOM_FULL, f"room {c.id} filled up; try again")
            seat = free[0] if free else None
        if seat is None:
            c.spectators[m.player] = m.conn
            c.watchers[m.player] = m.name
            c.log_watchers()
            c.out.append(Bound(c.id, m.player, m.name, None))
            c.send(m.conn, self.stream.state(None))
            self.talk.history(m.conn, m.player, spectator=True)
        else:
            self._check_seat(seat)
            st = c.seats[seat]
            if st.kind != SeatKind.EMPTY:
                raise LobbyError(ErrorCode.SEAT_TAKEN, f"seat {seat} is taken")
            st.kind, st.player, st.name, st.member, st.conn = SeatKind.HUMAN, m.player, m.name, True, None
            st.stand_in, st.timeouts, st.rematch = False, 0, m.rematch
            if c.creator is None:
                c.creator = m.player
            c.out.append(Bound(c.id, m.player, m.name, seat))
            self.stream.seat_event(seat, SeatKind.HUMAN)  # to the others: the state includes it
            st.conn = m.conn
            c.send(m.conn, self.stream.state(seat))
            self.talk.history(m.conn, m.player, spectator=False)
        if c.phase is Phase.WAITING and not c.free_seats():
            self.match.start()  # the last seat filled (robots only: with the first watcher)

    def _check_seat(self, seat: int) -> None:
        if not 0 <= seat < self.c.n:
            raise LobbyError(ErrorCode.BAD_ROOM_OPTIONS, f"{self.c.game_name} has seats 0..{self.c.n - 1}")

    def exit(self, m: Exit) -> None:
        c = self.c
        if self.talk.offered(m.player) and c.seat_of(m.player) is None:
            self.talk.leave(m.player)  # leaving the table after the match: no rematch for it
            self.match.close_if_done()
            return
        seat = c.seat_of(m.player)
        if seat is None and m.player not in c.watchers:
            raise LobbyError(ErrorCode.NOT_IN_ROOM, f"not in room {c.id}")
        if seat is None:
            c.unwatch(m.player)
        elif c.phase is Phase.OVER:
            c.let_go(c.seats[seat])  # nothing is emitted after MATCH_END
            self.match.close_if_done()
        else:
            self.release_seat(seat, to=SeatKind.EMPTY if c.phase is Phase.WAITING else SeatKind.BOT)
        self.match.maybe_close()

    def release_seat(self, i: int, to: SeatKind) -> None:
        """Seat ``i``'s player is gone: the seat is free (``EMPTY``) or a robot's (``BOT``)."""
        st = self.c.seats[i]
        if st.player is not None and st.member:
            self.c.out.append(Unbound(self.c.id, st.player))
        st.player, st.name, st.member, st.conn = None, None, False, None
        st.stand_in, st.timeouts, st.away_until = False, 0, None
        st.kind = to
        self.stream.seat_event(i, to)
        if to == SeatKind.BOT:
            self.prompts.redispatch(i)

    def drop(self, m: Drop) -> None:
        c = self.c
        if self.talk.conns.get(m.player) == m.conn:
            self.talk.leave(m.player)
        seat = c.seat_of(m.player)
        if seat is None:
            if c.spectators.get(m.player) == m.conn:
                # like a seat, a watcher keeps its place for the grace period, to resume
                del c.spectators[m.player]
                c.watchers_away[m.player] = c.now + c.limits.grace
            return
        st = c.seats[seat]
        if st.conn != m.conn or c.phase is Phase.OVER:
            return  # a newer connection took over, or the ended match already waits for a resume
        st.conn = None
        if c.phase is Phase.WAITING:
            self.release_seat(seat, to=SeatKind.EMPTY)
        else:
            st.kind, st.away_until = SeatKind.AWAY, c.now + c.limits.grace
            self.stream.seat_event(seat, SeatKind.AWAY)
            if c.limits.robot_on_drop and not st.stand_in:
                self.standins.set_robot(seat, True)
        self.match.maybe_close()

    def resume(self, m: Resume) -> None:
        c = self.c
        seat = c.seat_of(m.player)
        if seat is None and m.player not in c.watchers:
            return
        if c.phase is Phase.OVER:
            # the match ended while this player was away: what it missed, then it goes free
            self.stream.send_since(m.conn, seat, m.last_seq)
            if seat is not None:
                c.let_go(c.seats[seat])
            else:
                c.unwatch(m.player)
            self.match.close_if_done()
            return
        if seat is None:
            c.watchers_away.pop(m.player, None)
            c.spectators[m.player] = m.conn
            self.stream.send_since(m.conn, None, m.last_seq)
            self.talk.history(m.conn, m.player, spectator=True)
            return
        st = c.seats[seat]
        st.conn, st.rematch = m.conn, m.rematch
        self.stream.send_since(m.conn, seat, m.last_seq)
        self.talk.history(m.conn, m.player, spectator=False)
        st.kind, st.away_until, st.timeouts = SeatKind.HUMAN, None, 0
        self.stream.seat_event(seat, SeatKind.HUMAN)
        self.prompts.grant_bank(seat)
        if st.stand_in:
            self.standins.set_robot(seat, False)
        else:
            self.prompts.redispatch(seat)

    def swap_seat(self, m: SwapSeat) -> None:
        """Before the start the creator chooses who fills a seat: a robot, or a player to come."""
        c = self.c
        if m.player != c.creator or c.phase is not Phase.WAITING:
            raise LobbyError(ErrorCode.WRONG_STATE, "only the room's creator swaps seats, before the match starts")
        self._check_seat(m.seat)
        st = c.seats[m.seat]
        if st.kind == SeatKind.HUMAN:
            raise LobbyError(ErrorCode.SEAT_TAKEN, f"seat {m.seat} is a player's")
        want = SeatKind.BOT if m.robot else SeatKind.EMPTY
        if st.kind == want:
            return
        st.kind = want
        self.stream.seat_event(m.seat, want)
        if not c.free_seats():
            self.match.start()  # the last free seat went to a robot

    def fill_with_robots(self) -> None:
        """Quick play's wait ran out: robots take the free seats and the match starts."""
        c = self.c
        if c.phase is Phase.WAITING:
            for i in c.free_seats():
                c.seats[i].kind = SeatKind.BOT
                self.stream.seat_event(i, SeatKind.BOT)
            self.match.start()

    def restored(self, m: Restored) -> None:
        """Nobody is connected yet to a table rebuilt from its log, so the seated players are
        AWAY for the grace period (a robot plays for them unless ``robot_on_drop`` is off);
        then the match carries on where the log stops."""
        c = self.c
        over = c.phase is Phase.OVER  # its players may not have heard the end: they hear it on resume
        for i, st in enumerate(c.seats):
            if st.player is not None and st.member:
                c.out.append(Bound(c.id, st.player, st.name or "player", i))
                st.away_until = c.now + c.limits.grace
                if over:
                    continue
                if st.kind != SeatKind.AWAY:
                    st.kind = SeatKind.AWAY
                    self.stream.seat_event(i, SeatKind.AWAY)
                if c.limits.robot_on_drop and not st.stand_in:
                    self.standins.set_robot(i, True)
        for player, name in c.watchers.items():  # a watched robot match too
            c.out.append(Bound(c.id, player, name, None))
            c.watchers_away[player] = c.now + c.limits.grace
        self.match.maybe_close()  # nobody seated or watching: nobody is left to play for
        if not c.closed and c.phase is Phase.PLAYING:
            self.match.resume()
        elif not c.closed and c.phase is Phase.WAITING and not c.free_seats() and not c.quickplay:
            self.match.start()  # full, it was waiting for its robots' worker
