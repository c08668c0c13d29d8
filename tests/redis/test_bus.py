"""Both sides of the Redis bus in one process, against a real redis-server: routing back
to the server that asked, late requests dropped, only answered requests acknowledged,
bounded deliveries of a request that keeps failing, capped stream lengths."""

from __future__ import annotations

import asyncio
import logging
import time

import pytest

from paiju import games
from paiju.bots.worker import Worker
from paiju.bus.link import DEAD_LETTERS, GROUP, Link, client, request_stream
from paiju.bus.rooms import RedisRoomBus
from paiju.bus.workers import RedisWorkerBus
from paiju.protocol import Decision, DecisionRequest

from .conftest import RedisServer

log = logging.getLogger("test")


def request(prompt_id: int, *, ttl_ms: int = 30_000, room: str = "r1") -> DecisionRequest:
    g = games.create("tricks", 1)
    seat = g.to_act()[0]
    legal = g.legal(seat)
    deadline = int(time.time() * 1000) + ttl_ms
    return DecisionRequest(
        room, "tricks", "standard", seat, prompt_id, deadline, "random", legal.mask, list(legal.options), g.view(seat)
    )


async def link(url: str, name: str) -> Link:
    lk = Link(client(url), url, name, log)
    await lk.start()
    return lk


async def test_round_trip_late_and_routing(redis_server: RedisServer) -> None:
    links = [await link(redis_server.url, n) for n in ("s1", "s2", "w")]
    s1, s2 = RedisRoomBus(links[0], "srv-1"), RedisRoomBus(links[1], "srv-2")
    await s1.start()
    await s2.start()
    wbus = RedisWorkerBus(links[2], "w", lease_ms=500)
    worker = Worker(wbus, ["tricks"], concurrency=2)
    await s1.publish(request(99, ttl_ms=100))  # its deadline passes before any worker runs
    async with asyncio.timeout(5):
        while s1.published < 1:
            await asyncio.sleep(0.01)
    await s1.publish(request(98, ttl_ms=-1))  # already late: not even published
    await asyncio.sleep(0.2)
    task = asyncio.create_task(worker.run())
    try:
        for i in range(1, 11):
            await (s1 if i % 2 else s2).publish(request(i))
        got1 = [await asyncio.wait_for(s1.receive(), 5) for _ in range(5)]
        got2 = [await asyncio.wait_for(s2.receive(), 5) for _ in range(5)]
        assert sorted(d.prompt_id for d in got1) == [1, 3, 5, 7, 9]
        assert sorted(d.prompt_id for d in got2) == [2, 4, 6, 8, 10]
        async with asyncio.timeout(5):
            while worker.dropped < 1:
                await asyncio.sleep(0.02)
        assert worker.answered == 10 and worker.dropped == 1  # the late one got no answer
        assert s1.published == 6
        pend = await links[2].redis.xpending(request_stream("tricks"), GROUP)
        assert pend["pending"] == 0
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        await wbus.close()
        for b in (s1, s2):
            await b.close()
        for lk in links:
            await lk.close()


async def test_only_answered_requests_are_acknowledged_and_retries_are_bounded(
    redis_server: RedisServer, caplog: pytest.LogCaptureFixture
) -> None:
    links = [await link(redis_server.url, n) for n in ("s", "a", "b")]
    srv = RedisRoomBus(links[0], "srv")
    await srv.start()
    a = RedisWorkerBus(links[1], "a", lease_ms=100, max_deliveries=3)
    b = RedisWorkerBus(links[2], "b", lease_ms=100, max_deliveries=3)
    stream = request_stream("tricks")
    try:
        await srv.publish(request(1))
        await srv.publish(request(2))
        d1 = await asyncio.wait_for(a.take(["tricks"]), 5)
        d2 = await asyncio.wait_for(a.take(["tricks"]), 5)
        await a.reply(d1, Decision("r1", d1.request.seat, d1.request.prompt_id, 0, b""))
        assert (await asyncio.wait_for(srv.receive(), 5)).prompt_id == d1.request.prompt_id
        pend = await links[0].redis.xpending(stream, GROUP)
        assert pend["pending"] == 1  # the answered one is acknowledged, the other is still held
        await a.close()  # "a" dies holding d2: it stops renewing its lease
        deliveries = 1
        caplog.set_level(logging.INFO, "paiju.cli.bots")
        async with asyncio.timeout(10):
            # "b" takes it over after the lease, and keeps failing (never answers) ...
            while True:
                d = await b.take(["tricks"])
                assert d.request.prompt_id == d2.request.prompt_id
                deliveries += 1
                b._held[stream].clear()  # ... like a worker that crashes on it: no renewal
                if deliveries == 3:
                    break
            # ... until the third delivery: then it is given up and dead-lettered
            while b.gave_up == 0:
                await asyncio.sleep(0.02)
        assert b.claimed == 2
        assert (await links[0].redis.xpending(stream, GROUP))["pending"] == 0
        assert await links[0].redis.xlen(DEAD_LETTERS) == 1
        assert "gave up on request" in caplog.text and "after 3 deliveries" in caplog.text
    finally:
        await b.close()
        await srv.close()
        for lk in links:
            await lk.close()


async def test_stream_lengths_are_capped(redis_server: RedisServer) -> None:
    lk = await link(redis_server.url, "s")
    srv = RedisRoomBus(lk, "srv", request_maxlen=200)
    await srv.start()
    try:
        for i in range(2_000):
            await srv.publish(request(i + 1))
        async with asyncio.timeout(20):
            while srv.published < 2_000:
                await asyncio.sleep(0.05)
        n = await lk.redis.xlen(request_stream("tricks"))
        print(f"2,000 requests published with MAXLEN ~200: the stream holds {n}")
        assert 200 <= n <= 400
    finally:
        await srv.close()
        await lk.close()
