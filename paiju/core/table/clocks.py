"""A table's clocks, as deadlines on the caller's clock: each prompt's (its move's time plus,
for a human, what is left of the seat's time bank), a robot's answer held for pacing, the grace
periods of dropped players and watchers, the rematch offer, quick play's wait, the expiry of a
room still waiting and the pause between hands. A :class:`Tick` runs those that are due: when a
prompt's deadline passes the table emits TIMEOUT and applies ``game.default_action(seat)``.

>>> from paiju.core.table import Table
>>> t = Table("r1", "tricks", None, seed=1, hands=1, clock_ms=1000, robot="random", quickplay=True)
>>> t.next_deadline() == t.limits.quickplay_wait
True
"""

from __future__ import annotations

from paiju.core.lifecycle import Phase
from paiju.core.messages import Tick
from paiju.core.table.common import Common
from paiju.core.table.match import Match
from paiju.core.table.prompts import Prompts
from paiju.core.table.seating import Seating
from paiju.core.table.standins import StandIns
from paiju.core.table.stream import Stream
from paiju.core.table.talk import Talk
from paiju.games import GameEvent
from paiju.protocol import RoomEvent, SeatKind


class Clocks:
    """The clocks of table ``c`` (see the module's docstring)."""

    def __init__(
        self,
        c: Common,
        stream: Stream,
        prompts: Prompts,
        standins: StandIns,
        talk: Talk,
        match: Match,
        seating: Seating,
    ) -> None:
        self.c = c
        self.stream = stream
        self.prompts = prompts
        self.standins = standins
        self.talk = talk
        self.match = match
        self.seating = seating

    def next_deadline(self) -> float | None:
        """When the next :class:`Tick` is due (None: no clock runs)."""
        c, pending = self.c, self.prompts.pending.values()
        times = [p.deadline for p in pending]
        times += [p.ready[1] for p in pending if p.ready is not None]
        times += [s.away_until for s in c.seats if s.away_until is not None]
        times += c.watchers_away.values()
        rematch = self.talk.deadline()
        if rematch is not None:
            times.append(rematch)
        m = self.match
        for t in (m.start_at, m.next_hand_at, m.expires_at, m.robots_check_at):
            if t is not None:
                times.append(t)
        return min(times) if times else None

    def tick(self, m: Tick) -> None:
        c, match = self.c, self.match
        now = c.now
        for player, until in list(c.watchers_away.items()):
            if now >= until:
                c.unwatch(player)
        if c.phase is Phase.OVER:  # only dropped players' grace periods are left to run out
            self.talk.tick()
            for st in c.seats:
                if st.away_until is not None and now >= st.away_until:
                    c.let_go(st)
            match.close_if_done()
            return
        if match.expires_at is not None and now >= match.expires_at and c.phase is Phase.WAITING:
            match.expire()
            return
        if match.start_at is not None and now >= match.start_at:
            match.start_at = None
            self.seating.fill_with_robots()
        if match.robots_check_at is not None and now >= match.robots_check_at:
            match.look_for_robots()
            if c.closed:
                return
        for i, s in enumerate(c.seats):
            if s.away_until is not None and now >= s.away_until:
                self.seating.release_seat(i, to=SeatKind.BOT)
        if match.next_hand_at is not None and now >= match.next_hand_at:
            match.next_hand_at = None
            match.begin_hand()
        pending = self.prompts.pending
        ready = [p for p in pending.values() if p.ready is not None and p.ready[1] <= now]
        for p in sorted(ready, key=lambda p: p.seat):
            if pending.get(p.seat) is p and p.ready is not None and c.seats[p.controller].robot_played:
                match.apply(p, p.ready[0])
            if c.closed:
                return
        expired = sorted((p for p in pending.values() if p.deadline <= now), key=lambda p: p.seat)
        for p in expired:
            if pending.get(p.seat) is not p:
                continue  # withdrawn by an earlier timeout's action in this window
            st = c.seats[p.controller]
            self.stream.emit(GameEvent(RoomEvent.TIMEOUT, p.seat, arg=p.id))
            c.observer.clock_default(c.game_name, st.robot_played)
            human = st.kind == SeatKind.HUMAN and not st.stand_in
            if human and p.bank > 0:
                st.bank = 0.0  # spent (before the action, which may end the hand and deal a new bank)
            match.apply(p, c.game.default_action(p.seat))
            if human:
                self.standins.timed_out(p)
            if c.closed:
                return
        match.maybe_close()
