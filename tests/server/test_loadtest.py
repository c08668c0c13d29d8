"""`paiju loadtest` against a real `paiju serve`, a few seconds with small counts: its JSON
report, its plot, its thresholds (exit 1) and its refusals (exit 2)."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from paiju.testing.launch import ROOT, Child

from .conftest import TEST_OPTIONS, Served, serving


@pytest.fixture(scope="module")
def raw() -> Iterator[Served]:
    """A server set up for a load test as docs/operations.md says: robots at full speed, no
    per-connection rate limit (a client of a room at full speed acts hundreds of times a
    second) and no per-address bound (every load-test client comes from one address)."""
    yield from serving(*TEST_OPTIONS, *("--rate", "100000", "--burst", "100000", "--address-connections", "0"))


def loadtest(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "paiju", "loadtest", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_loadtest_plays_and_reports_json(raw: Served, tmp_path: Path) -> None:
    png = tmp_path / "run.png"
    p = loadtest(
        raw.url,
        *("--game", "tricks", "--rooms", "3", "--robots-per-room", "1", "--hands", "2"),
        *("--duration", "2.5", "--ramp", "0.5", "--idle", "3", "--ping-interval", "0.3", "--drops", "1"),
        *("--json", "--quiet", "--plot", str(png), "--max-errors", "0", "--max-p99-ms", "0.001"),
    )
    # the p99 threshold of 1 microsecond cannot be met: exit 1, one line naming it
    assert p.returncode == 1, (p.returncode, p.stderr[-3000:])
    assert "threshold passed: p99 next prompt" in p.stderr and "max-errors" not in p.stderr, p.stderr
    r = json.loads(p.stdout)
    assert r["mode"] == "play" and r["game"] == "tricks" and r["rooms"] == 3
    assert r["players_per_room"] == r["seats"] - 1 and r["robots_per_room"] == 1
    assert r["actions"] > 0 and r["actions_per_s"] > 0 and r["hands"] > 0 and r["frames_per_s"] > 0
    assert r["generator_cpu_percent"] > 0 and r["generator_cpu_us_per_frame"] > 0  # its own cost, measured
    for kind in ("ack", "next_prompt", "ping"):
        lat = r["latency_ms"][kind]
        assert lat["n"] > 0 and 0 < lat["p50"] <= lat["p90"] <= lat["p99"] <= lat["max"], (kind, lat)
    assert r["errors"] == {} and r["error_count"] == 0 and r["disconnects"] == 0
    assert r["drops"] == 1 and r["resumes"] >= 1
    assert r["connections_peak"] == 3 * r["players_per_room"] + 3
    s = r["server"]
    assert s is not None and s["actions_per_s"] > 0 and s["frames_out_per_s"] > 0 and s["resumes"] >= 1
    assert s["bus_requests_per_s"] > 0 and s["action_broadcast_ms"]["p99"] > 0
    assert len(r["series"]) >= 2 and sum(t["actions"] for t in r["series"]) > 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    print(
        f"loadtest: {r['actions_per_s']} actions/s, next prompt p99 {r['latency_ms']['next_prompt']['p99']} ms, "
        f"server {s['actions_per_s']} actions/s"
    )


def test_loadtest_refusals_are_one_line(served: Served) -> None:
    p = loadtest(served.url, "--game", "chess", "--duration", "1", "--quiet")
    assert p.returncode == 2 and "Traceback" not in p.stderr
    assert p.stderr.startswith("paiju loadtest: the server refused a chess room: BAD_ROOM_OPTIONS"), p.stderr
    p = loadtest(served.url, "--game", "tricks", "--robots-per-room", "9", "--quiet")
    assert p.returncode == 2 and "--robots-per-room must be 0.." in p.stderr, p.stderr


@pytest.mark.slow
def test_bench_server_runs_both_servers_in_one_run() -> None:
    """`paiju bench server` at the smallest counts: every figure is there. Random robots: with
    mahjong's default (bdi-hudist) a busy machine finished no hand in the robot rooms' 3 s
    window; with them, half a second holds several hands at load 17."""
    p = subprocess.run(
        [
            *(sys.executable, "-m", "paiju", "bench", "server", "--json", "--games", "tricks", "--rooms", "2"),
            *("--duration", "0.5", "--ramp", "0.2", "--idle", "16", "--hold", "0.5", "--robot-rooms", "1"),
            *("--robot-window", "0.5", "--arena-hands", "1", "--holder-share", "8", "--robot", "random"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert p.returncode == 0, p.stderr[-3000:]
    r = json.loads(p.stdout)
    assert [(s["game"], s["robots_per_room"]) for s in r["scenarios"]] == [("tricks", 0), ("tricks", 1)]
    for s in r["scenarios"]:
        assert s["echo_round_trips_per_s"] > 0 and s["paiju_actions_applied_per_s"] > 0 and s["errors"] == 0
        assert s["ratio"] == round(s["paiju_actions_applied_per_s"] / s["echo_round_trips_per_s"], 3)
        assert s["next_prompt_p99_ms"] > 0 and s["paced_next_prompt_p99_ms"] > 0
        assert s["floor_moves_per_s"] > 0 and s["floor_errors"] == 0 and s["paiju_of_floor_per_cpu_s"] > 0
    for name in ("echo", "paiju"):
        assert r["idle"][name]["connections"] == 16 and r["idle"][name]["disconnects"] == 0
        assert r["idle"][name]["holders"] == 2  # 8 connections each at most
        assert r["idle"][name]["rss_held_kib"] >= r["idle"][name]["rss_before_kib"] > 0
    assert r["robots"]["rooms_hands_per_s"] > 0 and r["robots"]["arena_hands_per_s"] > 0


def test_the_echo_servers_table_relay_sends_every_move_to_every_seat() -> None:
    """paiju/loadtest/echo.py's relay, the bench's floor: what a seat sends reaches every seat of
    its table (and no other table), the last seat's move K times more for K robot seats."""

    async def main(port: int) -> None:
        from websockets.asyncio.client import connect

        async def seat(table: str, i: int, humans: int, robots: int) -> Any:
            ws = await connect(f"ws://127.0.0.1:{port}/table/{table}?seat={i}&humans={humans}&robots={robots}")
            assert await ws.recv() == b""  # seated
            return ws

        a = [await seat("a", i, 3, 2) for i in range(3)]
        b = [await seat("b", 0, 1, 0)]
        await a[0].send(b"first")
        assert [await ws.recv() for ws in a] == [b"first"] * 3
        await a[2].send(b"last")
        for ws in a:
            assert [await ws.recv() for _ in range(3)] == [b"last"] * 3
        await b[0].send(b"other")
        assert await b[0].recv() == b"other"
        for ws in a:  # nothing of table b reached table a
            with pytest.raises(TimeoutError):
                await asyncio.wait_for(ws.recv(), 0.2)
        await asyncio.gather(*(ws.close() for ws in [*a, *b]))

    echo = Child([sys.executable, "-m", "paiju.loadtest.echo", "--port", "0"], r"echo serving on ws://[^:]+:(\d+)/")
    try:
        asyncio.run(main(echo.port))
    finally:
        echo.stop()
