"""A room still waiting for its players when its node dies is taken over like the others:
its creator resumes through another node, a second player joins through a third route, and
the match is played to its end there."""

from __future__ import annotations

import asyncio
import random
import signal
from pathlib import Path

import pytest
import redis.asyncio as aioredis

from paiju.bench.cluster import owners_of
from paiju.client import Client
from paiju.protocol import Welcome
from tests.redis.conftest import RedisServer

from .conftest import redis_server, start_two

__all__ = ["redis_server"]


@pytest.mark.slow
async def test_a_waiting_room_is_taken_over(redis_server: RedisServer, tmp_path: Path) -> None:
    a, b, bots = start_two(redis_server, tmp_path)
    r = aioredis.from_url(redis_server.url)
    ann = await Client.connect(a.url, "ann", urls=[a.url, b.url])
    bob = await Client.connect(b.url, "bob", urls=[b.url])
    try:
        st = await ann.create("tricks", hands=1, clock_ms=60_000)  # waits for a second person
        assert (await owners_of(r)).get(st.room) == "a"
        a.stop(signal.SIGKILL)
        async with asyncio.timeout(20):
            while (await owners_of(r)).get(st.room) != "b":
                await asyncio.sleep(0.1)
        b.wait_for(rf"room {st.room} taken over from node a")
        w = await ann.reconnect(timeout=20)
        assert isinstance(w, Welcome) and ann.url == b.url and ann.room == st.room
        joined = await bob.join(st.room, 1)
        assert joined.seat == 1
        rng = random.Random(2)
        r1, r2 = await asyncio.gather(ann.play(rng, timeout=60), bob.play(rng, timeout=60))
        assert r1 == r2 and r1[-1].final
    finally:
        for c in (ann, bob):
            await c.close()
        await r.aclose()
        bots.stop()
        out = b.stop()
        assert "Traceback" not in out, out[-3000:]
