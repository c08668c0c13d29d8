"""Table talk: the room's chat (paiju/core/social.py's :class:`~paiju.core.social.Chat`: a
seated player's lines to the table, a watcher's to the watchers) and the rematch offered to the
humans still connected when the match ends (accepted by all: :class:`Rematched`; declined,
left or run out: the room may close).

>>> from paiju.core.table.common import Common
>>> c = Common("r1", "tricks", None, seed=1, hands=1, clock_ms=1000, robot="random")
>>> c.watchers["ann"], c.spectators["ann"] = "Ann", 7
>>> talk = Talk(c)
>>> talk.say(SayLine("ann", 7, "hello"))
>>> c.out
[Send(conn=7, frame=ChatLine(room='r1', id=1, channel=1, seat=None, speaker='Ann', text='hello'))]
"""

from __future__ import annotations

from collections.abc import Callable

from paiju.core.messages import Conn
from paiju.core.social import Chat, Line, Rematch, RematchState
from paiju.core.table.common import Common
from paiju.core.table.messages import AnswerRematch, MuteName, Rematched, SayLine
from paiju.protocol import ChatLine, ErrorCode, LobbyError, RematchOffer


def _nothing() -> None:
    pass


class Talk:
    """The chat and the rematch offer of table ``c`` (see the module's docstring).

    ``settled`` is called when a rematch offer is settled (the table may then close)."""

    def __init__(self, c: Common) -> None:
        self.c = c
        self.chat = Chat()  # not in the log: a rebuilt room starts with an empty chat
        self.rematch: Rematch | None = None  # offered when the match ends
        self.conns: dict[str, Conn] = {}  # the humans offered a rematch, by player
        self.names: dict[str, str] = {}
        self.settled: Callable[[], None] = _nothing

    # ------------------------------------------------------------------ chat
    def say(self, m: SayLine) -> None:
        """A line of chat: a seated player's to the table, a watcher's to the watchers."""
        c = self.c
        seat = c.seat_of(m.player)
        if seat is None and m.player in self.conns and self.rematch is not None:
            seat = self.rematch.seat_of(m.player)  # a player of the ended match, offered a rematch
        if seat is not None:
            name = c.seats[seat].name or "player"
        elif m.player in c.watchers:
            name = c.watchers[m.player]
        else:
            raise LobbyError(ErrorCode.NOT_IN_ROOM, f"not in room {c.id}")
        line = self.chat.say(m.player, name, seat, m.text, c.now)
        frame = self._frame(line)
        for st in c.seats:
            conn = st.live
            if conn is not None and st.player is not None and self.chat.hears(line, st.player, spectator=False):
                c.send(conn, frame)
        for player, conn in c.spectators.items():
            if self.chat.hears(line, player, spectator=True):
                c.send(conn, frame)
        # after the match the humans offered a rematch still talk (they are no longer seated)
        for player, conn in self.conns.items():
            if c.seat_of(player) is None and self.chat.hears(line, player, spectator=False):
                c.send(conn, frame)

    def mute(self, m: MuteName) -> None:
        c = self.c
        if c.seat_of(m.player) is None and m.player not in c.watchers and m.player not in self.conns:
            raise LobbyError(ErrorCode.NOT_IN_ROOM, f"not in room {c.id}")
        self.chat.mute(m.player, m.name, m.on)

    def _frame(self, line: Line) -> ChatLine:
        return ChatLine(self.c.id, line.id, int(line.channel), line.seat, line.name, line.text)

    def history(self, conn: Conn, player: str, *, spectator: bool) -> None:
        """The room's last chat lines, to one who joins or resumes (a known id is a duplicate)."""
        for line in self.chat.lines:
            if self.chat.hears(line, player, spectator=spectator):
                self.c.send(conn, self._frame(line))

    # ------------------------------------------------------------------ rematch
    def offered(self, player: str) -> bool:
        """Whether ``player`` is a human of the ended match offered a rematch."""
        return player in self.conns

    def open(self) -> bool:
        """Whether a rematch is offered and not settled (the room stays meanwhile)."""
        return self.rematch is not None and self.rematch.state is RematchState.OFFER

    def offer(self, humans: dict[int, tuple[str, Conn]]) -> None:
        """The match is over: each human still connected is offered a rematch."""
        c = self.c
        if c.limits.rematch_wait <= 0 or not humans:
            return
        self.rematch = Rematch({s: p for s, (p, _) in humans.items()}, c.now + c.limits.rematch_wait)
        self.conns = {p: conn for p, conn in humans.values()}
        self.names = {p: c.seats[s].name or "player" for s, (p, _) in humans.items()}
        self._tell()

    def _tell(self) -> None:
        r = self.rematch
        if r is None:
            return
        left = max(0, round((r.deadline - self.c.now) * 1000)) if r.state is RematchState.OFFER else 0
        if r.state is not RematchState.ACCEPTED:  # (an acceptance is told by the caller, with the new room)
            frame = RematchOffer(self.c.id, int(r.state), left, sorted(r.accepted), None, sorted(r.left))
            for conn in self.conns.values():
                self.c.send(conn, frame)
        if r.state is not RematchState.OFFER:
            self._end()

    def _end(self) -> None:
        """The offer is settled: accepted (the caller opens the new match), or not."""
        r = self.rematch
        assert r is not None
        if r.state is RematchState.ACCEPTED:
            humans = {s: (p, self.names[p], self.conns[p]) for s, p in r.humans.items()}
            self.c.out.append(Rematched(self.c.id, humans, frozenset(r.left)))
        self.conns = {}
        self.settled()

    def answer(self, m: AnswerRematch) -> None:
        if self.rematch is None:
            raise LobbyError(ErrorCode.WRONG_STATE, f"no rematch is offered in room {self.c.id}")
        self.rematch.answer(m.player, m.accept)
        self._tell()

    def leave(self, player: str) -> None:
        """A human left or dropped while the rematch was offered: a robot takes its seat."""
        r = self.rematch
        if r is None or r.state is not RematchState.OFFER or r.seat_of(player) is None:
            return
        r.leave(player)
        self.conns.pop(player, None)
        self._tell()

    def tick(self) -> None:
        """The offer's time runs out (at ``deadline``)."""
        r = self.rematch
        if r is not None and r.state is RematchState.OFFER and r.tick(self.c.now) is not RematchState.OFFER:
            self._tell()

    def deadline(self) -> float | None:
        """When the offer runs out, while it is open."""
        return self.rematch.deadline if self.rematch is not None and self.open() else None
