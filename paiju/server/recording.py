"""What a room hands to the records (the server's side of :mod:`paiju.records.recorder`).

A room's log entries (paiju/core/roomlog.py: the stream that ``--redis`` also writes to Redis) go
through a :class:`Follower`, which turns them into records: the actions of each hand, and at
its HAND_END (with its RESULT) one hand record; at MATCH_END the end of the match; a room that
closes before its last hand ends its match as abandoned. :meth:`Follower.feed` returns the
future of the record a HAND_END or MATCH_END made, done once it is committed: the room sends
the RESULT only then (paiju/server/room.py). A hand whose analysis (bridge's par, the trick
game's solved values) is not worked out when it ends is recorded at once, marked pending; the
analysis is added to it when it comes (:meth:`Follower.extra`), or by the server that
restarts after a crash (paiju/server/analyses.py). Who holds each seat comes from the
log's seat entries: an account (``player.extra["account"]`` of the seat's player), a guest
(its name), or the room's robot under its account name ``NAME@VERSION``.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from paiju import games
from paiju.core import roomlog
from paiju.core.lifecycle import Phase
from paiju.core.lobby import Player
from paiju.protocol import Result, RoomEvent, SeatKind
from paiju.records import Database, matches
from paiju.records.matches import HandRecord, MatchInfo, SeatHolder
from paiju.records.models import GUEST, PLAYING, ROBOT, USER
from paiju.records.recorder import Recorder
from paiju.server.identity import account_of
from paiju.server.room import Extras

log = logging.getLogger("paiju.records")
RobotLabel = Callable[[str, str], str]  # (game, robot name) -> "NAME@VERSION"


# read for every entry of every room's log (an IntEnum member's read costs more than a global's)
_EMITTED, _APPLIED = roomlog.Emitted, roomlog.Applied
_HAND_END, _MATCH_END = RoomEvent.HAND_END, RoomEvent.MATCH_END


def default_label(game: str, robot: str) -> str:
    return f"{robot}@1"


class Follower:
    """One room's log entries -> the recorder."""

    def __init__(
        self,
        recorder: Recorder,
        room_id: str,
        head: roomlog.Head,
        players: Mapping[str, Player],
        label: RobotLabel = default_label,
        *,
        seats: Iterable[roomlog.SeatRecord] = (),
        actions: Iterable[tuple[int, int, bytes]] = (),
        totals: Iterable[int] = (),
        hands: int = 0,
    ) -> None:
        self.recorder = recorder
        self.info = MatchInfo(
            room_id, head.game, head.ruleset, dict(head.options), head.seed, head.hands, head.created, head.salt
        )
        self.players = players
        self.robot = head.robot
        self.label = label
        self.seats = tuple(seats)
        self.actions = list(actions)  # of the hand in play
        self.totals = list(totals)
        self.hands = hands  # hands ended
        self.over = False
        # the hands that end before their extra (paiju/server/room.py: bridge's par...) is
        # worked out: recorded as pending, the extra added when it comes
        self.waiting: set[int] = set()

    @classmethod
    def restored(
        cls, recorder: Recorder, r: roomlog.Replayed, players: Mapping[str, Player], label: RobotLabel
    ) -> Follower:
        """The follower of a room rebuilt from its log: its seats, the actions of its hand in
        play so far, the hands already over (already recorded before the restart)."""
        return cls(
            recorder,
            r.room_id,
            r.head,
            players,
            label,
            seats=r.seats,
            # a finished hand's, when between hands: the next deal resets them
            actions=[(s, a.code, a.cards) for s, a in r.game.log],
            totals=r.totals,
            hands=len(r.results),
        )

    def feed(self, e: roomlog.Entry) -> asyncio.Future[bool] | None:
        """Follow one entry; a HAND_END's or MATCH_END's record: its future (done once committed)."""
        if isinstance(e, _EMITTED):  # the most frequent first: events, then actions
            r = e.result
            code = e.event.code
            if code == _HAND_END and r is not None:
                self.hands += 1
                self.totals = list(r.totals)
                pending = r.hand in self.waiting
                hand = HandRecord(r.hand, list(self.actions), r.scores, r.hands, dict(r.detail), pending)
                return self.recorder.hand_ended(self.info, hand, self.holders())
            if code == _MATCH_END:
                self.over = True
                return self.recorder.match_ended(self.info, self.holders(), list(self.totals), complete=True)
        elif isinstance(e, _APPLIED):
            self.actions.append((e.seat, e.code, e.cards))  # plain: pickled to the records' writer
        elif isinstance(e, roomlog.Seats):
            self.seats = e.seats
        elif isinstance(e, roomlog.Hand):
            self.actions = []
        return None

    def recover(self, r: Result, actions: list[tuple[int, int, bytes]], *, pending: bool) -> None:
        """Record hand ``r.hand`` (its RESULT ``r``, its ``actions``), found in the room's log
        and not in the records after a restart."""
        hand = HandRecord(r.hand, list(actions), r.scores, r.hands, dict(r.detail), pending)
        self.recorder.hand_ended(self.info, hand, self.holders())

    def writing(self, within: float) -> bool:
        """Whether the records are being written (see :meth:`Recorder.writing`)."""
        return self.recorder.writing(within)

    def wait(self, hand: int) -> None:
        """Hand ``hand`` ends before its extra is worked out: it is recorded as pending."""
        self.waiting.add(hand)

    def extra(self, hand: int, detail: dict[str, Any]) -> None:
        """Hand ``hand``'s extra is worked out: added to its record when that was written as
        pending (else the hand's RESULT, and so its record, already has it)."""
        if hand in self.waiting:
            self.waiting.discard(hand)
            self.recorder.analysed(self.info, hand, detail)

    def closed(self) -> None:
        """The room closed: a match that did not reach its end is abandoned."""
        if not self.over and self.hands:
            self.over = True
            self.recorder.match_ended(self.info, self.holders(), list(self.totals), complete=False)

    def holders(self) -> list[SeatHolder]:
        try:
            robot = self.label(self.info.game, self.robot)
        except KeyError:  # a robot this process's registry does not know (served by another worker)
            robot = default_label(self.info.game, self.robot)
        out = []
        for s in self.seats:
            p = self.players.get(s.player) if s.player is not None else None
            if s.kind in (SeatKind.HUMAN, SeatKind.AWAY) and s.player is not None:
                account = account_of(p) if p is not None else None
                out.append(SeatHolder(USER, account) if account else SeatHolder(GUEST, s.name or "player"))
            else:
                out.append(SeatHolder(ROBOT, robot))
        return out


async def recover(follower: Follower, r: roomlog.Replayed, db: Database, extras: Extras | None) -> None:
    """Record the hands of rebuilt room ``r`` that its log holds and the records do not: a
    server killed after a hand's log entries were written and before its record was committed
    (its RESULT had not gone out; a resume now sends it). Their analyses are worked out again."""
    if r.phase is Phase.OVER:  # the log holds its end: recorded (once) if the records do not
        follower.over = True
    if not r.results:
        return
    try:
        have = await matches.recorded_hands(db, r.room_id, r.head.created)
        status = await matches.match_status(db, r.room_id, r.head.created) if r.phase is Phase.OVER else None
    except Exception as e:  # the records are not the game: the room goes on
        log.error("room %s: its recorded hands not read: %s: %s", r.room_id, type(e).__name__, e)
        return
    for res in r.results:
        if res.hand in have:
            continue
        work = None
        if extras is not None:
            work = extras(games.create(r.game_name, r.head.seed, r.rules, hand=res.hand), r.head.hands)
        follower.recover(res, r.logs.get(res.hand, []), pending=work is not None)
        if work is not None:
            work.add_done_callback(functools.partial(_analysed, follower, res.hand))
        log.warning("room %s: hand %d was in its log but not in the records: recorded now", r.room_id, res.hand)
    if status == PLAYING:
        follower.recorder.match_ended(follower.info, follower.holders(), list(r.totals), complete=True)
        log.warning("room %s: its match's end was in its log but not in the records: recorded now", r.room_id)


def _analysed(follower: Follower, hand: int, fut: asyncio.Future[dict[str, Any]]) -> None:
    """A recovered hand's analysis is worked out: added to its record (empty when it failed)."""
    ok = not fut.cancelled() and fut.exception() is None
    follower.recorder.analysed(follower.info, hand, fut.result() if ok else {})
