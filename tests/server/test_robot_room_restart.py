"""A watched robot match (no human seated) killed with its server and rebuilt from its log
in Redis like any other room: the spectator resumes with its token and ``last_seq``, gets
each missed event once, and watches the match to its final RESULT and MATCH_END."""

from __future__ import annotations

import asyncio
import signal

from paiju.client import Client
from paiju.protocol import Event, Result, RoomEvent, RoomState
from tests.redis.conftest import RedisServer, free_port, start_bots, start_serve

# robots paced, so that the match is still on when the server is killed
OPTS = ("--secret", "test-secret", "--server-id", "srv-robots", "--robot-pace", "0.1")


async def test_a_watched_robot_match_is_rebuilt_after_a_restart() -> None:
    r = RedisServer(free_port())
    r.start()
    bots = start_bots(r.url, "w")
    server = start_serve(r.url, *OPTS)
    server2 = None
    eve = back = None
    try:
        eve = await Client.connect(server.url, "eve", record=True)
        st = await eve.create("tricks", bots=[0, 1], hands=2, clock_ms=30_000, seed=5)
        assert st.seat is None, "every seat a robot: the creator watches"
        async with asyncio.timeout(30):
            while eve.seq < 12:  # a few robot moves into the first hand
                await eve.recv()
        server.stop(signal.SIGKILL)
        seen, token = eve.seq, eve.token
        await eve.abort()

        server2 = start_serve(r.url, *OPTS)
        m = server2.wait_for(rf"room {st.room} \(tricks\) rebuilt from its log at seq (\d+)")
        assert int(m.group(1)) >= seen
        back = await Client.connect(server2.url, "eve", token=token, last_seq=seen, record=True)
        async with asyncio.timeout(60):  # (robots play: the clock, 30 s a move, would not finish in time)
            while not any(isinstance(f, Event) and f.code == RoomEvent.MATCH_END for f in back.log):
                await back.recv()
        events = [f.seq for f in back.log if isinstance(f, Event)]
        assert not any(isinstance(f, RoomState) for f in back.log), "resumed from the log's events, no snapshot"
        assert events == list(range(seen + 1, seen + 1 + len(events))), "each missed event once, in order"
        finals = [f for f in back.log if isinstance(f, Result) and f.final]
        assert len(finals) == 1 and finals[0].hand == 1
        print(f"robot match killed at seq {seen}, rebuilt at {m.group(1)}; the watcher saw {len(events)} more events")
    finally:
        for c in (eve, back):
            if c is not None:
                await c.close()
        server.stop(signal.SIGKILL)
        if server2 is not None:
            out = server2.stop()
            assert "Traceback" not in out, out[-3000:]
        bots.stop()
        r.stop()
