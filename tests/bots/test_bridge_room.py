"""A bridge room with three `hybrid` robots and one client plays a whole board: through
`paiju serve` (the in-process bus) and through Redis with a `paiju bots` worker. The robots
sample one deal a decision here (PAIJU_BRIDGE_SAMPLES; more from the fourth trick) to keep the
test quick: the sampling runs, its strength is tested elsewhere (tests/bots/test_bridge_play.py).
The worker runs them in its process pool, off the event loop."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from paiju.client import Client
from paiju.protocol import CreateRoom, Event, RoomEvent, RoomState
from paiju.protocol.bridge import EventCode
from tests.redis.conftest import RedisServer, answered, start_bots, start_node
from tests.redis.conftest import redis_server as redis_server  # the fixture
from tests.server.conftest import TEST_OPTIONS, start_server, stop_server

SAMPLES = {"PAIJU_BRIDGE_SAMPLES": "1"}


@pytest.fixture
def few_samples(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for k, v in SAMPLES.items():
        monkeypatch.setenv(k, v)
    yield


async def play_one_board(url: str) -> list[Event]:
    c = await Client.connect(url, "player", record=True)
    try:
        # Client.create waits 10 s; a loaded machine may need longer for a fresh server's first room
        f = CreateRoom("bridge", None, 1, 120_000, [1, 2, 3], "hybrid", False, 7, None)
        st = await c.request(f, lambda x: isinstance(x, RoomState), timeout=90)
        assert isinstance(st, RoomState) and st.seat == 0
        results = await c.play(random.Random(1), timeout=240)
    finally:
        await c.close()
    assert len(results) == 1 and results[0].final
    return [f for f in c.log if isinstance(f, Event)]


def check_board(events: list[Event]) -> None:
    codes = [e.code for e in events]
    assert RoomEvent.MATCH_END in codes
    assert RoomEvent.TIMEOUT not in codes, "a robot's request went unanswered"
    assert RoomEvent.HAND_END in codes
    assert EventCode.PASSED_OUT in codes or EventCode.CONTRACT in codes  # a whole auction, then the play
    if EventCode.CONTRACT in codes:
        assert codes.count(EventCode.TRICK) >= 1


async def test_three_hybrid_robots_and_a_client_through_serve(few_samples: None) -> None:
    served = start_server(*TEST_OPTIONS)
    try:
        events = await play_one_board(served.url)
    finally:
        out = stop_server(served)
    check_board(events)
    assert "failed on" not in out and "Traceback" not in out, out[-3000:]


@pytest.mark.redis
async def test_three_hybrid_robots_and_a_client_through_redis(few_samples: None, redis_server: RedisServer) -> None:
    server = start_node(redis_server.url)
    bots = start_bots(redis_server.url, "bridge-worker")
    try:
        events = await play_one_board(server.url)
    finally:
        worker_log = bots.stop()
        server_log = server.stop()
    check_board(events)
    assert "Traceback" not in worker_log + server_log, (worker_log + server_log)[-3000:]
    assert answered(worker_log).get("bridge", 0) >= 3  # the worker answered the robots' requests
