"""A bridge room that plays the deals of a PBN file survives a restart: its log keeps the
rules' deals (not only the ruleset's name), so the rebuilt room finishes the board in play
and deals the next one from the file too."""

from __future__ import annotations

import asyncio
import random
import signal

import redis.asyncio as aioredis

from paiju.bus.link import ROOMS, room_log
from paiju.client import Client
from paiju.core.roomlog import replay
from paiju.protocol import Event, RoomEvent
from tests.server.test_pbn import BOARDS, PBN

from .conftest import RedisServer, start_bots, start_serve
from .test_restart import OPTS, settle


async def test_pbn_room_rebuilt_after_a_restart_keeps_its_deals(redis_server: RedisServer) -> None:
    rng = random.Random(5)
    bots = start_bots(redis_server.url, "w", "--concurrency", "2")
    server = start_serve(redis_server.url, *OPTS)
    r = aioredis.from_url(redis_server.url)
    ann = await Client.connect(server.url, "ann", record=True)
    back: Client | None = None
    try:
        st = await ann.create("bridge", bots=[1, 2, 3], robot="random", clock_ms=30_000, seed=17, pbn=PBN)
        async with asyncio.timeout(30):  # killed while Ann's first call is asked for (South and West have called)
            while not ann.prompts:
                await ann.recv()
        await settle(ann)
        seen, token = ann.seq, ann.token
        server.stop(signal.SIGKILL)
        await ann.abort()

        server2 = start_serve(redis_server.url, *OPTS)
        m = server2.wait_for(rf"room {st.room} \(bridge\) rebuilt from its log at seq (\d+), hand (\d+)")
        assert (int(m.group(1)), int(m.group(2))) == (seen, 0), "killed in the first board"
        back = await Client.connect(server2.url, "ann", token=token, last_seq=seen, record=True)
        results = await back.play(rng, timeout=60)
        assert [x.hand for x in results] == [0, 1], "hands default to one per deal of the file"
        deals = [
            e.cards
            for c in (ann, back)
            for e in c.log
            if isinstance(e, Event) and e.code == RoomEvent.DEAL and e.seat == 0
        ]
        assert deals == [BOARDS[0].hands[0], BOARDS[1].hands[0]], "both hands dealt from the file"
        for x, board in zip(results, BOARDS, strict=True):
            assert tuple(x.hands) == board.hands and x.detail["board"] == board.board

        async with asyncio.timeout(5):
            while await r.hexists(ROOMS, st.room):
                await asyncio.sleep(0.02)
        rp = replay(st.room, await r.lrange(room_log(st.room), 0, -1))
        assert rp.rules.deals == tuple(str(b.spec) for b in BOARDS) and rp.results == results
        print(
            f"PBN room killed at seq {seen}, rebuilt with its {len(rp.rules.deals)} deals, boards played "
            f"{[x.detail['board'] for x in results]}"
        )
        out = server2.stop()
        assert "Traceback" not in out, out[-3000:]
    finally:
        for c in (ann, back):
            if c is not None:
                await c.close()
        await r.aclose()
        server.stop(signal.SIGKILL)
        bots.stop()
        if "server2" in locals():
            server2.stop()
