"""The recorder: what rooms hand over when a hand or a match ends, written in order by one task.

A room never waits for the database: :meth:`Recorder.hand_ended` and
:meth:`Recorder.match_ended` queue a job and return. The writer task runs the jobs in order
(a match's hands before its end), each in its own transaction, and retries a job that failed
for a transient reason (the database restarting) with a growing pause, so nothing finished
is dropped while the server lives. A server killed between a hand's end and its write (a few
milliseconds) loses that hand; with Redis the room's log still holds it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence
from dataclasses import dataclass

from .database import Database, redacted
from .matches import HandRecord, MatchInfo, SeatHolder, finish_match, write_hand

log = logging.getLogger("paiju.records")
MAX_QUEUE = 100_000  # jobs waiting for the database before new ones are refused (and logged)


@dataclass(frozen=True)
class _Hand:
    info: MatchInfo
    hand: HandRecord
    seats: tuple[SeatHolder, ...]


@dataclass(frozen=True)
class _End:
    info: MatchInfo
    seats: tuple[SeatHolder, ...]
    totals: tuple[int, ...]
    complete: bool


class Recorder:
    """``Recorder(db)``; :meth:`start` in the event loop, :meth:`close` to flush and stop."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.queue: asyncio.Queue[_Hand | _End] = asyncio.Queue()
        self.match_ids: dict[tuple[str, float], int] = {}  # (room id, started) -> match id
        self.written = 0
        self.dropped = 0
        self.failures = 0
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="records")

    async def close(self, timeout: float = 10.0) -> None:
        """Write what is queued (bounded by ``timeout``), then stop."""
        if self._task is None:
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.queue.join(), timeout)
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        if self.queue.qsize():
            log.error("%d records not written to %s", self.queue.qsize(), redacted(self.db.url))

    async def flush(self) -> None:
        """Wait until everything queued so far is written."""
        await self.queue.join()

    def hand_ended(self, info: MatchInfo, hand: HandRecord, seats: Sequence[SeatHolder]) -> None:
        self._put(_Hand(info, hand, tuple(seats)))

    def match_ended(
        self, info: MatchInfo, seats: Sequence[SeatHolder], totals: Sequence[int], *, complete: bool
    ) -> None:
        """The room's match is over (``complete``) or the room closed before its last hand."""
        self._put(_End(info, tuple(seats), tuple(totals), complete))

    def _put(self, job: _Hand | _End) -> None:
        if self.queue.qsize() >= MAX_QUEUE:
            self.dropped += 1
            log.error("records queue full (%d): %s of room %s dropped", MAX_QUEUE, type(job).__name__, job.info.room_id)
            return
        self.queue.put_nowait(job)

    async def _run(self) -> None:
        while True:
            job = await self.queue.get()
            pause = 0.1
            while True:
                try:
                    await self._write(job)
                    self.written += 1
                    break
                except asyncio.CancelledError:
                    raise
                except Exception as e:
                    self.failures += 1
                    if not _transient(e):
                        log.exception("room %s: record not written", job.info.room_id)
                        break
                    log.warning("records: %s: %s; retrying in %.1f s", redacted(self.db.url), e, pause)
                    await asyncio.sleep(pause)
                    pause = min(pause * 2, 5.0)
            self.queue.task_done()

    async def _write(self, job: _Hand | _End) -> None:
        key = (job.info.room_id, job.info.started)
        if isinstance(job, _Hand):
            self.match_ids[key] = await write_hand(self.db, job.info, self.match_ids.get(key), job.hand, job.seats)
            return
        mid = self.match_ids.pop(key, None)
        if mid is None:
            return  # no hand of it ended: nothing to keep
        await finish_match(self.db, mid, job.info, job.seats, job.totals, complete=job.complete)


def _transient(e: Exception) -> bool:
    """A failure that may pass: the connection, not the data (a constraint, a bug)."""
    from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError

    if isinstance(e, (OSError, TimeoutError, OperationalError, InterfaceError)):
        return True
    return isinstance(e, DBAPIError) and bool(e.connection_invalidated)
