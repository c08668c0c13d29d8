"""`GET /metrics`: Prometheus text that prometheus_client's own parser reads, with every
metric docs/operations.md names present, and each one moving after a played hand."""

from __future__ import annotations

import asyncio
import random
import urllib.request

import pytest
from websockets.asyncio.client import ClientConnection, connect

from paiju.client import Client
from paiju.loadtest.scrape import Scrape, parse
from paiju.protocol import (
    VERSION,
    Action,
    CreateRoom,
    Error,
    Event,
    Frame,
    Hello,
    Prompt,
    RoomEvent,
    RoomState,
    Welcome,
    decode,
    encode,
)

from .conftest import TEST_OPTIONS, Launched, Served, start_process, stop_server


def scrape(s: Served | Launched) -> Scrape:
    with urllib.request.urlopen(s.http + "/metrics", timeout=10) as r:
        assert r.headers["Content-Type"].startswith("text/plain; version=")
        return parse(r.read().decode())


async def until(ws: ClientConnection, want: type[Frame], timeout: float = 20) -> Frame:
    async with asyncio.timeout(timeout):
        while True:
            f = decode(await ws.recv())  # type: ignore[arg-type]
            if isinstance(f, want):
                return f


# counters (and histogram counts) that must move, summed over the series with these labels
MOVING = [
    ("paiju_frames_total", {"direction": "in"}),
    ("paiju_frames_total", {"direction": "out"}),
    ("paiju_frame_bytes_total", {"direction": "in"}),
    ("paiju_frame_bytes_total", {"direction": "out"}),
    ("paiju_actions_applied_total", {"game": "tricks"}),
    ("paiju_errors_total", {"code": "MALFORMED"}),
    ("paiju_action_broadcast_seconds_count", {"game": "tricks"}),
    ("paiju_bus_requests_total", {"game": "tricks"}),
    ("paiju_robot_decision_seconds_count", {"game": "tricks"}),
    ("paiju_clock_default_actions_total", {"game": "tricks", "player": "human"}),
    ("paiju_resumes_total", {}),
    ("paiju_worker_requests_total", {"game": "tricks", "outcome": "answered"}),
    ("paiju_worker_decision_seconds_count", {"game": "tricks"}),
]


async def test_every_metric_is_present_and_moves_after_a_hand(served: Served) -> None:
    before = scrape(served)
    async with connect(served.url, compression=None) as ws:
        await ws.send(encode(Hello(VERSION, "metered")))
        w = await until(ws, Welcome)
        assert isinstance(w, Welcome)
        await ws.send(b"\xc1")  # never valid msgpack: an ERROR
        await until(ws, Error)
        # a robot in seat 1, a short clock: the human's second prompt times out
        await ws.send(encode(CreateRoom("tricks", None, 1, 300, [1], None, True)))
        st = await until(ws, RoomState)
        assert isinstance(st, RoomState)
        during = scrape(served)
        p = await until(ws, Prompt)
        assert isinstance(p, Prompt) and p.mask
        await ws.send(encode(Action(p.prompt_id, p.options[0].code, p.options[0].cards[: p.options[0].pick])))
        async with asyncio.timeout(20):
            while True:  # the next prompt of ours is left to the clock
                f = decode(await ws.recv())  # type: ignore[arg-type]
                if isinstance(f, Event) and f.code == RoomEvent.TIMEOUT:
                    break
        last_seq = f.seq
    # the connection is gone (a robot plays the seat meanwhile); the player resumes
    async with connect(served.url, compression=None) as ws:
        await ws.send(encode(Hello(VERSION, "metered", w.token, last_seq)))
        async with asyncio.timeout(30):
            while True:
                f = decode(await ws.recv())  # type: ignore[arg-type]
                if isinstance(f, Prompt) and f.mask:
                    o = f.options[0]
                    await ws.send(encode(Action(f.prompt_id, o.code, o.cards[: o.pick])))
                elif isinstance(f, Event) and f.code == RoomEvent.MATCH_END:
                    break
    after = scrape(served)

    assert during.total("paiju_connections") >= 1
    assert during.value("paiju_rooms", game="tricks", state="playing") >= 1
    assert during.value("paiju_players", where="seated") >= 1
    for name in ("paiju_connections", "paiju_rooms", "paiju_players", "process_resident_memory_bytes"):
        assert name in after.samples, name
    still = [
        (name, labels, before.total(name, **labels), after.total(name, **labels))
        for name, labels in MOVING
        if not after.total(name, **labels) > before.total(name, **labels)
    ]
    assert not still, f"metrics that did not move: {still}"


def test_hot_path_histogram_reads_as_prometheus_clients_own() -> None:
    """The latency histograms kept in plain lists (paiju.server.metrics._Times) expose the same
    buckets, count and sum as a prometheus_client Histogram given the same observations,
    values on a bucket's bound included (``le`` is inclusive)."""
    from prometheus_client import CollectorRegistry, Histogram, generate_latest

    from paiju.server.metrics import _FAST, _Times

    values = [0.0, 0.0002, 0.00021, 0.001, 0.0049, 0.005, 0.3, 1.0, 7.5, 1e-9]
    ours, registry = _Times("t_seconds", "t", _FAST), CollectorRegistry()
    theirs = Histogram("t_seconds", "t", ["game"], buckets=_FAST, registry=registry)
    for i, v in enumerate(values):
        game = ("tricks", "mahjong")[i % 2]
        ours.observe(game, v)
        theirs.labels(game).observe(v)
    mine = CollectorRegistry()
    mine.register(type("C", (), {"collect": lambda self: [ours.family()]})())  # type: ignore[arg-type]

    def series(text: bytes) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
        s = parse(text.decode())
        kept = {name: by for name, by in s.samples.items() if not name.endswith("_created")}
        return {(name, labels): v for name, by in kept.items() for labels, v in by.items()}

    got = series(generate_latest(mine))
    assert len(got) == 2 * (len(_FAST) + 1 + 2)  # per game: the buckets, +Inf, count and sum
    assert got == series(generate_latest(registry))


@pytest.mark.parametrize("processes", [1, 2])
async def test_the_robots_processes_are_as_many_as_asked(processes: int) -> None:
    """``paiju serve --robot-processes N``: however many decisions of the cpu-heavy mahjong
    robots are asked at once (three rooms of three robots), N processes decide."""

    async def match(i: int) -> None:
        c = await Client.connect(s.url, f"counted{i}")
        await c.create("mahjong", hands=1, bots=[1, 2, 3], robot="bdi-hudist")
        await c.play(random.Random(i))
        await c.close()

    s = start_process(*TEST_OPTIONS, "--robot-processes", str(processes))  # the metrics of a process of its own
    try:
        assert scrape(s).value("paiju_worker_pool_processes") == 0  # none before the first decision
        await asyncio.gather(*(match(i) for i in range(3)))
        after = scrape(s)
        assert after.value("paiju_worker_pool_processes") == processes
        assert after.total("paiju_worker_requests_total", game="mahjong", outcome="answered") > 9
    finally:
        stop_server(s)
