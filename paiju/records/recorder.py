"""The recorder: what rooms hand over when a hand or a match ends, written in order by one task.

:meth:`Recorder.hand_ended` and :meth:`Recorder.match_ended` queue a job and return a future
that is done once the job is committed (its result: whether it was written): the hook by
which a room sends a hand's RESULT only once its record is durable (paiju/server/room.py).
The event loop itself never waits for the database. The writer task takes every job queued
when it is free and writes them in order (a match's hands before its end) in one
transaction: a group commit. On a busy server, whose jobs come more often than every
``group`` seconds (:data:`GROUP_WAIT`, 10 ms), it first waits for a few more
(:data:`GROUP_JOBS`, at most ``group``): a hand's RESULT then waits up to that much longer,
and a batch carries several hands, where one a batch cost the writer a commit, a pipe
message, a wake-up and the batch's own work for each (docs/performance.md). An idle server's
hands go at once; ``linger`` makes every batch wait (for the benchmarks). An analysis, whose
commit nothing waits for, does not wake the writer: it goes with the next batch, at most
:data:`ANALYSIS_WAIT` later. A batch that failed for a transient reason (the database
restarting) is retried with a growing pause, so nothing finished is dropped while the server
lives; one that failed for another reason (a constraint, a bug) is written again job by job,
so that only the bad job is lost. :meth:`Recorder.analysed` adds a hand's analysis (bridge's
par, the trick game's solved values), which may come long after the hand, to its record.

``Recorder(db, writer=...)`` (what ``paiju serve`` runs, with a pool of one spawned
process: ``paiju.bots.pool.CallPool``, whose pipe the event loop watches: no thread) writes in a
process of its own, started with the recorder: the SQL and the driver cost the event loop
nothing but handing the batch over (as plain tuples: :func:`packed`), where they took some
tenth of a busy server's loop (docs/performance.md). A batch is plain SQL
(paiju/records/batch.py), and there a SQLite file is written through the ``sqlite3`` driver
itself (paiju/records/blocking.py): no SQLAlchemy session, no hop to a driver's thread, no
event loop's turn a batch; a RESULT waits for its hand's commit, so a busy server's batches
are mostly of one hand, and what a batch cost besides the commit was most of the writer's
CPU. The batches still go one at a time and in order, and that process ends with the server.
A writer that dies (killed) is replaced and the batch in hand written again; one killed in
the instant between its commit and its answer would have that batch written twice (its
matches then stored twice): a window of a commit's length, the price of not holding the loop
for the SQL.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, cast

from paiju.records.batch import Key, Known, MatchJobs, OnSession, Sql, add_analysis, write_batch
from paiju.records.database import Database, redacted
from paiju.records.matches import HandRecord, MatchInfo, SeatHolder

if TYPE_CHECKING:
    from paiju.records.blocking import Blocking

log = logging.getLogger("paiju.records")
MAX_QUEUE = 100_000  # jobs waiting for the database before new ones are refused (and logged)
LINGER = 0.0  # seconds the writer waits for more jobs after the first (the queue's jobs go together anyway)
GROUP_WAIT = 0.01  # seconds at most a batch waits for more jobs when they come faster than that
GROUP_JOBS = 4  # the jobs such a batch waits for (at the rate they came lately)
ANALYSIS_WAIT = 1.0  # seconds at most an analysis (which nothing waits for) waits for a batch to go with
MAX_BATCH = 1_000  # jobs in one transaction at most
T = TypeVar("T")


class Writer(Protocol):
    """The pool of one process the batches are written in (``paiju.bots.pool.CallPool``)."""

    @property
    def Died(self) -> type[Exception]:
        """What a call fails with when the process ended first (the next call starts another)."""

    def submit(self, fn: Callable[..., T], /, *args: Any) -> asyncio.Future[T]: ...

    def pids(self) -> list[int]: ...

    def close(self) -> None: ...


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


@dataclass(frozen=True)
class _Analysis:
    """A recorded hand's analysis: merged into its detail, the hand no longer pending. The
    match is ``match_id`` when known (a restarted server's pending work), else the room's."""

    info: MatchInfo | None
    match_id: int | None
    hand: int
    detail: dict[str, Any]


Job = _Hand | _End | _Analysis


class Recorder:
    """``Recorder(db)``; :meth:`start` in the event loop, :meth:`close` to flush and stop.
    ``writer``: makes the pool (of one process) that writes the batches (module docstring);
    None: they are written in this event loop. ``group``: how long at most a batch waits for
    more jobs when they come faster than that (0: never)."""

    def __init__(
        self,
        db: Database,
        *,
        linger: float = LINGER,
        group: float = GROUP_WAIT,
        writer: Callable[[], Writer] | None = None,
    ) -> None:
        self.db = db
        self.linger = linger
        self.group = group
        self.gap = 0.1  # seconds between two waited jobs lately (a moving average of gaps up to 0.1 s)
        self._waited = 0  # jobs queued whose commit something waits for
        self._wake = asyncio.Event()  # set when such a job comes
        self._last = time.monotonic()  # when the last job came
        self.queue: asyncio.Queue[tuple[Job, asyncio.Future[bool] | None]] = asyncio.Queue()
        self.written = 0
        self.batches = 0  # transactions (a batch written again job by job counts once)
        self.dropped = 0
        self.failures = 0
        self._writer = writer
        self._here = Batches(db)  # the writing, when no writer process does it
        self._pool: Writer | None = None
        self._writing: asyncio.Future[tuple[list[bool], int]] | None = None  # the batch in the writer's hands
        self._task: asyncio.Task[None] | None = None
        self._in_hand = 0  # jobs taken from the queue, not yet written
        self._warm: asyncio.Future[tuple[list[bool], int]] | None = None  # the writer's start and connect
        self.progress = time.monotonic()  # when the writer last started or finished a batch

    def start(self) -> None:
        if self._writer is not None:
            self._pool = self._writer()  # its process starts at once (ready for the first batch)
            # and connects: the first hand's RESULT, which waits for its record, waits for no import
            warm = self._warm = self._pool.submit(_write_in_writer, self.db.url, [])
            warm.add_done_callback(self._started)
        self._task = asyncio.create_task(self._run(), name="records")

    def _started(self, warm: asyncio.Future[tuple[list[bool], int]]) -> None:
        self.progress = time.monotonic()
        _ = warm.cancelled() or warm.exception()  # (its failure: the first batch's)

    def writing(self, within: float) -> bool:
        """Whether the records are being written: the writer is still starting, has a batch in
        hand, or finished one within the last ``within`` seconds (a slow writer on a busy
        machine, or a backlog after a restart: what waits for a record may wait on)."""
        starting = self._warm is not None and not self._warm.done()
        return starting or self._in_hand > 0 or time.monotonic() - self.progress < within

    async def ready(self) -> None:
        """Wait until the writer process has started and connected (at once without one)."""
        if self._warm is not None:
            with contextlib.suppress(Exception):
                await asyncio.shield(self._warm)

    async def close(self, timeout: float = 10.0) -> None:
        """Write what is queued (bounded by ``timeout``), then stop."""
        if self._task is None:
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.queue.join(), timeout)
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        if self._writing is not None and not self._writing.done():  # the batch in hand is written first
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(self._writing), timeout)
        if self._pool is not None:
            self._pool.close()
            self._pool = None
        if self.queue.qsize() + self._in_hand:
            log.error("%d records not written to %s", self.queue.qsize() + self._in_hand, redacted(self.db.url))

    async def flush(self) -> None:
        """Wait until everything queued so far is written."""
        await self.queue.join()

    def hand_ended(self, info: MatchInfo, hand: HandRecord, seats: Sequence[SeatHolder]) -> asyncio.Future[bool]:
        """Record a finished hand; the future is done once it is committed (True) or given
        up (False: refused by the database, or the queue full)."""
        return self._put(_Hand(info, hand, tuple(seats)))

    def match_ended(
        self, info: MatchInfo, seats: Sequence[SeatHolder], totals: Sequence[int], *, complete: bool
    ) -> asyncio.Future[bool]:
        """The room's match is over (``complete``) or the room closed before its last hand."""
        return self._put(_End(info, tuple(seats), tuple(totals), complete))

    def analysed(self, info: MatchInfo | None, hand: int, detail: dict[str, Any], match_id: int | None = None) -> None:
        """Hand ``hand``'s analysis, worked out after its record was written as pending: added
        to its detail (of the match of ``info``'s room, or of ``match_id``)."""
        self._put(_Analysis(info, match_id, hand, detail), waited=False)

    def writer_pids(self) -> list[int]:
        """The writer process's pid while it runs (a process pool's ``writer``), else nothing."""
        return self._pool.pids() if self._pool is not None else []

    def _put(self, job: Job, *, waited: bool = True) -> asyncio.Future[bool]:
        """Queue ``job``; ``waited``: something waits for its commit (a RESULT), and so it
        wakes the writer (an analysis, which nothing waits for, goes with the next batch that
        does, or after :data:`ANALYSIS_WAIT`)."""
        done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        if self.queue.qsize() >= MAX_QUEUE:
            self.dropped += 1
            log.error("records queue full (%d): %s of %s dropped", MAX_QUEUE, type(job).__name__, _where(job))
            done.set_result(False)
            return done
        self.queue.put_nowait((job, done if waited else None))
        if waited:
            self._waited += 1
            self._wake.set()
            now = time.monotonic()
            self.gap += 0.25 * (min(now - self._last, 0.1) - self.gap)
            self._last = now
        else:
            done.set_result(True)  # (nobody holds it)
        return done

    def grouping(self) -> float:
        """How long the batch about to go waits for more jobs: on a busy server (jobs lately
        closer than ``group`` seconds, fewer than :data:`GROUP_JOBS` queued) the time that many
        take to come, at most ``group``; else 0."""
        if self.gap >= self.group or self._waited >= GROUP_JOBS:
            return 0.0
        return min(self.group, (GROUP_JOBS - 1) * self.gap)

    async def _run(self) -> None:
        while True:
            batch = [await self.queue.get()]
            self._in_hand = 1
            if not self._waited:  # analyses only: they wait for a batch that goes anyway
                self._wake.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), ANALYSIS_WAIT)
            wait = self.linger or self.grouping()
            if wait > 0:
                await asyncio.sleep(wait)
            while len(batch) < MAX_BATCH and not self.queue.empty():
                batch.append(self.queue.get_nowait())
            self._in_hand = len(batch)
            self._waited -= sum(1 for _, done in batch if done is not None)
            written, failures = await self._write([job for job, _ in batch])
            self.progress = time.monotonic()
            self.batches += 1
            self.written += sum(written)
            self.failures += failures
            self._in_hand = 0
            for (_, done), ok in zip(batch, written, strict=True):
                if done is not None and not done.done():
                    done.set_result(ok)
                self.queue.task_done()

    async def _write(self, batch: list[Job]) -> tuple[list[bool], int]:
        if self._pool is None:
            return await self._here.write(batch)
        pause, lost = 0.1, 0
        while True:
            self._writing = self._pool.submit(_write_in_writer, self.db.url, packed(batch))
            try:
                # shielded: a recorder closing while a batch is in hand lets it finish (close)
                written, failures = await asyncio.shield(self._writing)
                return written, failures + lost
            except self._pool.Died as e:  # the writer was killed: the pool starts another
                lost += 1
                log.warning("records: the writer process ended (%s); writing the batch again in %.1f s", e, pause)
                await asyncio.sleep(pause)
                pause = min(pause * 2, 5.0)


class Batches:
    """Writes batches of jobs to ``db``, each in one transaction, and knows the matches it
    opened: a :class:`Recorder`'s writing, in its event loop or in its writer process."""

    def __init__(self, db: Database, *, blocking: bool = False) -> None:
        self.db = db
        self.known = Known()  # the matches it opened (room id, started) -> match id, the robots' accounts
        self._blocking: Blocking | None = None
        if blocking and db.sqlite:  # in the writer process: SQLite on its driver (paiju/records/blocking.py)
            from paiju.records.blocking import Blocking

            self._blocking = Blocking(db)

    @property
    def blocking(self) -> bool:
        """Whether its writing blocks (SQLite on its driver): then it never waits on the event loop."""
        return self._blocking is not None

    async def _pause(self, seconds: float) -> None:
        """The pause before a retry: blocking where the writing blocks (the writer process)."""
        if self._blocking is not None:
            time.sleep(seconds)
        else:
            await asyncio.sleep(seconds)

    @property
    def match_ids(self) -> dict[Key, int]:
        """The matches it opened and that are still in play: (room id, started) -> match id."""
        return self.known.matches

    @contextlib.asynccontextmanager
    async def _begin(self) -> AsyncIterator[Sql]:
        if self._blocking is not None:
            async with self._blocking.begin() as q:
                yield q
        else:
            async with self.db.session.begin() as s:
                yield OnSession(s)

    async def write(self, batch: Sequence[Job]) -> tuple[list[bool], int]:
        """Write ``batch`` in one transaction, retried while it fails for a transient reason;
        when it fails for another, each of its jobs alone. ``(whether each job was written,
        failures)``."""
        pause, failures = 0.1, 0
        while True:
            try:
                await self._write(batch)
                return [True] * len(batch), failures
            except asyncio.CancelledError:
                raise
            except Exception as e:
                failures += 1
                if not _transient(e):
                    if len(batch) == 1:
                        log.exception("%s: record not written", _where(batch[0]))
                        return [False], failures
                    log.warning("records: a batch of %d jobs failed (%s); writing them one by one", len(batch), e)
                    break
                log.warning("records: %s: %s; retrying in %.1f s", redacted(self.db.url), e, pause)
                await self._pause(pause)
                pause = min(pause * 2, 5.0)
        written: list[bool] = []
        for job in batch:
            w, f = await self.write([job])
            written, failures = written + w, failures + f
        return written, failures

    async def _write(self, batch: Sequence[Job]) -> None:
        """One transaction, a few statements for the whole batch (paiju.records.batch.write_batch),
        then the analyses (each read, merged, written: they are few)."""
        plans: dict[Key, MatchJobs] = {}
        analyses = [job for job in batch if isinstance(job, _Analysis)]
        for i, job in enumerate(batch):
            if isinstance(job, _Analysis):
                continue
            key = (job.info.room_id, job.info.started)
            plan = plans.get(key)
            if plan is None:
                plan = plans[key] = MatchJobs(job.info)
            if isinstance(job, _Hand):
                if not plan.hands:
                    plan.seats = job.seats
                plan.hands.append(job.hand)
            else:
                plan.end, plan.end_at = (job.seats, job.totals, job.complete), i
        async with self._begin() as q:
            ids, learnt = await write_batch(q, list(plans.values()), self.known) if plans else ({}, Known())
            for a in analyses:
                if a.info is None:
                    mid = a.match_id
                else:
                    key = (a.info.room_id, a.info.started)
                    mid = ids.get(key) or self.match_ids.get(key)
                await add_analysis(q, a.info, mid, a.hand, a.detail)
        # committed: the matches and robots as the next transaction finds them
        self.known.robots.update(learnt.robots)
        for key, mid in ids.items():
            if mid is None:
                self.match_ids.pop(key, None)
            else:
                self.match_ids[key] = mid


def _where(job: Job) -> str:
    """The room (or match) of ``job``, for the log."""
    if job.info is not None:
        return f"room {job.info.room_id}"
    return f"match {job.match_id}" if isinstance(job, _Analysis) else "?"


def packed(batch: Sequence[Job]) -> list[tuple[Any, ...]]:
    """``batch`` as plain tuples for the writer's pipe (:func:`unpacked` rebuilds it): pickle
    takes a frozen dataclass some five times slower than the tuple of its fields, at both ends.

    >>> info = MatchInfo("r1", "tricks", "classic", {}, 7, 2, 5.0)
    >>> job = _End(info, (SeatHolder("robot", "random@1"),), (0,), True)
    >>> unpacked(packed([job])) == [job]
    True
    """
    out: list[tuple[Any, ...]] = []
    for job in batch:
        i = job.info
        info = None if i is None else (i.room_id, i.game, i.ruleset, i.options, i.seed, i.hands, i.started, i.salt)
        if isinstance(job, _Hand):
            h = job.hand
            hand = (h.hand, h.actions, h.scores, h.revealed, h.detail, h.pending)
            out.append((0, info, hand, [(x.kind, x.name) for x in job.seats]))
        elif isinstance(job, _End):
            out.append((1, info, [(x.kind, x.name) for x in job.seats], job.totals, job.complete))
        else:
            out.append((2, info, job.match_id, job.hand, job.detail))
    return out


def unpacked(batch: Sequence[tuple[Any, ...]]) -> list[Job]:
    """The jobs of :func:`packed`."""
    out: list[Job] = []
    for kind, info_t, *rest in batch:
        info = None if info_t is None else MatchInfo(*info_t)
        if kind == 2:
            out.append(_Analysis(info, *rest))
            continue
        assert info is not None
        if kind == 0:
            hand, seats = rest
            out.append(_Hand(info, HandRecord(*hand), tuple(SeatHolder(*x) for x in seats)))
        else:
            seats, totals, complete = rest
            out.append(_End(info, tuple(SeatHolder(*x) for x in seats), tuple(totals), complete))
    return out


# The writer process's own loop and writer, made by its first batch.
_in_writer: tuple[asyncio.AbstractEventLoop, Batches] | None = None


def _write_in_writer(url: str, batch: list[tuple[Any, ...]]) -> tuple[list[bool], int]:
    """Run in the writer process: write ``batch`` (:func:`packed`; ``(whether each job was
    written, failures)``). SQLite's writing never waits on anything but its driver, whose calls
    block: its coroutine is run to its end at once, without the event loop's turn (some 30 µs
    a batch); PostgreSQL's on the loop."""
    global _in_writer
    if _in_writer is None or _in_writer[1].db.url != url:
        _in_writer = (asyncio.new_event_loop(), Batches(Database(url), blocking=True))
    loop, batches = _in_writer
    work = batches.write(unpacked(batch))
    if not batches.blocking:
        return loop.run_until_complete(work)
    try:
        work.send(None)
    except StopIteration as done:
        return cast(tuple[list[bool], int], done.value)
    work.close()
    raise RuntimeError("the records' blocking writer waited on the event loop")


def _transient(e: Exception) -> bool:
    """A failure that may pass: the connection, not the data (a constraint, a bug)."""
    from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError

    if isinstance(e, (OSError, TimeoutError, OperationalError, InterfaceError, sqlite3.OperationalError)):
        return True
    return isinstance(e, DBAPIError) and bool(e.connection_invalidated)
