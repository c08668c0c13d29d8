"""A room: the asyncio shell of a :class:`~paiju.core.table.Table` (the match's sans-I/O core).

The shell feeds the table its inputs as they come (the lobby's JOIN, LEAVE, ACTION, a
drop or a resume, the robots' decisions) and a :class:`~paiju.core.table.Tick` when the
table's next deadline comes, and carries out the outputs: frames to the connections,
requests on the bus, the room's log, the lobby's record of who is where, the room's end.
Everything runs on the event loop, so the table is never touched concurrently.

With a :class:`~paiju.server.storage.Journal` (``paiju serve --redis``) the log entries of an
input are appended at once and its frames go out, in order, only once those entries are
written (:meth:`Journal.sync`, bounded): a room rebuilt from its log after a restart is never
behind what its players saw. Requests to the robots do not wait for the log.

With a :class:`~paiju.server.recording.Follower` (a server that keeps records) the same log entries
also go to the records: finished hands and matches are written to the database, and the frames
from a hand's HAND_END on (its RESULT, and everything the room sends after them) go out only
once that hand's record is committed (bounded by :data:`RECORD_WAIT`): a hand any client saw
end is in the database, whenever the server is killed. The room goes on meanwhile (its table
takes inputs; the robots get their requests); only its frames wait, in order, in the courier.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections import deque
from collections.abc import Callable
from typing import Any, Protocol, cast

from paiju.bus.memory import RoomBus
from paiju.core.roomlog import Emitted, Entry
from paiju.core.table import (
    Append,
    Archive,
    Bound,
    Close,
    Dealt,
    Extra,
    Publish,
    Refused,
    Rematched,
    Resume,
    SealLog,
    Send,
    Table,
    TableIn,
    TableOut,
    Tick,
    Unbound,
)
from paiju.protocol import Ack, Error, Event, Frame, Result, encode
from paiju.server import metrics
from paiju.server.connection import Connection
from paiju.server.replays import Replays, pack
from paiju.server.runner import Runner
from paiju.server.storage import Journal

log = logging.getLogger("paiju.room")
# nothing for their reader to answer: they may wait (Limits.linger) for the frames that follow
_MAY_WAIT = frozenset({Event, Result, Ack})
RECORD_WAIT = 10.0  # seconds a RESULT waits for its hand's record with no batch written (a database down: it goes)
RECORD_CAP = 120.0  # seconds it waits at most while the records are being written, slowly (a busy machine)


class LogReader(Protocol):
    """Reads the room's log entries as they come (paiju/server/recording.py's Follower: into the records)."""

    def feed(self, entry: Entry) -> asyncio.Future[bool] | None:
        """Follow one entry; for a record that the frames after it must wait for, its future."""

    def wait(self, hand: int) -> None:
        """Hand ``hand`` ends (its HAND_END is fed next) before its extra is worked out."""

    def extra(self, hand: int, detail: dict[str, Any]) -> None:
        """Hand ``hand``'s extra is worked out (``detail``; empty when it failed)."""

    def writing(self, within: float) -> bool:
        """Whether the records are being written: the writer started or finished a batch within ``within`` seconds."""


Extras = Callable[[Any, int], "asyncio.Future[dict[str, Any]] | None"]
"""What the records want worked out from a deal, off the event loop: ``extras(game, hands)``
starts it (in a process) for the ``game`` just dealt, of a match of ``hands`` hands, and
returns its future (of this event loop), or None (nothing for this game). paiju/cli/serve.py
passes the robots' (bridge's par, the trick game's solved value)."""


class Room:
    """``Room(table, bus=..., tell=..., on_close=...)``: runs ``table`` on the event loop.

    ``tell`` hands the lobby (paiju/core/lobby.py) what the table says of its players
    (:class:`~paiju.core.table.Bound`, :class:`~paiju.core.table.Unbound`, as they are); ``on_close(room)`` is
    called once when the table closes.
    """

    def __init__(
        self,
        table: Table,
        *,
        bus: RoomBus,
        tell: Callable[[Bound | Unbound], None],
        on_close: Callable[[Room], None],
        journal: Journal | None = None,
        follower: LogReader | None = None,
        replays: Replays | None = None,
        extras: Extras | None = None,
        on_rematch: Callable[[Room, Rematched], None] | None = None,
    ) -> None:
        self.table = table
        self.on_rematch = on_rematch
        self.follower = follower
        self.replays = replays
        self.id = table.id
        self.bus = bus
        self.tell = tell
        self.on_close = on_close
        self.journal = journal
        self.extras = extras
        self._extras: dict[int, asyncio.Future[dict[str, Any]]] = {}  # by hand, while being worked out
        self.closed = False
        # feeds the table, carries out its outputs and rings it at its next deadline
        self.runner: Runner[TableIn, TableOut, Refused | None] = Runner(
            table, Tick(), self._carry_out, stopped=lambda: self.closed
        )
        # what waits (the courier's batches, in order): for the log to be written (with a
        # journal), for the bus to take a request, or for a hand's records. A batch of frames
        # that waits only for records goes out from the records' callbacks; one that awaits
        # (the bus, the journal) is carried out by a courier task, started for it and ending
        # when nothing is left (a room of people alone never needs one)
        self._queue: deque[_Batch] = deque()
        self._busy = False  # the queue's first batch is being carried out (by the task, or waits)
        self._stopped = False  # the server stops: what is held is dropped
        self._wait: _Recorded | None = None  # the records the first batch waits for
        self._held = 0  # batches given to the courier and not yet carried out
        self._sends_held = 0  # of them, those with frames to send: the frames after them follow them
        self._courier: asyncio.Task[None] | None = None
        self._seal = False  # the log is sealed once the courier has carried out what it holds
        self._idle: asyncio.Event | None = None  # set when the courier holds nothing (while awaited)
        # the hand's events encoded as they were sent, by id (the frame kept: its id is not
        # reused meanwhile), so that its replay (an Archive) encodes none of them again
        self._events: dict[int, tuple[Event, bytes]] = {}
        # with a log: the connections this room queued frames for, flushed before the log is
        # sealed (a frame still queued, lingering, when the node is killed would be lost: a
        # sealed room is rebuilt nowhere, and its player would never hear the match's end)
        self._recipients: set[Connection] = set()

    def feed(self, msg: TableIn, now: float | None = None, ref: Frame | None = None) -> None:
        """Hand one input to the table and carry out what it says, in order; a refusal of the
        input is answered (ERROR, answering ``ref``) to its sender after the rest."""
        if self.closed:
            return
        refused = self.runner.feed(msg, now)
        conn = getattr(msg, "conn", None)
        if refused is not None and isinstance(conn, Connection):
            self.answer(conn, Error.refusing(refused.error, ref))

    def _carry_out(self, msg: TableIn, outs: list[TableOut]) -> Refused | None:
        """Carry out the table's outputs for ``msg``, in order; its refusal, if any, is returned."""
        if isinstance(msg, Resume) and isinstance(msg.conn, Connection):
            # the replay of what the player missed may be longer than the send queue
            msg.conn.grant(sum(1 for o in outs if isinstance(o, Send) and o.conn is msg.conn))
        later: list[Send | Publish] = []
        records: list[asyncio.Future[bool]] = []  # what the frames of ``later`` wait for
        refused: Refused | None = None
        closing = False
        encoded: dict[int, bytes] = {}
        # with a journal, frames wait for the log to be written; behind frames that wait, all do
        at_once = self.journal is None and not self._sends_held
        for o in outs:
            if at_once and type(o) is Send:  # the most frequent first
                self._send(o, encoded)
            elif isinstance(o, (Send, Publish)):
                later.append(o)
            elif isinstance(o, Refused):
                refused = o
            elif isinstance(o, Close):
                closing = True
            else:
                record = self._bookkeep(o)
                if record is not None:  # the frames from here on wait for this record
                    records.append(record)
                    at_once = False
        if later:
            self._hand_over(later, records)
        if self._seal:
            self._seal_if_sent()
        if closing:  # after what it says last is on its way
            self._close()
        return refused

    def answer(self, conn: Connection, frame: Error) -> None:
        """Send ``frame`` (an ERROR answering ``conn``) after what this room still holds for
        the log: a refusal must not arrive before the events that explain it (the ERROR to
        an answer that crossed its prompt's withdrawal comes after that withdrawal)."""
        if self._held and not self.closed:
            self._hand_over([Send(conn, frame)], [])
        else:
            conn.send(frame)

    def catch_up(self, player: str, conn: Connection, last_seq: int | None) -> None:
        """A resume of ``player`` after this room's match ended and let it go: the events it
        missed after ``last_seq``, the final RESULT and MATCH_END among them (its link may
        have been dead, unnoticed, when they were sent). Kept for a later resume until the
        player binds to another room or the lobby forgets it."""
        sends = [o for o in self.table.missed(player, conn, last_seq) if isinstance(o, Send)]
        conn.grant(len(sends))
        encoded: dict[int, bytes] = {}
        for o in sends:
            self._send(o, encoded)

    def _seal_if_sent(self) -> None:
        """Seal the room's log (:class:`SealLog`) when nothing it holds is still to go out."""
        if self._seal and not self._held and self.journal is not None:
            self._seal = False
            for conn in self._recipients:
                conn.flush()
            self._recipients.clear()
            self.journal.close()

    @property
    def holding(self) -> bool:
        """Whether frames of this room wait in its courier (for the log, or a hand's record)."""
        return self._held > 0

    async def sent(self, timeout: float) -> bool:
        """Wait (at most ``timeout``) until the frames this room holds have gone out; whether they have."""
        if not self._held:
            return True
        if self._idle is None:
            self._idle = asyncio.Event()
        try:
            async with asyncio.timeout(timeout):
                await self._idle.wait()
        except TimeoutError:
            return False
        return True

    def stop(self) -> None:
        """The server is stopping: the room stays in the store, to be rebuilt."""
        self.closed = True
        self._stopped = True
        self.runner.stop()
        if self._wait is not None:
            self._wait.cancel()
        if self._courier is not None:
            self._courier.cancel()

    def _hand_over(self, batch: list[Send | Publish], records: list[asyncio.Future[bool]]) -> None:
        """Give ``batch`` to the courier, behind what it holds; its frames go once ``records``
        are committed."""
        self._held += 1
        sends = sum(1 for o in batch if type(o) is Send)
        if sends:
            self._sends_held += 1
        self._queue.append(_Batch(batch, records, sends, awaits=self.journal is not None or sends < len(batch)))
        if not self._busy:
            self._pump()

    def _pump(self) -> None:
        """Carry out the batches at the head of the queue that wait for nothing (any more); the
        first that waits: its records' callbacks, or the courier task, go on with the rest."""
        while self._queue and not self._busy and not self._stopped:
            b = self._queue[0]
            if b.awaits:
                self._busy = True
                self._courier = asyncio.create_task(self._carry(), name=f"room-{self.id}")
                return
            if b.records:
                if not all(r.done() for r in b.records):
                    self._busy = True
                    self._wait = _Recorded(
                        self.id, self.table.game_name, self.follower, b.records, self._recorded_then_pump
                    )
                    return
                metrics.record_wait(self.table.game_name, 0.0)
            self._queue.popleft()
            self._deliver(cast("list[Send]", b.batch), b.sends > 0)  # (frames alone: it awaits nothing)

    def _recorded_then_pump(self) -> None:
        self._wait = None
        self._busy = False
        if self._stopped:
            return
        b = self._queue.popleft()
        self._deliver(cast("list[Send]", b.batch), b.sends > 0)
        self._pump()

    def _deliver(self, sends: list[Send], held_sends: bool) -> None:
        """Send the frames of the courier's first batch (taken off its queue)."""
        encoded: dict[int, bytes] = {}
        for o in sends:
            self._send(o, encoded)
        self._held -= 1
        if held_sends:
            self._sends_held -= 1
        if not self._held:
            if self._idle is not None:
                self._idle.set()
                self._idle = None
            self._seal_if_sent()

    def _bookkeep(self, o: TableOut) -> asyncio.Future[bool] | None:
        """Carry out ``o``; a record the frames after it wait for, its future."""
        if isinstance(o, Append):
            if self.journal is not None:
                self.journal.append(o.entry)
            if self.follower is not None:
                e = o.entry
                if isinstance(e, Emitted) and e.result is not None and e.result.hand in self._extras:
                    self.follower.wait(e.result.hand)  # ended before its extra was worked out
                return self.follower.feed(e)
        elif isinstance(o, (Bound, Unbound)):
            self.tell(o)
        elif isinstance(o, Rematched):
            if self.on_rematch is not None:
                self.on_rematch(self, o)
        elif isinstance(o, Archive):
            if self.replays is not None:
                t = self.table
                frames = pack(
                    self.id, t.game_name, t.ruleset, o.hand, o.seats, o.totals, o.events, o.result, self._encoded
                )
                self.replays.add(self.id, o.hand, frames)
            self._events.clear()
        elif isinstance(o, Dealt):
            self._deal(o)
        elif isinstance(o, SealLog) and self.journal is not None:
            # the log is complete: the room is no longer one to rebuild, once its last frames
            # are out (a node that dies first leaves it to be rebuilt: its players hear the end)
            self._seal = True
        return None

    def _deal(self, o: Dealt) -> None:
        """Hand ``o.hand`` is dealt: what the records want from the deal is worked out off the
        event loop (``extras``: a process) and comes back to the table as :class:`Extra`, or,
        when the hand ended first, goes to the records alone. Nothing here waits for it."""
        if self.extras is None:
            return
        try:
            work = self.extras(o.game, self.table.hands)
        except Exception:
            log.exception("room %s: the records of hand %d were not started", self.id, o.hand)
            return
        if work is None:
            return
        self._extras[o.hand] = work
        work.add_done_callback(lambda f: self._extra(o.hand, f))

    def _extra(self, hand: int, fut: asyncio.Future[dict[str, Any]]) -> None:
        self._extras.pop(hand, None)
        detail: dict[str, Any] = {}
        if fut.cancelled():
            pass
        elif (e := fut.exception()) is not None:
            log.error("room %s: the records of hand %d failed: %s: %s", self.id, hand, type(e).__name__, e)
        else:
            detail = fut.result()
        if not self.closed and self.table.hand == hand:
            self.feed(Extra(hand, detail))
        if self.follower is not None:
            self.follower.extra(hand, detail)

    def _close(self) -> None:
        self.closed = True
        if self.journal is not None and not self.journal.closing:
            self._seal = True  # once the frames it holds are out
            self._seal_if_sent()
        self.on_close(self)

    def _encoded(self, frame: Event) -> bytes:
        """The bytes of an event of the hand (encoded when it was sent, else now)."""
        got = self._events.get(id(frame))
        if got is not None and got[0] is frame:
            return got[1]
        return encode(frame)

    def _send(self, o: Send, encoded: dict[int, bytes]) -> None:
        """Send ``o.frame``, encoded once per distinct frame of this input: the table hands
        everyone who sees an event alike the same frame object (and a RESULT is one object
        for all), so each costs one encode, whatever the number of receivers. Frames that
        ask nothing of their reader may linger to share a write with the next ones."""
        conn = o.conn
        assert isinstance(conn, Connection)
        if self.journal is not None:
            self._recipients.add(conn)
        frame = o.frame
        kind = type(frame)
        if kind is Error:
            conn.send(frame)  # counted by code in the metrics
            return
        if isinstance(frame, Event) and self.replays is not None:
            got = self._events.get(id(frame))
            if got is None or got[0] is not frame:
                got = self._events[id(frame)] = (frame, encode(frame))
            conn.send_bytes(got[1], False)
            return
        # the frames in ``outs`` live until every one is sent: an id is not reused meanwhile
        data = encoded.get(id(frame))
        if data is None:
            data = encoded[id(frame)] = encode(frame)
        conn.send_bytes(data, kind not in _MAY_WAIT)

    async def _carry(self) -> None:
        """The courier task: carries out the queue's batches in order, awaiting what they wait
        for, until it is empty (the batches behind one that waits for records alone, too)."""
        try:
            while self._queue and not self._stopped:
                b = self._queue[0]
                sends: list[Send] = []
                for o in b.batch:
                    if isinstance(o, Send):
                        sends.append(o)
                        continue
                    try:  # the robots need not wait for the log
                        await self.bus.publish(o.request)
                    except Exception:  # the clock plays the seat when no robot answers
                        log.exception("room %s: request for prompt %d not published", self.id, o.request.prompt_id)
                if sends and self.journal is not None and not await self.journal.sync():
                    # fenced: another node owns the room and its log, without these entries; the
                    # room is evicted here, and its players resume there
                    log.warning("room %s: %d frames not sent: their entries are not in the log", self.id, len(sends))
                    sends = []
                if b.records and not all(r.done() for r in b.records):
                    recorded: asyncio.Future[None] = asyncio.get_running_loop().create_future()
                    self._wait = _Recorded(
                        self.id, self.table.game_name, self.follower, b.records, functools.partial(_settle, recorded)
                    )
                    await recorded
                    self._wait = None
                elif b.records:
                    metrics.record_wait(self.table.game_name, 0.0)
                self._queue.popleft()
                self._deliver(sends, b.sends > 0)
        finally:
            self._busy = False
            self._courier = None


def _settle(fut: asyncio.Future[None]) -> None:
    if not fut.done():
        fut.set_result(None)


class _Batch:
    """What the courier holds: outputs of one input (``batch``: frames, bus requests) that go
    once ``records`` are committed; ``sends`` of them frames; ``awaits``: carried out by the
    courier task (a bus request, or the journal to sync first)."""

    __slots__ = ("awaits", "batch", "records", "sends")

    def __init__(
        self, batch: list[Send | Publish], records: list[asyncio.Future[bool]], sends: int, awaits: bool
    ) -> None:
        self.batch = batch
        self.records = records
        self.sends = sends
        self.awaits = awaits


class _Recorded:
    """Calls ``then()`` once ``records`` are committed: while the records are being written
    (``follower.writing``; at most ``cap`` seconds, :data:`RECORD_CAP`), else after at most
    ``wait`` (:data:`RECORD_WAIT`: a database that is down); the time waited goes to the
    metrics under ``game``. Callbacks and one timer, no task: a hand's RESULT waits so in every
    room. :meth:`cancel`: never (the server stops)."""

    __slots__ = ("cap", "follower", "game", "left", "over", "room_id", "t0", "then", "timer", "wait")

    def __init__(
        self,
        room_id: str,
        game: str,
        follower: LogReader | None,
        records: list[asyncio.Future[bool]],
        then: Callable[[], object],
        wait: float = RECORD_WAIT,
        cap: float = RECORD_CAP,
    ) -> None:
        self.room_id = room_id
        self.game = game
        self.follower = follower
        self.then = then
        self.wait = wait
        self.cap = cap
        self.left = 0
        self.t0 = time.perf_counter()
        self.over = False
        for r in records:
            if not r.done():
                self.left += 1
                r.add_done_callback(self._one)
        self.timer = asyncio.get_running_loop().call_later(wait, self._late)

    def _one(self, _: object) -> None:
        self.left -= 1
        if not self.left and not self.over:
            self._end()

    def _late(self) -> None:
        if self.over:
            return
        waited = time.perf_counter() - self.t0
        if waited < self.cap and self.follower is not None and self.follower.writing(self.wait):
            # a slow writer (a busy machine, a backlog after a restart): it comes
            self.timer = asyncio.get_running_loop().call_later(self.wait, self._late)
            return
        log.warning("room %s: a record was not written within %.0f s: its frames go all the same", self.room_id, waited)
        self._end()

    def _end(self) -> None:
        self.over = True
        self.timer.cancel()
        metrics.record_wait(self.game, time.perf_counter() - self.t0)
        self.then()

    def cancel(self) -> None:
        self.over = True
        self.timer.cancel()
