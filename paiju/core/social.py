"""What players say and agree on at a table, sans-I/O: the room's chat and the rematch offer.
The room core (paiju/core/table.py) holds one :class:`Chat` and, after its match, a
:class:`Rematch`; it feeds them the players' frames with the time and sends what they return.

Chat: a seated player's line goes to the table (every seat and spectator); a spectator's goes
to the spectators only, so the players never read the gallery during a hand. A line is at most
:attr:`Chat.MAX_LEN` characters (control characters removed, never markup: the client shows it
as text), each player may say :attr:`Chat.BURST` lines at once and one more every
:attr:`Chat.REFILL_S` seconds, and a player may mute another by name (that player's lines are
then not sent to it). The last :attr:`Chat.KEEP` lines of the table and, apart, the last
:attr:`Chat.KEEP` of the spectators stay with the room (a flood from the gallery never pushes
the players' lines out): who joins or resumes gets them again. Chat is not written to the
room's log nor to the match record. :class:`Rate` is the token bucket behind the limits (the
lobby keeps one per client address too, so that fresh connections do not add up).

>>> chat = Chat()
>>> line = chat.say("p1", "ann", 0, "  hello <b>x</b>\\x07 ", now=0.0)
>>> line.text, line.channel, chat.hears(line, "p2", spectator=True)
('hello <b>x</b>', <ChatChannel.TABLE: 0>, True)
>>> chat.mute("p2", "ann", True); chat.hears(line, "p2", spectator=False)
False

Rematch: when a match ends, each human seat is offered a rematch; when every human still at
the table accepts, the room starts a new match with the same people (those who left are
replaced by robots); a refusal, or the offer's time running out, ends it.

>>> r = Rematch({0: "p1", 2: "p3"}, deadline=30.0)
>>> r.answer("p1", True), r.answer("p3", True), r.state
(<RematchState.OFFER: 0>, <RematchState.ACCEPTED: 1>, <RematchState.ACCEPTED: 1>)
"""

from __future__ import annotations

import unicodedata
from collections import deque
from dataclasses import dataclass

from paiju.protocol import ErrorCode, LobbyError
from paiju.protocol.frames import ChatChannel, RematchState

__all__ = ["Chat", "ChatChannel", "Line", "Rematch", "RematchState", "clean"]


@dataclass(frozen=True)
class Line:
    """One line of a room's chat."""

    id: int  # increasing within the room: a client that hears a line twice keeps one
    channel: ChatChannel
    seat: int | None  # the speaker's seat (None: a spectator)
    name: str
    text: str
    player: str  # the speaker's player id (never sent: mutes are by name)


def clean(text: str) -> str:
    """A chat line as kept: without control or format characters, spaces collapsed at its ends.

    >>> clean(" a\\u202eb\\tc\\n ")
    'ab c'
    """
    kept = "".join(" " if c in "\t\n\r" else c for c in text if c in "\t\n\r" or unicodedata.category(c)[0] != "C")
    return " ".join(kept.split(" ")).strip()


class Rate:
    """A token bucket per key: ``burst`` at once, one more every ``refill`` seconds.

    >>> r = Rate(burst=2, refill=1.0)
    >>> r.take("a", 0.0), r.take("a", 0.0), r.take("a", 0.0), r.take("a", 0.5), r.take("b", 0.0)
    (0.0, 0.0, 1.0, 0.5, 0.0)
    """

    def __init__(self, burst: int, refill: float) -> None:
        self.burst = float(burst)
        self.refill = refill
        self.buckets: dict[str, tuple[float, float]] = {}  # key -> (tokens, at)

    def take(self, key: str, now: float) -> float:
        """One token of ``key`` at ``now``: 0.0 when taken, else the seconds until one is there."""
        tokens, at = self.buckets.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - at) / self.refill)
        if tokens < 1.0:
            return (1.0 - tokens) * self.refill
        self.buckets[key] = (tokens - 1.0, now)
        if len(self.buckets) > 10_000:  # full buckets tell nothing: forget them
            for k in [k for k, (_, t) in self.buckets.items() if now - t > self.burst * self.refill]:
                del self.buckets[k]
        return 0.0

    def forget(self, key: str) -> None:
        self.buckets.pop(key, None)


class Chat:
    """A room's chat: limits, mutes and the last lines (the table's and the gallery's apart)."""

    MAX_LEN = 200
    BURST = 5
    REFILL_S = 2.0
    KEEP = 50
    # all the connections of one client address together: twice a player's rate (the lobby's)
    ADDRESS_BURST = 2 * BURST
    ADDRESS_REFILL_S = REFILL_S / 2

    def __init__(self) -> None:
        self.kept: dict[ChatChannel, deque[Line]] = {ch: deque(maxlen=self.KEEP) for ch in ChatChannel}
        self._next = 1
        self._rate = Rate(self.BURST, self.REFILL_S)  # per player
        self._muted: dict[str, set[str]] = {}  # player -> names it does not hear

    def say(self, player: str, name: str, seat: int | None, text: str, now: float) -> Line:
        """Player ``player`` (at ``seat``, None: watching) says ``text`` at time ``now``; the
        line to send, or LobbyError (BAD_FIELD: empty or too long; RATE_LIMITED)."""
        text = clean(text)
        if not text:
            raise LobbyError(ErrorCode.BAD_FIELD, "an empty chat line")
        if len(text) > self.MAX_LEN:
            raise LobbyError(ErrorCode.BAD_FIELD, f"a chat line has at most {self.MAX_LEN} characters, not {len(text)}")
        wait = self._rate.take(player, now)
        if wait > 0:
            raise LobbyError(ErrorCode.RATE_LIMITED, f"too many chat lines: wait {wait:.1f} s")
        channel = ChatChannel.TABLE if seat is not None else ChatChannel.SPECTATORS
        line = Line(self._next, channel, seat, name, text, player)
        self._next += 1
        self.kept[channel].append(line)
        return line

    @property
    def lines(self) -> list[Line]:
        """The lines kept, the table's and the gallery's, in the order they were said."""
        return sorted((*self.kept[ChatChannel.TABLE], *self.kept[ChatChannel.SPECTATORS]), key=lambda line: line.id)

    def mute(self, player: str, name: str, on: bool) -> None:
        """Player ``player`` stops (``on``) or starts again hearing the lines of ``name``."""
        muted = self._muted.setdefault(player, set())
        if on:
            muted.add(name)
        else:
            muted.discard(name)

    def hears(self, line: Line, player: str, *, spectator: bool) -> bool:
        """Whether ``player`` (a spectator, or seated) receives ``line``."""
        if line.channel == ChatChannel.SPECTATORS and not spectator:
            return False  # the gallery's chat never reaches the players
        return line.name not in self._muted.get(player, ())

    def forget(self, player: str) -> None:
        """The player left the room: its rate and mutes go."""
        self._rate.forget(player)
        self._muted.pop(player, None)


class Rematch:
    """The rematch offer after a match: ``humans`` maps each human seat to its player."""

    def __init__(self, humans: dict[int, str], deadline: float) -> None:
        self.humans = dict(humans)
        self.deadline = deadline
        self.accepted: set[int] = set()
        self.left: set[int] = set()  # seats whose player left or dropped during the offer
        self.state = RematchState.OFFER if humans else RematchState.DECLINED

    def seat_of(self, player: str) -> int | None:
        return next((s for s, p in self.humans.items() if p == player), None)

    def answer(self, player: str, accept: bool) -> RematchState:
        """The player's answer; the offer's state after it."""
        seat = self.seat_of(player)
        if self.state is not RematchState.OFFER or seat is None:
            raise LobbyError(ErrorCode.WRONG_STATE, "no rematch is offered to you now")
        if not accept:
            self.state = RematchState.DECLINED
        else:
            self.accepted.add(seat)
            self._settle()
        return self.state

    def leave(self, player: str) -> RematchState:
        """The player left or dropped during the offer: a robot will take its seat."""
        seat = self.seat_of(player)
        if seat is not None and self.state is RematchState.OFFER:
            del self.humans[seat]
            self.accepted.discard(seat)
            self.left.add(seat)
            if not self.humans:
                self.state = RematchState.DECLINED
            else:
                self._settle()
        return self.state

    def tick(self, now: float) -> RematchState:
        if self.state is RematchState.OFFER and now >= self.deadline:
            self.state = RematchState.EXPIRED
        return self.state

    def _settle(self) -> None:
        if self.accepted == set(self.humans):
            self.state = RematchState.ACCEPTED
