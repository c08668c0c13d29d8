"""The server side of the bus on Redis: :class:`RedisRoomBus` (publish, receive).

``publish`` never waits on Redis: it queues the request and a sender task XADDs it to
``paiju:req:{game}`` (MAXLEN ~ capped). A reader task XREADs ``paiju:dec:{server_id}``
and hands each decision to ``receive``. The requests still unanswered and before their
deadline are remembered, in the manner of lila-ws buffering while Redis is away: when
Redis comes back having lost its data (restarted without persistence), they are published
again; requests queued during the outage are sent then, unless their deadline has passed
(the room has applied the default action meanwhile, as it does whenever no decision comes).
The read task also reads which robots the workers serve (``serves``, paiju/bus/roster.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import time
from collections import deque

import redis.exceptions

from paiju.bus.link import (
    FIELD,
    REQUEST_MAXLEN,
    TRANSIENT,
    Link,
    cancel_all,
    decision_stream,
    entry_data,
    request_stream,
    stream_entries,
)
from paiju.bus.memory import RoomBus
from paiju.bus.roster import WorkerRoster
from paiju.protocol import Decision, DecisionRequest, ProtocolError, decode, encode

log = logging.getLogger("paiju.server")


class RedisRoomBus(RoomBus):
    def __init__(self, link: Link, server_id: str, *, request_maxlen: int = REQUEST_MAXLEN) -> None:
        self.link = link
        self.redis = link.redis
        self.server_id = server_id
        self.request_maxlen = request_maxlen
        self.published = 0
        self.received = 0
        self._out: deque[tuple[str, int, bytes]] = deque()  # (game, deadline_ms, frame) to send
        self._more = asyncio.Event()
        self._open: dict[tuple[str, int, int], tuple[str, int, bytes]] = {}  # (room, seat, prompt) -> request
        self._in: asyncio.Queue[Decision] = asyncio.Queue()
        self._last = "0-0"  # set to Redis's clock by start(): decisions older than this process are stale
        self._tasks: list[asyncio.Task[None]] = []
        self.roster = WorkerRoster()
        link.hooks.append(self._reconnected)

    async def start(self) -> None:
        sec, usec = await self.redis.time()
        self._last = f"{sec * 1000 + usec // 1000}-0"
        self._tasks = [
            asyncio.create_task(self._send_loop(), name="bus-send"),
            asyncio.create_task(self._read_loop(), name="bus-read"),
        ]

    def _reconnected(self, lost: bool) -> None:
        if not lost:
            return
        self._last = "0-0"  # our decision stream is new
        now = time.time() * 1000
        queued = {id(x) for x in self._out}
        again = [r for r in self._open.values() if r[1] > now and id(r) not in queued]
        self._out.extend(again)
        self._more.set()
        if again:
            log.info("bus: publishing %d unanswered requests again", len(again))

    # ------------------------------------------------------------------ RoomBus
    async def publish(self, request: DecisionRequest) -> None:
        if not request.reply_to:
            request = dataclasses.replace(request, reply_to=self.server_id)
        item = (request.game, request.deadline_ms, encode(request))
        self._open[(request.room, request.seat, request.prompt_id)] = item
        self._out.append(item)
        self._more.set()

    async def receive(self) -> Decision:
        return await self._in.get()

    def serves(self, game: str, robot: str) -> bool:
        return self.roster.serves(game, robot)

    async def close(self) -> None:
        await cancel_all(self._tasks)
        with contextlib.suppress(Exception):
            async with asyncio.timeout(1):
                await self.redis.delete(decision_stream(self.server_id))

    # ------------------------------------------------------------------ tasks
    async def _send_loop(self) -> None:
        while True:
            await self._more.wait()
            self._more.clear()
            while self._out:
                game, deadline, data = self._out[0]
                if deadline and time.time() * 1000 > deadline:
                    self._out.popleft()  # too late: the room's clock decides
                    continue
                try:
                    await self.redis.xadd(
                        request_stream(game), {FIELD: data}, maxlen=self.request_maxlen, approximate=True
                    )
                except TRANSIENT as e:
                    await self.link.failed(e)
                    continue
                except redis.exceptions.RedisError as e:  # refused (out of memory, ACL): not retried
                    log.error("bus: request for %s not published: %s", game, e)
                self._out.popleft()
                self.published += 1
            self._prune()

    def _prune(self) -> None:
        if len(self._open) > 64:
            now = time.time() * 1000
            for k in [k for k, v in self._open.items() if v[1] and v[1] < now]:
                del self._open[k]

    async def _read_loop(self) -> None:
        stream = decision_stream(self.server_id)
        while True:
            try:
                if self.roster.due():
                    await self.roster.read(self.redis)
                got = await self.redis.xread({stream: self._last}, count=256, block=1_000)
            except TRANSIENT as e:
                await self.link.failed(e)
                continue
            except redis.exceptions.RedisError as e:
                log.error("bus: reading %s failed: %s", stream, e)
                await asyncio.sleep(1)
                continue
            for _, entries in stream_entries(got):
                for entry_id, fields in entries:
                    self._last = entry_id.decode() if isinstance(entry_id, bytes) else str(entry_id)
                    data = entry_data(fields)
                    try:
                        d = decode(data) if data is not None else None
                    except ProtocolError:
                        d = None
                    if not isinstance(d, Decision):
                        log.error("bus: dropping malformed entry %s of %s", self._last, stream)
                        continue
                    self._open.pop((d.room, d.seat, d.prompt_id), None)
                    self.received += 1
                    self._in.put_nowait(d)
