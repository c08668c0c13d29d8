"""A finished room's log stays in Redis for its time to live (replays, audits), even when
Redis restarts empty meanwhile: the server writes it again with the logs of the rooms in play."""

from __future__ import annotations

import asyncio
import time

import redis

from paiju.bus.link import room_log
from paiju.client import Client
from tests.redis.conftest import RedisServer, free_port, start_node


async def test_a_finished_rooms_log_survives_an_empty_redis() -> None:
    r = RedisServer(free_port())
    r.start()
    proc = start_node(r.url)
    ann = bob = None
    try:
        ann = await Client.connect(proc.url, "ann")
        bob = await Client.connect(proc.url, "bob")
        st = await ann.create("tricks", hands=1, clock_ms=60_000)
        await bob.join(st.room, 1)
        await asyncio.gather(ann.play(), bob.play())  # random moves to MATCH_END
        key = room_log(st.room)
        with redis.Redis.from_url(r.url) as db:
            n = db.llen(key)
        assert n > 10, "the finished room's log is in Redis"
        r.stop()
        r.start()  # the same port, no data
        deadline = time.monotonic() + 30
        while True:
            with redis.Redis.from_url(r.url) as db:
                got, ttl = db.llen(key), db.ttl(key)
            if got == n or time.monotonic() > deadline:
                break
            await asyncio.sleep(0.2)
        assert (got, ttl > 0) == (n, True), f"{got} of {n} entries written again, ttl {ttl}"
        print(f"the finished room's log, {n} entries, written again into the empty Redis (ttl {ttl} s)")
    finally:
        for c in (ann, bob):
            if c is not None:
                await c.close()
        proc.stop()
        r.stop()
