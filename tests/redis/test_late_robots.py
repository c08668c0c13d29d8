"""Robots that arrive late: a room whose robot seats are asked for before any `paiju bots`
worker has registered waits for one (ROOM_STATE's ``waiting`` says why) and plays once a real
worker process, started a moment later, announces itself; with no worker within the server's
``--robot-wait`` the room closes with ERROR ROBOTS_UNAVAILABLE and the connection carries on.
(The room core's side, every case: tests/server/test_robot_wait.py.)"""

from __future__ import annotations

import asyncio

from paiju.client import Client
from paiju.protocol import Error, ErrorCode, Event, Result, RoomEvent, RoomState

from .conftest import RedisServer, start_bots, start_node


async def waiting_state(c: Client, first: RoomState) -> RoomState:
    """The ROOM_STATE that says the room waits for its robots' worker (maybe the first)."""
    st = first
    while not st.waiting:
        f = await c.recv(timeout=30)
        if isinstance(f, RoomState):
            st = f
    return st


async def test_a_room_waits_for_a_worker_started_after_it(redis_server: RedisServer) -> None:
    server = start_node(redis_server.url, "--robot-wait", "600")
    bots = None
    c = await Client.connect(server.url, "watcher", record=True)
    try:
        first = await c.create("tricks", bots=[0, 1], hands=1)
        held = await waiting_state(c, first)
        assert held.waiting.startswith("waiting for a worker that serves tricks/") and "(up to 600 s)" in held.waiting
        await asyncio.sleep(0.5)
        assert not [f for f in c.log if isinstance(f, Event) and f.code == RoomEvent.HAND_START]  # held
        bots = await asyncio.to_thread(start_bots, redis_server.url, "late")  # a real process, a moment later
        results = await c.until_match_end(timeout=120)
    finally:
        await c.close()
        answered = bots.stop() if bots is not None else ""
        out = server.stop()
    assert "Traceback" not in out, out[-3000:]
    states = [f for f in c.log if isinstance(f, RoomState)]
    assert states[-1].waiting == "" and states[-1].seq >= held.seq  # told the wait is over
    codes = [f.code for f in c.log if isinstance(f, Event)]
    assert RoomEvent.TIMEOUT not in codes, "a robot seat was played by the clock, not by the worker"
    assert len(results) == 1 and results[0].final and not [f for f in c.log if isinstance(f, Error)]
    assert "answered 0 " not in answered and "stopped: answered" in answered


async def test_no_worker_within_the_bound_closes_the_room_cleanly(redis_server: RedisServer) -> None:
    server = start_node(redis_server.url, "--robot-wait", "2")
    c = await Client.connect(server.url, "watcher", record=True)
    try:
        first = await c.create("tricks", bots=[0, 1], hands=1)
        held = await waiting_state(c, first)
        assert "(up to 2 s)" in held.waiting
        err = await c.recv(timeout=60)
        while not isinstance(err, Error):
            assert not isinstance(err, Result)
            err = await c.recv(timeout=60)
        assert (err.code, err.ref_type) == (ErrorCode.ROBOTS_UNAVAILABLE, None)
        assert "no worker served tricks/" in err.message and "within 2 s" in err.message
        # the connection carries on, free of the room: a new room, with a human seat this time
        again = await c.create("tricks", bots=[1], hands=1)
        assert again.room != first.room and again.seat == 0
        assert (await c.ping()).nonce is not None
    finally:
        await c.close()
        out = server.stop()
    assert "Traceback" not in out, out[-3000:]
