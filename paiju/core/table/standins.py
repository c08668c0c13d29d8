"""Robots standing in for human seats: a seat whose owner dropped (``robot_on_drop``) or let its
clock run out (``takeover_after`` timeouts in a row, or at once when its time bank is spent) is
played by a robot until its owner acts or resumes; and the pace at which a robot's answer is
played, so that the people at the table can follow.

>>> from paiju.core.table.common import Common
>>> from paiju.core.table.prompts import Prompts
>>> from paiju.core.table.stream import Stream
>>> c = Common("r1", "tricks", None, seed=1, hands=1, clock_ms=1000, robot="random")
>>> robots = StandIns(c, Stream(c), Prompts(c))
>>> robots.set_robot(0, True)
>>> c.seats[0].stand_in, c.seats[0].robot_played
(True, True)
"""

from __future__ import annotations

from paiju.core.table.common import Common
from paiju.core.table.prompts import Pending, Prompts
from paiju.core.table.stream import Stream
from paiju.games import GameEvent
from paiju.protocol import RoomEvent, SeatKind


class StandIns:
    """The robot stand-ins of table ``c`` (see the module's docstring)."""

    def __init__(self, c: Common, stream: Stream, prompts: Prompts) -> None:
        self.c = c
        self.stream = stream
        self.prompts = prompts

    def set_robot(self, i: int, on: bool) -> None:
        """A robot stands in for seat ``i`` (``on``), or its owner takes it back."""
        st = self.c.seats[i]
        if st.stand_in == on:
            return
        st.stand_in = on
        st.timeouts = 0
        if not on:  # the owner is back: a robot's answer held for pacing is not played
            for p in self.prompts.pending.values():
                if p.controller == i:
                    p.ready = None
        self.stream.emit(GameEvent(RoomEvent.ROBOT, i, arg=int(on)))
        self.prompts.redispatch(i)

    def robot_wait(self, p: Pending) -> float:
        """How long after its prompt a robot's answer is played.

        A human seat that a robot plays after its time bank ran out: the owner, if still
        connected, has the move's time to answer and so take the seat back. Otherwise, in a
        room that people play in or watch, the robot pace (so that they can follow); a room
        of robots alone plays at full speed. The pace never takes more than half the move's
        clock: a robot never lets its clock run out for the pace's sake (SPEC.md §8)."""
        c = self.c
        st = c.seats[p.controller]
        if st.kind == SeatKind.HUMAN and st.stand_in and st.conn is not None and c.bank_ms > 0:
            return c.clock_ms / 1000
        watched = c.spectators or c.humans()
        return min(c.limits.robot_pace, c.clock_ms / 2000) if watched else 0.0

    def timed_out(self, p: Pending) -> None:
        """The clock played prompt ``p`` of a human's seat (no stand-in held it): after
        ``takeover_after`` timeouts in a row, or at once when its time bank is spent, a robot
        takes the seat."""
        st = self.c.seats[p.controller]
        st.timeouts += 1
        if p.bank > 0 or st.timeouts >= self.c.limits.takeover_after:
            self.set_robot(p.controller, True)
