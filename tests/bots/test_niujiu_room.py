"""A Niujiu room with two ``automaton`` robots and one client plays a hand: through
`paiju serve` (the in-process bus), and through Redis with a `paiju bots` worker. A robot
that failed or chose outside its options would be logged with a traceback and its seat
played by the clock's default action."""

from __future__ import annotations

import random

from paiju.client import Client
from paiju.protocol import Event, RoomEvent
from tests.redis.conftest import RedisServer, answered, free_port, start_bots, start_node
from tests.server.conftest import TEST_OPTIONS, start_server, stop_server


async def play_one_hand(url: str) -> list[Event]:
    c = await Client.connect(url, "player", record=True)
    try:
        st = await c.create("niujiu", bots=[1, 2], robot="automaton", hands=1, seed=5)
        assert st.seat == 0
        results = await c.play(random.Random(1), timeout=60)
    finally:
        await c.close()
    assert len(results) == 1 and results[0].final and sum(results[0].scores) == 0
    return [f for f in c.log if isinstance(f, Event)]


def robots_played(events: list[Event]) -> bool:
    """Seats 1 and 2 led, ate or covered (event codes 0x20, 0x21, 0x30)."""
    return {e.seat for e in events if e.code in (0x20, 0x21, 0x30)} >= {1, 2}


async def test_a_hand_through_paiju_serve() -> None:
    served = start_server(*TEST_OPTIONS)
    try:
        events = await play_one_hand(served.url)
    finally:
        out = stop_server(served)
    assert robots_played(events) and RoomEvent.TIMEOUT not in [e.code for e in events]
    assert "failed on" not in out and "Traceback" not in out, out[-3000:]


async def test_a_hand_through_redis_and_a_bots_worker() -> None:
    redis = RedisServer(free_port())
    redis.start()
    try:
        server = start_node(redis.url)
        worker = start_bots(redis.url, "worker-niujiu")
        try:
            events = await play_one_hand(server.url)
        finally:
            log = worker.stop()
            out = server.stop()
    finally:
        redis.stop()
    assert robots_played(events) and RoomEvent.TIMEOUT not in [e.code for e in events]
    assert answered(log).get("niujiu", 0) > 0
    assert "Traceback" not in out + log, (out + log)[-3000:]
