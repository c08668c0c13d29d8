"""A table's prompts: every seat in ``game.to_act()`` has one pending prompt (several at once in
a mahjong claim window), with its own id and deadline, sent to the seat's controller
(``game.controller(seat)``: bridge's declarer for the dummy); when a robot plays that seat a
DecisionRequest (:func:`paiju.games.decision_request`) is published instead (and the PROMPT
too, when a human owner is still connected). A prompt whose seat leaves ``to_act()``, or whose
legal set changes, is withdrawn with a PROMPT of mask 0 and no options. The last answered and
withdrawn prompts are remembered, so that a retried or crossed ACTION is told what became of it.

>>> from paiju.core.table.common import Common
>>> c = Common("r1", "tricks", None, seed=1, hands=1, clock_ms=1000, robot="random", bots=[0, 1])
>>> p = Prompts(c)
>>> p.sync()
>>> [(q.id, q.seat, q.deadline) for q in p.pending.values()], [type(o).__name__ for o in c.out]
([(1, 0, 1.0)], ['Publish'])
"""

from __future__ import annotations

import itertools
from collections import OrderedDict
from dataclasses import dataclass

from paiju import games
from paiju.core.lifecycle import Phase
from paiju.core.messages import Conn
from paiju.core.table.common import Common
from paiju.core.table.messages import Publish
from paiju.games import ActionSet, GameAction, GameError
from paiju.protocol import Ack, ErrorCode, Prompt, SeatKind

ANSWERED_KEPT = 256  # answered (and withdrawn) prompts remembered: a retried or crossed ACTION is told so


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


class Prompts:
    """The pending prompts of table ``c`` (see the module's docstring)."""

    def __init__(self, c: Common) -> None:
        self.c = c
        self.pending: dict[int, Pending] = {}  # by seat
        self.answered: OrderedDict[int, tuple[int, GameAction]] = OrderedDict()
        self.withdrawn: OrderedDict[int, int] = OrderedDict()  # prompt id -> its controller
        self.ids = itertools.count(1)

    def sync(self) -> None:
        """Prompt the seats the game waits for now, withdrawing the prompts that are no longer
        right (the seat no longer acts, its legal set or its controller changed)."""
        c = self.c
        want = set(c.game.to_act())
        for s in list(self.pending):
            if s not in want:
                self.withdraw(self.pending.pop(s))
        for s in sorted(want):
            legal = c.game.legal(s)
            ctl = c.game.controller(s)
            p = self.pending.get(s)
            if p is not None and p.actions == legal and p.controller == ctl:
                continue
            if p is not None:
                self.withdraw(p)
            st = c.seats[ctl]
            bank = st.bank if st.kind == SeatKind.HUMAN and not st.stand_in else 0.0
            deadline = c.now + c.clock_ms / 1000 + bank
            unix_ms = int((c.epoch + deadline) * 1000)
            p = Pending(next(self.ids), s, ctl, legal, deadline, unix_ms, start=c.now, bank=bank)
            self.pending[s] = p
            self.dispatch(p)

    def dispatch(self, p: Pending) -> None:
        c = self.c
        st = c.seats[p.controller]
        if st.robot_played:
            c.observer.requested(c.game_name)
            request = games.decision_request(
                c.game,
                p.seat,
                room=c.id,
                prompt_id=p.id,
                deadline_ms=p.unix_deadline_ms,
                robot=c.robot_of(p.controller),
                reply_to=c.reply_to,
                legal=p.actions,
            )
            c.out.append(Publish(request))
        conn = st.live
        if conn is not None:
            ms = max(0, int((p.deadline - c.now) * 1000))
            bank = p.bank - max(0.0, c.now - p.start - c.clock_ms / 1000)  # what is left of it
            bank_ms = min(ms, max(0, int(bank * 1000)))
            c.send(conn, Prompt(c.id, p.id, p.seat, ms, p.actions.mask, list(p.actions.options), bank_ms))

    def redispatch(self, controller: int) -> None:
        """The controller of some pending prompts changed hands: tell its new holder."""
        for p in list(self.pending.values()):
            if p.controller == controller:
                self.dispatch(p)

    def withdraw(self, p: Pending) -> None:
        self.withdrawn[p.id] = p.controller
        while len(self.withdrawn) > ANSWERED_KEPT:
            self.withdrawn.popitem(last=False)
        conn = self.c.seats[p.controller].live
        if conn is not None:
            self.c.send(conn, Prompt(self.c.id, p.id, p.seat, 0, 0, []))

    def withdraw_all(self) -> None:
        for p in self.pending.values():
            self.withdraw(p)
        self.pending.clear()

    def answer(self, p: Pending, action: GameAction) -> None:
        """Prompt ``p`` is answered with ``action`` (applied to the game)."""
        self.answered[p.id] = (p.controller, action)
        while len(self.answered) > ANSWERED_KEPT:
            self.answered.popitem(last=False)
        del self.pending[p.seat]

    def find(self, prompt_id: int) -> Pending | None:
        return next((q for q in self.pending.values() if q.id == prompt_id), None)

    def grant_bank(self, i: int) -> None:
        """Seat ``i``'s owner is back: a prompt it was given while away (so without its time
        bank, as after a restart) has the bank the seat has left added to its time."""
        st = self.c.seats[i]
        for p in self.pending.values():
            if p.controller == i and p.bank == 0 and st.bank > 0:
                p.bank = st.bank
                p.deadline += st.bank
                p.unix_deadline_ms += int(st.bank * 1000)

    def not_pending(self, me: int, prompt_id: int, action: GameAction, conn: Conn) -> None:
        """Seat ``me`` answered ``prompt_id``, which is not pending for it: a retry of an answer
        is acknowledged again; anything else is refused (GameError) with what became of it."""
        done = self.answered.get(prompt_id)
        if done is not None and done[0] == me:
            if done[1] == action:
                self.c.send(conn, Ack(prompt_id))  # a retry: acknowledged, not applied twice
                return
            raise GameError(ErrorCode.NO_SUCH_PROMPT, f"prompt {prompt_id} was already answered")
        if self.withdrawn.get(prompt_id) == me:  # the answer crossed the withdrawal on the wire
            raise GameError(ErrorCode.NO_SUCH_PROMPT, f"prompt {prompt_id} was withdrawn first")
        phase = self.c.phase
        if phase is not Phase.PLAYING:
            code = ErrorCode.GAME_OVER if phase is Phase.OVER else ErrorCode.NOT_YOUR_TURN
            raise GameError(code, f"the room is {phase.value}")
        if not any(q.controller == me for q in self.pending.values()):
            raise GameError(ErrorCode.NOT_YOUR_TURN, "you have no decision pending")
        raise GameError(ErrorCode.NO_SUCH_PROMPT, f"prompt {prompt_id} is not yours now")
