"""The in-memory bus and the robot worker: requests go out with a seat's view, decisions
come back to the server that asked; late, failing and cheating robots are dropped."""

from __future__ import annotations

import asyncio
import time
from typing import ClassVar

from paiju import games
from paiju.bots import registry
from paiju.bots.base import RandomRobot, Robot
from paiju.bots.pool import DecisionPool
from paiju.bots.worker import Worker
from paiju.bus.memory import MemoryBus
from paiju.games import GameAction
from paiju.protocol import Decision, DecisionRequest


def request(room: str = "r1", prompt_id: int = 1, robot: str = "random", late: bool = False) -> DecisionRequest:
    g = games.create("tricks", 1)
    seat = g.to_act()[0]
    legal = g.legal(seat)
    deadline = int(time.time() * 1000) + (-1000 if late else 5000)
    return DecisionRequest(
        room, "tricks", "standard", seat, prompt_id, deadline, robot, legal.mask, list(legal.options), g.view(seat)
    )


class Broken(Robot):
    game = "tricks"
    name = "broken"

    def decide(self, request: DecisionRequest) -> GameAction:
        raise RuntimeError("this robot always fails")


class Cheat(Robot):
    game = "tricks"
    name = "cheat"

    def decide(self, request: DecisionRequest) -> GameAction:
        return GameAction(0, b"\x3e")  # a card it does not hold


class Heavy(RandomRobot):
    game = "tricks"
    name = "heavy"
    cpu_heavy: ClassVar[bool] = True


EXTRA = {("tricks", c.name): c for c in (Broken, Cheat, Heavy)}


def robots(game: str, name: str) -> Robot:
    """The registry's robots plus this module's (not registered: other tests list robots)."""
    return EXTRA[(game, name)]() if (game, name) in EXTRA else registry.get(game, name)


async def test_round_trip_and_routing() -> None:
    registry.names("tricks")  # the first look-up imports every robot module: not within the timeouts below
    bus = MemoryBus("srv-a")
    other = MemoryBus.__new__(MemoryBus)  # a second server on the same bus: its own inbox
    worker = Worker(bus, ["tricks"], concurrency=2, robots=robots)
    task = asyncio.create_task(worker.run())
    try:
        for i in range(1, 21):
            await bus.publish(request(prompt_id=i))
        got = [await asyncio.wait_for(bus.receive(), 5) for _ in range(20)]
        assert sorted(d.prompt_id for d in got) == list(range(1, 21))
        assert all(isinstance(d, Decision) and d.room == "r1" for d in got)
        req = request()
        assert all(games.ActionSet.of(req.options).allows(GameAction(d.code, d.cards)) for d in got)
        assert bus.pending() == 0 and worker.answered == 20
        assert other is not bus
    finally:
        task.cancel()


async def test_late_failing_and_cheating_robots_get_no_answer() -> None:
    bus = MemoryBus("srv")
    worker = Worker(bus, ["tricks"], concurrency=1, robots=robots)
    task = asyncio.create_task(worker.run())
    try:
        await bus.publish(request(prompt_id=1, late=True))
        await bus.publish(request(prompt_id=2, robot="broken"))
        await bus.publish(request(prompt_id=3, robot="cheat"))
        await bus.publish(request(prompt_id=4, robot="no-such-robot"))
        await bus.publish(request(prompt_id=5))
        d = await asyncio.wait_for(bus.receive(), 5)
        assert d.prompt_id == 5  # only the sound request was answered
        assert worker.dropped == 1 and worker.failed == 3 and bus.pending() == 0
    finally:
        task.cancel()


async def test_cpu_heavy_robots_run_off_the_loop() -> None:
    bus = MemoryBus("srv")
    pool = DecisionPool(1)
    worker = Worker(bus, ["tricks"], pool=pool, robots=robots)
    task = asyncio.create_task(worker.run())
    try:
        await bus.publish(request(prompt_id=9, robot="heavy"))
        d = await asyncio.wait_for(bus.receive(), 10)
        assert d.prompt_id == 9 and worker.answered == 1 and pool.started == 1
    finally:
        task.cancel()
        pool.close()


async def test_workers_of_different_games_do_not_steal() -> None:
    bus = MemoryBus("srv")
    await bus.publish(request(prompt_id=1))
    taken = asyncio.create_task(bus.take(["bridge"], "w-bridge"))
    await asyncio.sleep(0.05)
    assert not taken.done()
    d = await asyncio.wait_for(bus.take(["tricks"], "w-tricks"), 1)
    assert d.request.prompt_id == 1
    taken.cancel()
