"""`paiju bots --metrics-port`: a worker on Redis serves its own Prometheus metrics, which
move as it answers the robot seats of a room played through `paiju serve --redis`."""

from __future__ import annotations

import urllib.request

from paiju.loadtest import Options, run
from paiju.loadtest.scrape import Scrape, parse

from .conftest import RedisServer, free_port, start_bots, start_node


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
        # every seat a robot: the load generator's one client per room watches
        r = await run(Options(server.url, game="tricks", rooms=2, robots_per_room=2, duration=3, ramp=1, hands=1))
        after = scrape(port)
    finally:
        bots.stop()
        out = server.stop()
    assert "Traceback" not in out
    assert r.stats.hands > 0
    answered = after.total("paiju_worker_requests_total", game="tricks", outcome="answered")
    assert answered > before.total("paiju_worker_requests_total", game="tricks", outcome="answered")
    assert after.total("paiju_worker_decision_seconds_count", game="tricks") == answered
    assert "process_resident_memory_bytes" in after.samples
