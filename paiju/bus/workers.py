"""The worker side of the bus on Redis: :class:`RedisWorkerBus` (take, reply, drop).

Requests arrive on one stream per game (``paiju:req:{game}``), read through the consumer
group ``workers`` (XREADGROUP), so every worker process sees a share of them and each
request goes to one worker. A request taken and not yet answered stays in the group's
pending list under this worker's consumer name; in the manner of fishnet's job leases:

- **lease**: while a worker holds a request it renews the lease (XCLAIM ... JUSTID to
  itself, which resets the idle time) every ``lease/3``; a worker that died stops renewing;
- **reclaim**: every ``lease/2`` each worker runs XAUTOCLAIM for entries idle longer than
  the lease, so a dead worker's requests move to a live one well inside their deadline;
- **bounded retries**: a request delivered more than ``max_deliveries`` times (it keeps
  killing or stalling workers) is acknowledged, copied to ``paiju:dead`` and logged;
- **announce**: the lease loop also renews, every second, the worker's announcement of the
  robots it serves (paiju/bus/roster.py: the rooms waiting for them start), withdrawn at close;
- **answer**: XADD the decision to ``paiju:dec:{reply_to}`` and XACK + XDEL the request in
  one MULTI/EXEC, so only answered requests are acknowledged (``drop``: XACK + XDEL alone).

Redis going away is survived: every command that fails with a connection error waits
on the :class:`~paiju.bus.link.Link`, which reconnects with backoff; a consumer group
lost with the data (a Redis restarted without persistence) is created again from the
start of its stream.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Collection
from typing import Any

import redis.exceptions

from paiju.bus.link import (
    DEAD_LETTERS,
    DEAD_MAXLEN,
    DECISION_MAXLEN,
    DECISION_TTL,
    FIELD,
    GROUP,
    TRANSIENT,
    Link,
    cancel_all,
    decision_stream,
    entry_data,
    request_stream,
    stream_entries,
)
from paiju.bus.memory import Delivery, WorkerBus
from paiju.bus.roster import RENEW_S, announce, withdraw
from paiju.protocol import Decision, DecisionRequest, ProtocolError, decode, encode

log = logging.getLogger("paiju.cli.bots")


def _s(v: Any) -> str:
    return v.decode() if isinstance(v, bytes) else str(v)


class RedisWorkerBus(WorkerBus):
    """``take``/``reply``/``drop`` over Redis streams for the worker process ``consumer``."""

    def __init__(
        self,
        link: Link,
        consumer: str,
        *,
        lease_ms: int = 1_000,
        max_deliveries: int = 3,
        decision_maxlen: int = DECISION_MAXLEN,
    ) -> None:
        self.link = link
        self.redis = link.redis
        self.consumer = consumer
        self.lease_ms = lease_ms
        self.max_deliveries = max_deliveries
        self.decision_maxlen = decision_maxlen
        self.block_ms = max(50, min(1_000, lease_ms // 2))
        self.claimed = 0  # requests taken over from another (dead or stalled) worker
        self.gave_up = 0  # requests dead-lettered after max_deliveries
        self._games: set[str] = set()
        self._groups: set[str] = set()
        self._ready: deque[Delivery] = deque()  # read or claimed, not yet handed out
        self._held: dict[str, set[str]] = {}  # stream -> entry ids handed out, not answered
        self._tasks: list[asyncio.Task[None]] = []
        self._announced = ""  # the robots it serves, as announced (paiju/bus/roster.py); "" none
        self._announced_at = 0.0
        link.hooks.append(self._reconnected)

    def announce(self, robots: str) -> None:
        """Announce ``robots`` (:func:`paiju.bus.roster.names`) from now on, until :meth:`close`."""
        self._announced = robots
        self._announced_at = 0.0
        if not self._tasks:
            self._start(())

    def _reconnected(self, lost: bool) -> None:
        if lost:
            self._groups.clear()  # the streams and groups went with the data

    # ------------------------------------------------------------------ helpers
    async def _group(self, stream: str) -> None:
        if stream in self._groups:
            return
        try:
            # From the stream's start ("0"), not "$": requests published while the group was
            # missing are served too (old ones are dropped by their deadline).
            await self.redis.xgroup_create(stream, GROUP, id="0", mkstream=True)
        except redis.exceptions.ResponseError as e:
            if "BUSYGROUP" not in str(e):
                raise
        self._groups.add(stream)

    def _delivery(self, stream: str, entry_id: Any, fields: Any) -> Delivery | None:
        data = entry_data(fields)
        eid = _s(entry_id)
        try:
            req = decode(data) if data is not None else None
        except ProtocolError:
            req = None
        if not isinstance(req, DecisionRequest):
            log.error("dropping malformed entry %s of %s", eid, stream)
            self._held.setdefault(stream, set()).add(eid)
            asyncio.get_running_loop().create_task(self._ack(stream, eid))
            return None
        self._held.setdefault(stream, set()).add(eid)
        return Delivery(req, eid)

    def _start(self, games: Collection[str]) -> None:
        new = set(games) - self._games
        self._games |= new
        if not self._tasks:
            self._tasks = [
                asyncio.create_task(self._claim_loop(), name="claim"),
                asyncio.create_task(self._renew_loop(), name="renew"),
            ]

    # ------------------------------------------------------------------ WorkerBus
    async def take(self, games: Collection[str], consumer: str = "") -> Delivery:
        """The next request of ``games`` (every call of this bus reads as ``self.consumer``:
        the group's pending list is per worker process)."""
        self._start(games)
        streams = [request_stream(g) for g in games]
        while True:
            if self._ready:
                d = self._ready.popleft()
                if d.request.game in games:
                    return d
                self._ready.append(d)
            try:
                for s in streams:
                    await self._group(s)
                got = await self.redis.xreadgroup(
                    GROUP, self.consumer, dict.fromkeys(streams, ">"), count=1, block=self.block_ms
                )
            except TRANSIENT as e:
                await self.link.failed(e)
                continue
            except redis.exceptions.RedisError as e:
                if "NOGROUP" not in str(e):
                    log.error("reading requests failed: %s", e)
                    await asyncio.sleep(1)
                self._groups.clear()
                continue
            for stream, entries in stream_entries(got):
                for entry_id, fields in entries:
                    got_one = self._delivery(_s(stream), entry_id, fields)
                    if got_one is not None:
                        self._ready.append(got_one)

    async def reply(self, delivery: Delivery, decision: Decision) -> None:
        req = delivery.request
        stream = request_stream(req.game)
        out = decision_stream(req.reply_to)
        data = encode(decision)
        while True:
            try:
                async with self.redis.pipeline(transaction=True) as pipe:
                    pipe.xadd(out, {FIELD: data}, maxlen=self.decision_maxlen, approximate=True)
                    pipe.expire(out, DECISION_TTL)
                    pipe.xack(stream, GROUP, delivery.ref)
                    pipe.xdel(stream, delivery.ref)
                    await pipe.execute()
                break
            except TRANSIENT as e:
                if req.deadline_ms and time.time() * 1000 > req.deadline_ms:
                    log.warning("decision for %s prompt %d not sent: its deadline passed", req.room, req.prompt_id)
                    break
                await self.link.failed(e)
            except redis.exceptions.RedisError as e:
                log.error("decision for %s prompt %d not sent: %s", req.room, req.prompt_id, e)
                break
        self._held.get(stream, set()).discard(delivery.ref)

    async def drop(self, delivery: Delivery) -> None:
        await self._ack(request_stream(delivery.request.game), delivery.ref)

    async def _ack(self, stream: str, eid: str) -> None:
        for _ in range(3):
            try:
                async with self.redis.pipeline(transaction=True) as pipe:
                    pipe.xack(stream, GROUP, eid)
                    pipe.xdel(stream, eid)
                    await pipe.execute()
                break
            except redis.exceptions.RedisError as e:
                # Not acknowledged: the entry stays pending, is claimed again after the lease
                # and dropped then (by its deadline) or dead-lettered.
                if isinstance(e, TRANSIENT):
                    await self.link.failed(e)
                else:
                    break
        self._held.get(stream, set()).discard(eid)

    # ------------------------------------------------------------------ leases
    async def _renew_loop(self) -> None:
        while True:
            if self._announced and time.monotonic() - self._announced_at >= RENEW_S:
                try:
                    await announce(self.redis, self.consumer, self._announced)
                    self._announced_at = time.monotonic()
                except TRANSIENT as e:
                    await self.link.failed(e)
                except redis.exceptions.RedisError as e:
                    log.error("announcing the robots served failed: %s", e)
                    self._announced_at = time.monotonic()
            await asyncio.sleep(min(self.lease_ms / 3000, RENEW_S))
            for stream, ids in list(self._held.items()):
                if not ids:
                    continue
                try:
                    await self.redis.xclaim(stream, GROUP, self.consumer, 0, list(ids), justid=True)
                except TRANSIENT as e:
                    await self.link.failed(e)
                except redis.exceptions.RedisError:
                    pass  # NOGROUP: the data was lost; take() creates the group again

    async def _claim_loop(self) -> None:
        while True:
            await asyncio.sleep(self.lease_ms / 2000)
            for game in sorted(self._games):
                stream = request_stream(game)
                if stream not in self._groups:
                    continue
                try:
                    await self._claim(stream)
                except TRANSIENT as e:
                    await self.link.failed(e)
                except redis.exceptions.RedisError as e:
                    if "NOGROUP" not in str(e):
                        log.error("claiming on %s failed: %s", stream, e)
                    self._groups.discard(stream)

    async def _claim(self, stream: str) -> None:
        res = await self.redis.xautoclaim(stream, GROUP, self.consumer, self.lease_ms, "0-0", count=16)
        entries = res[1] if len(res) > 1 else []
        deleted = res[2] if len(res) > 2 else []
        for eid in deleted or []:  # trimmed away (MAXLEN) while pending
            await self._ack(stream, _s(eid))
        for entry_id, fields in entries:
            if fields is None:
                continue
            eid = _s(entry_id)
            info = await self.redis.xpending_range(stream, GROUP, eid, eid, 1)
            times = int(info[0]["times_delivered"]) if info else 1
            if times > self.max_deliveries:
                self.gave_up += 1
                data = entry_data(fields) or b""
                log.error(
                    "gave up on request %s of %s after %d deliveries (it keeps failing): moved to %s",
                    eid,
                    stream,
                    times - 1,
                    DEAD_LETTERS,
                )
                async with self.redis.pipeline(transaction=True) as pipe:
                    pipe.xadd(
                        DEAD_LETTERS,
                        {FIELD: data, b"stream": stream, b"id": eid, b"deliveries": times - 1},
                        maxlen=DEAD_MAXLEN,
                        approximate=True,
                    )
                    pipe.xack(stream, GROUP, eid)
                    pipe.xdel(stream, eid)
                    await pipe.execute()
                continue
            d = self._delivery(stream, eid, fields)
            if d is not None:
                self.claimed += 1
                log.info(
                    "claimed request %s (room %s seat %d prompt %d, delivery %d) idle over the %d ms lease",
                    eid,
                    d.request.room,
                    d.request.seat,
                    d.request.prompt_id,
                    times,
                    self.lease_ms,
                )
                self._ready.appendleft(d)

    async def close(self) -> None:
        await cancel_all(self._tasks)
        if self._announced:
            with contextlib.suppress(Exception):
                async with asyncio.timeout(1):
                    await withdraw(self.redis, self.consumer)

    def holding(self) -> int:
        """Requests handed out and not yet answered or dropped."""
        return sum(len(v) for v in self._held.values())
