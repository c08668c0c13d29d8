"""The robots' decision pool: decisions in processes of their own, answered as the robot
would inline; a robot that raises, a process that dies and a caller that gives up leave
the pool serving; closed, its processes end."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from pathlib import Path

import pytest

from paiju import games
from paiju.bots.base import RandomRobot, Robot
from paiju.bots.pool import CallPool, DecisionPool, RobotFailed, RobotProcessDied
from paiju.games import GameAction
from paiju.protocol import DecisionRequest, encode


def request(prompt_id: int, game: str = "mahjong") -> DecisionRequest:
    g = games.create(game, prompt_id)
    seat = g.to_act()[0]
    legal = g.legal(seat)
    return DecisionRequest(
        "r1", game, next(iter(g.RULESETS)), seat, prompt_id, 0, "random", legal.mask, list(legal.options), g.view(seat)
    )


class Failing(Robot):
    game = "mahjong"
    name = "failing"

    def decide(self, request: DecisionRequest) -> GameAction:
        raise ValueError(f"no idea at prompt {request.prompt_id}")


class Slow(RandomRobot):
    """Thinks for as many tenths of a second as the prompt's number."""

    game = "mahjong"
    name = "slow"

    def decide(self, request: DecisionRequest) -> GameAction:
        time.sleep(request.prompt_id / 10)
        return super().decide(request)


def alive(pid: int) -> bool:
    return Path(f"/proc/{pid}").exists() and "zombie" not in Path(f"/proc/{pid}/status").read_text()


async def test_answers_as_the_robot_would_inline() -> None:
    pool = DecisionPool(2)
    try:
        for game in ("mahjong", "tricks", "bridge"):
            reqs = [request(i, game) for i in range(1, 9)]
            got = await asyncio.gather(*(pool.decide(RandomRobot, encode(r)) for r in reqs))
            want = [RandomRobot().decide(r) for r in reqs]
            assert got == [(a.code, a.cards) for a in want]
        assert len(pool.pids()) == 2 and pool.started == 2  # never more than asked
    finally:
        pool.close()


async def test_a_robot_that_raises_fails_its_decision_only() -> None:
    pool = DecisionPool(1)
    try:
        with pytest.raises(RobotFailed, match="ValueError: no idea at prompt 3"):
            await pool.decide(Failing, encode(request(3)))
        assert (await pool.decide(RandomRobot, encode(request(4))))[0] >= 0
        assert pool.started == 1  # the same process
    finally:
        pool.close()


async def test_a_process_killed_while_deciding_is_replaced() -> None:
    pool = DecisionPool(1)
    try:
        await pool.decide(RandomRobot, encode(request(1)))
        [pid] = pool.pids()
        held = asyncio.create_task(pool.decide(Slow, encode(request(50))))
        queued = asyncio.create_task(pool.decide(RandomRobot, encode(request(2))))
        await asyncio.sleep(0.5)
        os.kill(pid, signal.SIGKILL)
        with pytest.raises(RobotProcessDied, match="exit code -9"):
            await asyncio.wait_for(held, 10)
        code, cards = await asyncio.wait_for(queued, 20)  # the waiting decision went to a new process
        want = RandomRobot().decide(request(2))
        assert (code, cards) == (want.code, want.cards)
        assert pool.started == 2 and pool.pids() != [pid]
    finally:
        pool.close()


async def test_a_caller_that_gives_up_does_not_hold_the_pool() -> None:
    pool = DecisionPool(1)
    try:
        first = asyncio.create_task(pool.decide(Slow, encode(request(3))))
        gone = asyncio.create_task(pool.decide(Slow, encode(request(40))))
        await asyncio.sleep(0.05)
        gone.cancel()  # still waiting for the process: never sent
        assert (await asyncio.wait_for(first, 20))[0] >= 0
        # the next decision is answered at once, not after the forsaken one's four seconds
        await asyncio.wait_for(pool.decide(RandomRobot, encode(request(5))), 3)
    finally:
        pool.close()


async def test_closed_its_processes_end() -> None:
    pool = DecisionPool(2)
    await asyncio.gather(*(pool.decide(RandomRobot, encode(request(i))) for i in range(1, 5)))
    pids = pool.pids()
    waiting = asyncio.create_task(pool.decide(Slow, encode(request(30))))
    await asyncio.sleep(0.05)
    pool.close()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    assert pids and not [p for p in pids if alive(p)]
    with pytest.raises(RuntimeError, match="closed"):
        await pool.decide(RandomRobot, encode(request(1)))


def test_paiju_bench_pool_measures_each_way() -> None:
    import json
    import subprocess
    import sys

    cmd = [sys.executable, "-m", "paiju", "bench", "pool", "--deals", "2", "--workers", "1", "--json"]
    out = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True, timeout=120).stdout)
    assert out["robot"] == "bdi-hudist" and out["decisions"] > 20
    assert list(out["ways"]) == ["inline", "executor", "pipes"]
    assert all(w["per_second"] > 0 and w["own_cpu_us"] > 0 for w in out["ways"].values())
    bad = subprocess.run([*cmd[:5], "--robot", "no-such-robot"], capture_output=True, text=True, timeout=120)
    assert bad.returncode != 0 and "no-such-robot" in bad.stderr


async def test_its_metrics_count_processes_waiting_decisions_and_deaths() -> None:
    from prometheus_client import REGISTRY

    names = ("paiju_worker_pool_processes", "paiju_worker_pool_waiting", "paiju_worker_pool_deaths_total")

    def moved() -> list[float]:
        return [(REGISTRY.get_sample_value(n) or 0.0) - b for n, b in zip(names, base, strict=True)]

    base = [REGISTRY.get_sample_value(n) or 0.0 for n in names]
    pool = DecisionPool(1)
    try:
        held = asyncio.create_task(pool.decide(Slow, encode(request(50))))
        queued = asyncio.create_task(pool.decide(RandomRobot, encode(request(2))))
        await asyncio.sleep(0.05)
        assert moved() == [1, 1, 0]  # one process deciding, one decision waiting for it
        os.kill(pool.pids()[0], signal.SIGKILL)
        with pytest.raises(RobotProcessDied):
            await asyncio.wait_for(held, 10)
        await asyncio.wait_for(queued, 20)
        assert moved() == [1, 0, 1]  # the one that died replaced
    finally:
        pool.close()
    assert moved() == [0, 0, 1]


async def test_pool_processes_run_below_the_servers_priority(monkeypatch: pytest.MonkeyPatch) -> None:
    """10 steps below by default; PAIJU_WORKER_NICE=0 keeps them at the parent's priority."""
    here = os.nice(0)
    for env, below in ((None, 10), ("0", 0), ("3", 3)):
        if env is None:
            monkeypatch.delenv("PAIJU_WORKER_NICE", raising=False)
        else:
            monkeypatch.setenv("PAIJU_WORKER_NICE", env)
        pool = CallPool(1, name="paiju-nice")
        try:
            assert await pool.submit(os.nice, 0) == min(19, here + below)
        finally:
            pool.close()
