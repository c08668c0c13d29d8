"""`paiju bench peers`: the Colyseus room plays paiju's tricks game, and a short run measures both.

The first test of a checkout installs the pinned npm packages (npm ci into
paiju/bench/colyseus/node_modules), as the command does."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from paiju.bench import peers
from paiju.testing.launch import Child

ROOT = Path(__file__).resolve().parents[2]
NODE = shutil.which("node")
needs_node = pytest.mark.skipif(NODE is None or shutil.which("npm") is None, reason="needs Node.js and npm")


@pytest.fixture(scope="module")
def node() -> str:
    assert NODE is not None and shutil.which("npm") is not None
    problem = peers.install(shutil.which("npm") or "npm")
    assert problem is None, problem
    assert peers.installed()
    return NODE


@needs_node
def test_the_colyseus_room_deals_checks_and_hides_like_paiju(node: str) -> None:
    """paiju/bench/colyseus/check.js plays a match against the room: deals of 1..2n, prompts of the
    seat's cards, tricks to the higher card, scores, paiju's refusal codes, no hidden card in
    the state (it fails on a room that skips a check or leaks a card: tried by hand)."""
    server = Child(
        [node, "server.js", "--port", "0", "--mode", "per-move"], r"serving on ws://[^:]+:(\d+)/", cwd=peers.COLYSEUS
    )
    try:
        done = subprocess.run(
            [node, "check.js", "--url", f"ws://127.0.0.1:{server.port}", "--hands", "2"],
            cwd=peers.COLYSEUS,
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        server.stop()
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok: 2 hands"


@needs_node
@pytest.mark.slow
def test_a_short_run_measures_both_servers(node: str) -> None:
    cmd = [sys.executable, "-m", "paiju", "bench", "peers", "--rooms", "2", "--seconds", "1", "--runs", "1"]
    cmd += ["--warmup", "0.5", "--warm", "0", "--hands", "2", "--json", "-"]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["versions"]["@colyseus/core"].startswith("0.16.")
    assert out["versions"]["node"].startswith("v")
    assert {r["server"] for r in out["runs"]} == set(peers.SERVERS_DEFAULT)  # (no --baseline)
    assert list(out["builds"]) == ["paiju"] and out["builds"]["paiju"].startswith("paiju "), out["builds"]
    for r in out["runs"]:
        assert r["rooms"] == 2 and r["actions"] > 0 and r["server_cpu_s"] > 0, r
        assert r["idle_tables"] == 0 and not r["errors"], r
        assert r["matches"] >= 0 and r["hands"] > 0, r
        # the server's CPU by process: the serving one first, the parts adding up to the whole
        procs = r["cpu_by_process"]
        assert procs[0]["process"] == "serving" and all(p["process"] == "child" for p in procs[1:]), procs
        assert sum(p["cpu_s"] for p in procs) == pytest.approx(r["server_cpu_s"], abs=0.002 * len(procs)), r
    # paiju serve has children (the records writer, the robots' pools), a Node server none
    assert {len(r["cpu_by_process"]) > 1 for r in out["runs"] if r["server"] == "paiju"} == {True}
    assert {len(r["cpu_by_process"]) for r in out["runs"] if r["server"] != "paiju"} == {1}
    figures = out["rooms"]["2"]
    for key in peers.SERVERS_DEFAULT:
        f = figures[key]
        assert f["actions_per_s"] > 0 and f["cpu_us_per_action"] > 0 and f["actions_per_cpu_s"] > 0, (key, f)
        assert 0 < f["p50_ms"] <= f["p99_ms"], (key, f)
        assert f["bytes_per_action"] > 10, (key, f)
    # what each server sends for an action: paiju one batch to each player (ACK, the echo,
    # every other action a TRICK event, the next PROMPT), its events sometimes apart; Colyseus
    # a patch to each player and a prompt; fewer patches with 50 ms patches
    assert out["paiju_batches"] is True
    assert 1 <= figures["paiju"]["messages_per_action"] <= 3
    assert 3 <= figures["colyseus_per_move"]["messages_per_action"] <= 4
    assert 1 <= figures["colyseus_default"]["messages_per_action"] < 3
    paiju, move = figures["paiju"]["actions_per_cpu_s"], figures["colyseus_per_move"]["actions_per_cpu_s"]
    assert figures["ratio"] == pytest.approx(paiju / move, abs=0.001)
    assert 1 <= figures["floor"]["messages_per_action"] <= 3
    floor = figures["floor"]["actions_per_cpu_s"]
    assert figures["ratio_floor"] == pytest.approx(paiju / floor, abs=0.001)
    assert figures["floor_ratio"] == pytest.approx(floor / move, abs=0.001)


def _refused(*args: str, env: dict[str, str] | None = None) -> list[str]:
    """``paiju bench peers ARGS``' stderr, which must be one line, with exit status 2."""
    done = subprocess.run(
        [sys.executable, "-m", "paiju", "bench", "peers", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    return lines


def test_without_node_one_line_and_exit_2(tmp_path: Path) -> None:
    # a PATH with this Python and nothing else: no node, no npm
    (tmp_path / "python").symlink_to(sys.executable)
    env = dict(os.environ, PATH=str(tmp_path))
    lines = _refused("--runs", "1", env=env)
    assert "node and npm not found on PATH" in lines[0]


def test_a_baseline_python_without_a_baseline_is_refused() -> None:
    lines = _refused("--baseline-python", sys.executable)
    assert "--baseline-python" in lines[0] and "--baseline DIR" in lines[0]
