"""`paiju bots --metrics-port`: a worker on Redis serves its own Prometheus metrics, which
move as it answers the robot seats of a room played through `paiju serve --redis`."""

from __future__ import annotations

import urllib.request

from paiju.loadtest.scrape import Scrape, parse
from paiju.protocol import RoomEvent

from .conftest import RedisServer, free_port, start_bots, start_node, watch_robots


def scrape(port: int) -> Scrape:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as r:
        return parse(r.read().decode())


async def test_worker_metrics_move_as_it_answers(redis_server: RedisServer) -> None:
    port = free_port()
    server = start_node(redis_server.url)
    bots = start_bots(redis_server.url, "metered", "--metrics-port", str(port))
    try:
        bots.wait_for(rf"metrics at http://127\.0\.0\.1:{port}/metrics")
        before = scrape(port)
        # a match played to its end, every seat a robot (not a load run of fixed length: on a
        # busy machine such a run may end before its first hand does)
        events = await watch_robots(server.url, "tricks", hands=1)
        after = scrape(port)
    finally:
        bots.stop()
        out = server.stop()
    assert "Traceback" not in out
    assert RoomEvent.MATCH_END in [e.code for e in events]
    answered = after.total("paiju_worker_requests_total", game="tricks", outcome="answered")
    assert answered > before.total("paiju_worker_requests_total", game="tricks", outcome="answered")
    assert after.total("paiju_worker_decision_seconds_count", game="tricks") == answered
    assert "process_resident_memory_bytes" in after.samples
