"""The :class:`Table`: one room's match, sans-I/O, made of parts with one job each, to which it
routes each input (see the package's docstring, and its example).

>>> t = Table("r1", "tricks", None, seed=1, hands=2, clock_ms=1000, robot="random", bots=[0, 1])
>>> t.handle(Restored(), now=0.0), t.closed  # no human and no watcher: nobody to play for
([Close()], True)
"""

from __future__ import annotations

import itertools
import logging
from collections import deque
from collections.abc import Callable
from typing import Any

from paiju.core import errors, roomlog
from paiju.core.config import Limits
from paiju.core.lifecycle import Phase
from paiju.core.messages import Conn, Tick
from paiju.core.roomlog import Emitted, Head, Replayed
from paiju.core.social import Rematch
from paiju.core.table.clocks import Clocks
from paiju.core.table.common import ALL_SERVED, UNOBSERVED, Common, Observer, Roster
from paiju.core.table.match import Match
from paiju.core.table.messages import (
    AnswerRematch,
    Close,
    Decide,
    Drop,
    Enter,
    Exit,
    Extra,
    MuteName,
    Refused,
    Reply,
    Restored,
    Resume,
    SayLine,
    SwapSeat,
    TableIn,
    TableOut,
)
from paiju.core.table.prompts import Pending, Prompts
from paiju.core.table.seating import Seating
from paiju.core.table.standins import StandIns
from paiju.core.table.stream import Stream
from paiju.core.table.talk import Talk
from paiju.protocol import PaijuError, SeatKind

log = logging.getLogger("paiju.room")


class Table(Common):
    """One room's match, sans-I/O: the settings, seats and phase it shares with its parts
    (:class:`~paiju.core.table.common.Common`), and the parts, to which :meth:`handle` routes
    each input.

    ``epoch`` turns the caller's clock into unix time (``epoch + now``: a robot's deadline);
    ``reply_to`` names this server process on the bus; ``logged`` makes the table produce
    its log entries (the caller appends :meth:`head` first).
    """

    stream: Stream
    prompts: Prompts
    standins: StandIns
    talk: Talk
    match: Match
    seating: Seating
    clocks: Clocks
    routes: dict[type, Callable[[Any], None]]

    def assemble(self) -> None:
        """The parts, made at the end of :class:`Common`'s ``__init__`` (the arguments are its)."""
        self.stream = Stream(self)
        self.prompts = Prompts(self)
        self.standins = StandIns(self, self.stream, self.prompts)
        self.talk = Talk(self)
        self.match = Match(self, self.stream, self.prompts, self.standins, self.talk)
        self.talk.settled = self.match.close_if_done
        self.seating = Seating(self, self.stream, self.prompts, self.standins, self.talk, self.match)
        self.clocks = Clocks(self, self.stream, self.prompts, self.standins, self.talk, self.match, self.seating)
        # the part that handles each input
        self.routes = {
            Enter: self.seating.enter,
            Exit: self.seating.exit,
            Drop: self.seating.drop,
            Resume: self.seating.resume,
            SwapSeat: self.seating.swap_seat,
            Restored: self.seating.restored,
            Reply: self.match.reply,
            Decide: self.match.decide,
            Extra: self.match.extra,
            Tick: self.clocks.tick,
            SayLine: self.talk.say,
            MuteName: self.talk.mute,
            AnswerRematch: self.talk.answer,
        }

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
        roster: Roster = ALL_SERVED,
    ) -> Table:
        """The table that log ``r`` describes, at the same event sequence number; its first
        input must be :class:`Restored` (which binds its players again and prompts). A
        quick-play room still waiting gets robots after quick play's wait from ``now``."""
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
            salt=h.salt,
            roster=roster,
        )
        t.match.expires_at = None
        if t.match.start_at is not None and r.phase is not Phase.WAITING:
            t.match.start_at = None
        t.game = r.game
        t.phase = r.phase
        t.hand = r.hand
        t.stream.seq = r.seq
        t.totals = list(r.totals)
        t.stream.log.extend(r.events)
        t.prompts.ids = itertools.count(r.prompt_id + 1)
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
            self.salt,
        )

    # ------------------------------------------------------------------ the one way in
    def handle(self, msg: TableIn, now: float) -> list[TableOut]:
        """Apply one input at time ``now``; what must happen outside, in order."""
        self.now = now
        out: list[TableOut] = []
        self.out = out
        if self.closed:
            return out
        refusal: PaijuError | None = None
        try:
            self.routes[type(msg)](msg)
        except Exception as e:  # a refusal, or a bug (which must not take the room down): the asker hears of it
            refusal = errors.refusal(e, f"room {self.id} on {type(msg).__name__}")
        if self.closed:
            out.append(Close())
        if refusal is not None:
            if hasattr(msg, "conn"):
                out.append(Refused(refusal))
            elif isinstance(msg, Decide):
                log.warning("room %s: robot's decision for prompt %d refused: %s", self.id, msg.prompt_id, refusal)
        return out

    # ------------------------------------------------------------------ queries
    def next_deadline(self) -> float | None:
        """When the next :class:`Tick` is due (None: no clock runs)."""
        return self.clocks.next_deadline()

    def missed(self, player: str, conn: Conn, last_seq: int | None) -> list[TableOut]:
        """The frames an ended match sent ``player`` after ``last_seq`` (see
        :meth:`Stream.missed <paiju.core.table.stream.Stream.missed>`)."""
        return self.stream.missed(player, conn, last_seq)

    @property
    def seq(self) -> int:
        """The sequence number of the last event."""
        return self.stream.seq

    @property
    def log(self) -> deque[Emitted]:
        """The last ``replay_buffer`` events, for a resume."""
        return self.stream.log

    @property
    def pending(self) -> dict[int, Pending]:
        """The pending prompts, by seat."""
        return self.prompts.pending

    @property
    def rematch(self) -> Rematch | None:
        """The rematch offered when the match ended (None: none was)."""
        return self.talk.rematch
