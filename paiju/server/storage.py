"""Room logs in Redis: each room's :class:`Journal` and the :class:`RoomStore` that writes them.

The log's entries and the replay that rebuilds a room from them are paiju/core/roomlog.py;
this module is the I/O. With ``paiju serve --redis`` each room appends its log to the Redis
list ``paiju:room:{id}:log`` as it plays, and the hash ``paiju:rooms`` names the server
process that owns each room in play. When that process is killed and started again (same
``--server-id``), :meth:`RoomStore.load` reads the logs of its rooms for
:func:`paiju.core.roomlog.replay`.

Writes are asynchronous and in order: a writer task sends each room's new entries with
RPUSH in one MULTI/EXEC; a room waits (:meth:`Journal.sync`, bounded) for its entries to be
written before it sends the frames of a message to the clients, so no client ever sees an
event that a restart would forget. While Redis is unreachable rooms do not wait; the
entries stay in memory and are written when it comes back (the whole log again if Redis
lost its data, or if a length check shows a partial write). The logs of finished rooms are
kept in memory for their time to live in Redis too (the last ``keep_finished``), so that a
Redis that comes back empty gets them again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import OrderedDict
from typing import Any

import redis.exceptions
from redis.asyncio.client import Pipeline

from paiju.bus.link import ROOMS, TRANSIENT, Link, room_log
from paiju.core.roomlog import Entry, pack

log = logging.getLogger("paiju.server")

SYNC_WAIT = 7.0
"""How long a room waits at most for its entries to be in Redis before it sends their frames:
past the client's socket timeout (paiju/bus/link.py, 5 s), by which a Redis that does not
answer is marked down, after which rooms wait for nothing. A slow write (a loaded machine)
is waited for: a frame that went out before its entry was written would tell a client of an
action that a node taking the room over, or a restart, does not know."""


def _text(v: bytes | str) -> str:
    """A Redis reply as text (the client is made without decode_responses: bytes)."""
    return v.decode() if isinstance(v, bytes) else v


class Journal:
    """One room's log: every entry is kept in memory (so that it can be written again if
    Redis loses it) until the room ends and its last entries are written."""

    def __init__(self, store: RoomStore, room_id: str, entries: list[bytes] | None = None) -> None:
        self.store = store
        self.room_id = room_id
        self.entries: list[bytes] = list(entries or [])
        self.written = len(self.entries)  # confirmed in Redis
        self.indexed = entries is not None
        self.rewrite = False
        self.closing = False
        self.fenced = False  # another node owns the room now (paiju/server/cluster.py): no more writes

    def append(self, entry: Entry) -> None:
        if not self.closing:
            self.entries.append(pack(entry))
            self.store._mark(self)

    async def sync(self, timeout: float = SYNC_WAIT) -> bool:
        """Wait until every entry appended so far is in Redis (not while Redis is away,
        and not longer than ``timeout``: the rooms never stall on storage). False when this
        node lost the room meanwhile (fenced): the entries will never be written here, and
        their frames must not be sent."""
        await self.store._wait(self, len(self.entries), timeout)
        return not self.fenced

    def close(self) -> None:
        """The room ended: drop it from the index; its log expires after the store's TTL."""
        self.closing = True
        self.store._mark(self)


class RoomStore:
    """The room logs of the server process ``server_id`` in Redis."""

    def __init__(self, link: Link, server_id: str, *, log_ttl: int = 3_600, keep_finished: int = 2_000) -> None:
        self.link = link
        self.redis = link.redis
        self.server_id = server_id
        self.log_ttl = log_ttl
        self.keep_finished = keep_finished
        self.journals: dict[str, Journal] = {}
        self.finished: OrderedDict[str, tuple[Journal, float]] = OrderedDict()  # and when its log expires
        self._dirty: dict[str, Journal] = {}
        self._wake = asyncio.Event()
        self._flushed = asyncio.Condition()
        self._verify = False
        self._task: asyncio.Task[None] | None = None
        self.writes = 0
        link.hooks.append(self._reconnected)

    def open(self, room_id: str, entries: list[bytes] | None = None) -> Journal:
        j = self.journals[room_id] = Journal(self, room_id, entries)
        return j

    def start(self) -> None:
        self._task = asyncio.create_task(self._write_loop(), name="room-logs")

    async def close(self, timeout: float = 3.0) -> None:
        """Write what is pending (bounded by ``timeout``), then stop."""
        if self._task is None:
            return
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                while self._dirty and self.link.up:
                    async with self._flushed:
                        await self._flushed.wait()
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self._task

    async def load(self) -> list[tuple[str, list[bytes]]]:
        """The logs of the rooms this server owns, read from Redis."""
        owners = await self.redis.hgetall(ROOMS)
        out = []
        for rid, owner in sorted((_text(k), _text(v)) for k, v in owners.items()):
            if owner == self.server_id:
                entries = await self.redis.lrange(room_log(rid), 0, -1)
                out.append((rid, [e if isinstance(e, bytes) else e.encode() for e in entries]))
        return out

    async def forget(self, room_id: str) -> None:
        """Drop a room that will not be rebuilt from the index (its log expires)."""
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hdel(ROOMS, room_id)
            pipe.expire(room_log(room_id), self.log_ttl)
            await pipe.execute()

    # ------------------------------------------------------------------ internals
    def _mark(self, j: Journal) -> None:
        self._dirty[j.room_id] = j
        self._wake.set()

    async def _wait(self, j: Journal, target: int, timeout: float) -> None:
        if j.written >= target or not self.link.up:
            return
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout), self._flushed:
                await self._flushed.wait_for(lambda: j.written >= target or not self.link.up or j.fenced)

    def _reconnected(self, lost: bool) -> None:
        for j in self.journals.values():
            if lost:
                j.rewrite = True
            self._dirty[j.room_id] = j
        if lost:  # finished rooms' logs, within their time to live
            now = time.monotonic()
            for rid, (j, expires) in list(self.finished.items()):
                if expires <= now:
                    del self.finished[rid]
                else:
                    j.rewrite = True
                    self._dirty[rid] = j
        self._verify = not lost
        self._wake.set()

    async def _check_lengths(self) -> None:
        js = list(self.journals.values())
        async with self.redis.pipeline(transaction=False) as pipe:
            for j in js:
                pipe.llen(room_log(j.room_id))
            lengths = await pipe.execute()
        for j, n in zip(js, lengths, strict=True):
            if n != j.written:
                log.warning(
                    "room %s: its log has %d entries in Redis, %d expected: writing it again", j.room_id, n, j.written
                )
                j.rewrite = True
                self._dirty[j.room_id] = j

    def _queue(self, pipe: Pipeline, j: Journal, n: int) -> None:
        """Queue the commands that write ``j``'s entries up to ``n`` (one transaction for all)."""
        key = room_log(j.room_id)
        start = 0 if j.rewrite else j.written
        if j.rewrite:
            pipe.delete(key)
        if n > start:
            pipe.rpush(key, *j.entries[start:n])
        if j.closing:
            pipe.hdel(ROOMS, j.room_id)
            pipe.expire(key, self.log_ttl)
        elif not j.indexed or j.rewrite:
            pipe.hset(ROOMS, j.room_id, self.server_id)

    def _accepted(self, plan: list[tuple[Journal, int]], replies: list[Any]) -> list[tuple[Journal, int]]:
        """The journals of ``plan`` that Redis wrote (all of them here; paiju/server/cluster.py's
        store refuses the writes of a room whose lease this node lost)."""
        return plan

    async def _write_loop(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            batch = list(self._dirty.values())
            self._dirty.clear()
            try:
                if self._verify:
                    await self._check_lengths()
                    self._verify = False
                    batch = list({j.room_id: j for j in [*batch, *self._dirty.values()]}.values())
                    self._dirty.clear()
                if not batch:
                    continue
                plan = []
                async with self.redis.pipeline(transaction=True) as pipe:
                    for j in batch:
                        n = len(j.entries)
                        self._queue(pipe, j, n)
                        plan.append((j, n))
                    replies = await pipe.execute()
                self.writes += 1
                for j, n in self._accepted(plan, replies):
                    j.written, j.rewrite, j.indexed = n, False, True
                    if j.closing and self.journals.get(j.room_id) is j:
                        del self.journals[j.room_id]
                        self.finished[j.room_id] = (j, time.monotonic() + self.log_ttl)
                        while len(self.finished) > self.keep_finished:
                            self.finished.popitem(last=False)
                async with self._flushed:
                    self._flushed.notify_all()
            except TRANSIENT as e:
                for j in batch:
                    self._dirty.setdefault(j.room_id, j)
                self.link.mark_down(e)
                async with self._flushed:
                    self._flushed.notify_all()  # waiting rooms see the link down and go on
                await self.link.failed(e)
                self._wake.set()
            except redis.exceptions.RedisError as e:  # refused (out of memory, ...): try again soon
                for j in batch:
                    self._dirty.setdefault(j.room_id, j)
                log.error("room logs not written (%s); retrying in 1 s", e)
                async with self._flushed:
                    self._flushed.notify_all()
                await asyncio.sleep(1)
                self._wake.set()
