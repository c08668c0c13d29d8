"""`redis-server` stopped for a few seconds mid-match and started again (empty: no
persistence): the server keeps the room going (bot seats get the default action at their
deadline), server and workers reconnect on their own, the bus resumes (robots answer
again), the room's log is written again in full, and the match completes."""

from __future__ import annotations

import asyncio
import time

import pytest
import redis.asyncio as aioredis

from paiju.bus.link import room_log
from paiju.client import Client
from paiju.core.lifecycle import Phase
from paiju.core.roomlog import replay
from paiju.protocol import Event, Result, RoomEvent
from paiju.protocol.actions import ECHO
from paiju.testing.launch import all_started

from .conftest import SLOW, RedisServer, start_bots, start_node

OUTAGE_S = 2.5


async def test_redis_restarted_mid_match(
    redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch, slow_robot: str
) -> None:
    monkeypatch.setenv("PAIJU_SLOW_MS", "100")
    opts = ("--robots-module", SLOW, "--games", "tricks", "--concurrency", "2", "--lease-ms", "500")
    server = start_node(redis_server.url)
    a = start_bots(redis_server.url, "worker-a", *opts, wait=False)
    b = start_bots(redis_server.url, "worker-b", *opts, wait=False)
    all_started(a, b)  # (side by side)
    c = await Client.connect(server.url, "watcher", record=True)
    try:
        st = await c.create("tricks", bots=[0, 1], hands=2, robot="slow", clock_ms=800)
        async with asyncio.timeout(30):
            while c.seq < 12:  # mid-match: some cards played
                await c.recv()
        redis_server.stop()
        down_seq, t0 = c.seq, time.monotonic()
        await asyncio.sleep(OUTAGE_S)
        redis_server.start()
        up_seq = c.seq
        await c.until_match_end(timeout=60)
        total_s = time.monotonic() - t0
        for p in (server, a, b):
            p.wait_for(r"redis: reconnected to .* after [\d.]+ s .*its data was lost", timeout=10)
        events = [f for f in c.log if isinstance(f, Event)]
        assert RoomEvent.MATCH_END in [e.code for e in events]
        during = [e for e in events if down_seq < e.seq <= up_seq]
        after = [e for e in events if e.seq > up_seq]
        timeouts_during = sum(e.code == RoomEvent.TIMEOUT for e in during)
        plays_after = sum(e.code >= ECHO for e in after)
        timeouts_after = sum(e.code == RoomEvent.TIMEOUT for e in after)
        assert timeouts_during >= 1, "the room kept going on default actions while Redis was down"
        assert plays_after > timeouts_after + 5, "robots answered again after the reconnection"

        # The room's log was written again in full after Redis came back empty.
        r = aioredis.from_url(redis_server.url)
        try:
            async with asyncio.timeout(5):
                while not await r.exists(room_log(st.room)) or await r.ttl(room_log(st.room)) < 0:
                    await asyncio.sleep(0.05)
            rp = replay(st.room, await r.lrange(room_log(st.room), 0, -1))
        finally:
            await r.aclose()
        results = [f for f in c.log if isinstance(f, Result)]
        assert rp.phase is Phase.OVER and rp.results == results and rp.seq == events[-1].seq
        print(
            f"Redis down {OUTAGE_S} s at seq {down_seq}: {timeouts_during} default actions meanwhile; "
            f"after it: {plays_after} plays, {timeouts_after} timeouts; match over {total_s:.1f} s after the stop; "
            f"log rewritten ({rp.seq} events)"
        )
        for p in (a, b):
            assert "Traceback" not in p.stop()
        assert "Traceback" not in server.stop()
    finally:
        await c.close()
        for p in (a, b, server):
            p.stop()
