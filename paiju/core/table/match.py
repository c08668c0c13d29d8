"""A table's match, from its start to its end: hand ``h`` is ``create(game, seed, rules,
hand=h)`` (so the dealer rotates), each answer to a prompt is applied to the game and its events
emitted, the RESULT of a hand follows its HAND_END event, and after the last hand (MATCH_END,
after which no event is ever added) those connected go free while a seated player whose
connection is down keeps the room for its resume until its grace period runs out; then, or when
no human holds a seat and nobody watches, the table closes. A table whose match has not started
within ``waiting_expiry`` closes, telling those in it (ERROR ROOM_EXPIRED). A full table whose
robots no worker serves yet (its roster says so: a `paiju bots` that registers late) waits up
to ``robot_wait`` for one, ROOM_STATE's ``waiting`` saying why, then starts, or closes telling
those in it (ERROR ROBOTS_UNAVAILABLE).

>>> from paiju.core.table.common import Common
>>> from paiju.core.table.prompts import Prompts
>>> from paiju.core.table.standins import StandIns
>>> from paiju.core.table.stream import Stream
>>> from paiju.core.table.talk import Talk
>>> c = Common("r1", "tricks", None, seed=1, hands=1, clock_ms=1000, robot="random", bots=[0, 1])
>>> stream, prompts = Stream(c), Prompts(c)
>>> match = Match(c, stream, prompts, StandIns(c, stream, prompts), Talk(c))
>>> match.start()
>>> c.phase.value, len(prompts.pending)
('playing', 1)
"""

from __future__ import annotations

from typing import Any

from paiju import games
from paiju.core.lifecycle import Phase
from paiju.core.messages import Conn
from paiju.core.roomlog import Applied, Bank, Hand
from paiju.core.table.common import Common
from paiju.core.table.messages import Append, Dealt, Decide, Extra, Reply, SealLog
from paiju.core.table.prompts import Pending, Prompts
from paiju.core.table.standins import StandIns
from paiju.core.table.stream import Stream
from paiju.core.table.talk import Talk
from paiju.games import GameAction, GameError, GameEvent
from paiju.protocol import Ack, Error, ErrorCode, LobbyError, Result, RoomEvent, SeatKind

ROSTER_POLL = 0.25  # seconds between two looks at the roster while a full table waits for its robots


class Match:
    """The match of table ``c`` (see the module's docstring), and the times it waits for: the
    start of a quick-play room (``start_at``), the expiry of a room still waiting
    (``expires_at``), the next hand after a pause (``next_hand_at``) and, while a full table waits
    for its robots' worker, the next look at the roster (``robots_check_at``) until ``robots_until``."""

    def __init__(self, c: Common, stream: Stream, prompts: Prompts, standins: StandIns, talk: Talk) -> None:
        self.c = c
        self.stream = stream
        self.prompts = prompts
        self.standins = standins
        self.talk = talk
        self.start_at: float | None = c.now + c.limits.quickplay_wait if c.quickplay else None
        self.expires_at: float | None = c.now + c.limits.waiting_expiry  # while the match has not started
        self.next_hand_at: float | None = None
        self.robots_check_at: float | None = None
        self.robots_until: float | None = None
        self.extras: dict[int, dict[str, Any]] = {}  # by hand: Extra's detail, until the hand ends

    # ------------------------------------------------------------------ hands
    def start(self) -> None:
        c = self.c
        if self.held_for_robots():
            return
        c.phase = Phase.PLAYING
        self.start_at = self.expires_at = None
        if c.logged:  # the seats as the match starts (robot seats set at creation emit no SEAT event)
            self.stream.log_seats()
        self.begin_hand()

    def unserved(self) -> list[str]:
        """The robots of the robot seats that no worker serves now (``game/robot``)."""
        c = self.c
        bots = {c.robot_of(i) for i, s in enumerate(c.seats) if s.kind == SeatKind.BOT}
        return sorted(f"{c.game_name}/{r}" for r in bots if not c.roster.serves(c.game_name, r))

    def held_for_robots(self) -> bool:
        """Whether the full table waits, before its first deal, for a worker that serves its
        robots (at most ``robot_wait`` from the first time it would have started)."""
        c = self.c
        missing = self.unserved() if c.limits.robot_wait > 0 else []
        if not missing:
            if c.waiting:  # held until now: those in the room see it is not any more
                c.waiting = ""
                self.robots_until = self.robots_check_at = None
                self.stream.restate()
            return False
        if self.robots_until is None:
            self.robots_until = c.now + c.limits.robot_wait
            self.start_at = self.expires_at = None
            wait = c.limits.robot_wait
            c.waiting = f"waiting for a worker that serves {', '.join(missing)} (up to {wait:g} s)"
            self.stream.restate()
        self.robots_check_at = c.now + ROSTER_POLL
        return True

    def look_for_robots(self) -> None:
        """The roster again, while the full table waits for its robots' worker: start, wait
        on, or close once ``robots_until`` has passed; a seat freed meanwhile (its player left,
        the creator swapped a robot out) ends the wait: the table waits for players again."""
        c = self.c
        self.robots_check_at = None
        if c.closed or c.phase is not Phase.WAITING or self.robots_until is None:
            return
        if c.free_seats():
            c.waiting = ""
            self.robots_until = None
            self.expires_at = c.now + c.limits.waiting_expiry
            self.stream.restate()
            return
        missing = self.unserved()
        if missing and c.now >= self.robots_until:
            wait = c.limits.robot_wait
            self.close_telling(
                ErrorCode.ROBOTS_UNAVAILABLE, f"room {c.id}: no worker served {', '.join(missing)} within {wait:g} s"
            )
            return
        self.start()

    def begin_hand(self) -> None:
        c = self.c
        if c.hand > 0:
            c.game = games.create(c.game_name, c.seed, c.rules, hand=c.hand)
        c.out.append(Dealt(c.hand, c.game))  # a slow record (bridge's par) may start now
        if c.logged:
            c.out.append(Append(Hand(c.hand)))
        for st in c.seats:
            st.bank = c.bank_ms / 1000
        self.stream.open_hand()
        for ev in c.game.events:
            self.stream.emit(ev)
        if c.game.is_over:  # a hand over at the deal (possible in some games)
            self.end_hand()
        else:
            self.prompts.sync()

    def resume(self) -> None:
        """A table rebuilt from its log carries on where the log stops."""
        c = self.c
        if c.game.is_over:
            if c.hand < c.hands:  # between two hands
                self.next_hand_at = c.now + max(c.limits.hand_pause, 0.0)
        else:
            c.out.append(Dealt(c.hand, c.game))  # its slow records start again
            self.prompts.sync()

    def extra(self, m: Extra) -> None:
        c = self.c
        if m.hand == c.hand and c.phase is Phase.PLAYING and not c.game.is_over:
            self.extras[m.hand] = {**self.extras.get(m.hand, {}), **m.detail}

    # ------------------------------------------------------------------ answers
    def reply(self, m: Reply) -> None:
        c = self.c
        me = c.seat_of(m.player)
        if me is None:
            raise LobbyError(ErrorCode.NOT_IN_ROOM, "only a seated player acts")
        st = c.seats[me]
        if st.stand_in:  # the owner is back at the controls
            self.standins.set_robot(me, False)
        st.timeouts = 0
        p = self.prompts.find(m.prompt_id)
        if p is None or p.controller != me:
            self.prompts.not_pending(me, m.prompt_id, m.action, m.conn)
            return
        over = c.now - p.start - c.clock_ms / 1000
        bank = st.bank
        if p.bank > 0 and over > 0:  # the move ran over its own time: the rest came from the bank
            st.bank = max(0.0, st.bank - over)
        try:
            self.apply(p, m.action, m.conn)
        except GameError:
            st.bank = bank  # refused: nothing is spent
            raise

    def decide(self, m: Decide) -> None:
        c = self.c
        p = self.prompts.pending.get(m.seat)
        if p is None or p.id != m.prompt_id or not c.seats[p.controller].robot_played or p.ready is not None:
            return  # late, or the seat's owner took it back, or answered already
        c.observer.robot_latency(c.game_name, c.now - p.start)
        at = p.start + self.standins.robot_wait(p)
        if at > c.now:  # paced: played by a Tick at ``at``
            p.ready = (m.action, at)
            return
        self.apply(p, m.action)

    def apply(self, p: Pending, action: GameAction, conn: Conn | None = None) -> None:
        """Apply ``action`` for prompt ``p`` (GameError: nothing changed), then carry on."""
        c = self.c
        events = c.game.apply(p.seat, action)
        c.observer.applied(c.game_name)
        if c.logged:
            c.out.append(Append(Applied(p.seat, action.code, bytes(action.cards), p.id)))
            if p.bank > 0 and c.log_events:  # the prompt could draw on the bank: what is left goes in the log too
                c.out.append(Append(Bank(p.controller, int(c.seats[p.controller].bank * 1000))))
        self.prompts.answer(p, action)
        if conn is not None:
            c.send(conn, Ack(p.id))
        for ev in events:
            self.stream.emit(ev)
        if c.game.is_over:
            self.end_hand()
        else:
            self.prompts.sync()

    def end_hand(self) -> None:
        c = self.c
        self.prompts.withdraw_all()
        out = c.game.outcome()
        c.totals = [t + s for t, s in zip(c.totals, out.scores, strict=True)]
        final = c.hand + 1 >= c.hands
        detail = {**out.detail, **games.details(c.game), **self.extras.pop(c.hand, {})}
        # the last hand's RESULT reveals the seed and salt that the commitment promised
        seed, salt = (c.seed, c.salt.hex()) if final else (None, "")
        result = Result(c.id, c.hand, list(out.scores), list(c.totals), list(out.hands), final, detail, seed, salt)
        self.stream.emit(GameEvent(RoomEvent.HAND_END, None, arg=c.hand), result)
        self.stream.archive(c.hand, result)
        c.hand += 1
        if not final:
            if c.limits.hand_pause > 0:
                self.next_hand_at = c.now + c.limits.hand_pause
            else:
                self.begin_hand()
            return
        self.stream.final_result = result
        self.stream.emit(GameEvent(RoomEvent.MATCH_END, None, arg=c.hand))
        self._finish()

    # ------------------------------------------------------------------ the end
    def _finish(self) -> None:
        """The match is over: nothing more is emitted. Those connected have had everything
        and go free (they may create or join another room at once); a seated player whose
        connection is down keeps the room until it resumes or its grace period, at most
        ``grace`` from now, runs out."""
        c = self.c
        c.phase = Phase.OVER
        self.prompts.pending.clear()
        self.next_hand_at = None
        if c.logged:
            c.out.append(SealLog())
        until = c.now + c.limits.grace
        offered: dict[int, tuple[str, Conn]] = {}
        for i, st in enumerate(c.seats):
            if st.player is None or not st.member:
                continue
            if st.live is None:
                st.kind = SeatKind.AWAY
                st.away_until = until if st.away_until is None else min(st.away_until, until)
            else:
                if st.rematch:
                    offered[i] = (st.player, st.live)
                c.let_go(st)
        self.talk.offer(offered)
        for player in list(c.spectators):  # (a dropped watcher waits for its resume)
            c.unwatch(player)
        self.close_if_done()

    def close_if_done(self) -> None:
        """After the match: close once nobody is waited for (a resume, a rematch's answer)."""
        c = self.c
        if self.talk.open():
            return  # the room stays while the rematch is offered
        if c.phase is Phase.OVER and not c.watchers and all(s.away_until is None for s in c.seats):
            self.close()

    def maybe_close(self) -> None:
        """Close when no human holds a seat and nobody watches: nobody is left to play for."""
        c = self.c
        if c.closed:
            return
        if not c.humans() and not c.watchers:
            self.close()

    def expire(self) -> None:
        """The match did not start in time: those in the room are told (ERROR ROOM_EXPIRED,
        which answers no frame of theirs) and go free; the room closes."""
        c = self.c
        self.close_telling(ErrorCode.ROOM_EXPIRED, f"room {c.id}: no match within {c.limits.waiting_expiry:g} s")

    def close_telling(self, code: ErrorCode, why: str) -> None:
        """Close the table before its match, telling those in it (an ERROR of ``code`` that
        answers no frame of theirs); they go free."""
        c = self.c
        err = Error.refusing(LobbyError(code, why))
        for conn in [*(s.live for s in c.seats), *c.spectators.values()]:
            if conn is not None:
                c.send(conn, err)
        self.close()

    def close(self) -> None:
        c = self.c
        c.closed = True
        c.phase = Phase.OVER
        self.robots_check_at = None
        self.prompts.pending.clear()
        for st in c.seats:
            c.let_go(st)
        for player in list(c.watchers):
            c.unwatch(player)
