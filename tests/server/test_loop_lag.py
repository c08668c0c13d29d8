"""The event loop is never blocked by what the records work out from a deal: bridge's par
(a double-dummy solve in a process) is started when a hand is dealt and added when it is
ready; the hand's end never waits for it. Measured as the time the loop spends in the room's
handling of each input that ends one of 20 bridge hands (the next deal, and the start of
its par, included: no pause between hands), less the time the process's threads waited,
runnable, for a CPU (a loaded machine's doing: a thread preempted while it holds the GIL
stalls the loop as surely as the loop's own wait), in a server run in this process, the
robots answering at once. Waiting for the par there, as the server once did, took the loop for the
whole double-dummy solve (some 100 ms to a second)."""

from __future__ import annotations

import asyncio
import functools
import gc
import glob
import random
import time
from typing import Any

import pytest

import games
from bots.bridge.record import par_future, pool
from client import Client
from protocol import Decision, Event, RoomEvent
from protocol.bus import MemoryBus
from server import table
from server.app import Server
from server.config import Config, Limits
from server.room import Room

HANDS = 20


def queued() -> float:
    """Seconds the threads of this process have waited, runnable, for a CPU (Linux's
    schedstat; 0 elsewhere). A loop blocked on a future sleeps: that wait is not this one."""
    total = 0.0
    for task in glob.glob("/proc/self/task/*/schedstat"):
        try:
            with open(task) as f:
                total += int(f.read().split()[1]) / 1e9
        except OSError:  # the thread ended meanwhile
            pass
    return total


LAG_MS = 50.0


async def answer_robots(bus: MemoryBus) -> None:
    """Every robot seat plays a random legal option at once."""
    rng = random.Random(1)
    while True:
        d = await bus.take({"bridge"}, "test")
        r = d.request
        opt = rng.choice(r.options)
        await bus.reply(
            d, Decision(r.room, r.seat, r.prompt_id, opt.code, bytes(rng.sample(list(opt.cards), opt.pick)))
        )


async def test_the_loop_is_not_blocked_while_bridge_hands_end(monkeypatch: pytest.MonkeyPatch) -> None:
    ends = 0
    # ms the loop spent in each room input that ended a hand, less the time its thread was
    # runnable but waiting for a CPU (the machine's load, not the loop's doing)
    blocked: list[float] = []
    walls: list[float] = []
    cpu: list[float] = []
    collected: list[float] = []  # ms of garbage collection in each (reported, not subtracted)
    gc_ms = 0.0
    gc_start = 0.0

    def gc_timer(phase: str, info: dict[str, int]) -> None:
        nonlocal gc_ms, gc_start
        if phase == "start":
            gc_start = time.perf_counter()
        else:
            gc_ms += (time.perf_counter() - gc_start) * 1000

    extras: list[dict[str, Any]] = []
    room_feed, room_extra = Room.feed, Room._extra

    def timed_feed(self: Room, msg: table.Input, now: float | None = None, ref: Any = None) -> None:
        nonlocal ends
        # a hand ended when the table's hand number moved (read, not patched: the compiled
        # build's Table does not call a patched method)
        n, t, c, q, g = self.table.hand, time.perf_counter(), time.thread_time(), queued(), gc_ms
        room_feed(self, msg, now, ref)
        if self.table.hand > n:
            ends += self.table.hand - n
            wall, waited = time.perf_counter() - t, queued() - q
            blocked.append(max(0.0, wall - waited) * 1000)
            walls.append(wall * 1000)
            cpu.append((time.thread_time() - c) * 1000)
            collected.append(gc_ms - g)

    def seen_extra(self: Room, hand: int, fut: asyncio.Future[dict[str, Any]]) -> None:
        room_extra(self, hand, fut)
        extras.append(fut.result())

    monkeypatch.setattr(Room, "feed", timed_feed)
    monkeypatch.setattr(Room, "_extra", seen_extra)
    # the par's process is started (and its solver loaded) before: a server pays that once
    solver = pool()
    await par_future(solver, games.create("bridge", 99))
    bus = MemoryBus("lag")
    server = Server(Config(port=0, limits=Limits(hand_pause=0.0)), bus, extras=functools.partial(par_future, solver))
    await server.start()
    tasks = [asyncio.create_task(answer_robots(bus))]
    gc.callbacks.append(gc_timer)  # the interpreter's own list: appended to, not replaced
    try:
        async with await Client.connect(f"ws://127.0.0.1:{server.port}/ws", "watcher") as c:
            await c.create("bridge", bots=[0, 1, 2, 3], hands=HANDS, robot="random", clock_ms=60_000, seed=3)
            async with asyncio.timeout(120):
                async for f in c:
                    if isinstance(f, Event) and f.code == RoomEvent.MATCH_END:
                        break
                while len(extras) < HANDS:  # the pars, solved meanwhile in a process
                    await asyncio.sleep(0.05)
    finally:
        gc.callbacks.remove(gc_timer)
        for task in tasks:
            task.cancel()
        await server.close()
        solver.close()
    assert ends == HANDS and len(blocked) == HANDS
    assert all(isinstance(e.get("par"), int) for e in extras), extras
    worst = blocked.index(max(blocked))
    assert max(blocked) < LAG_MS, (
        f"the loop was blocked {blocked[worst]:.0f} ms at a hand's end ({cpu[worst]:.0f} ms of CPU, "
        f"{collected[worst]:.0f} ms collecting garbage, {walls[worst]:.0f} ms of wall time): {blocked}"
    )
    print(
        f"the loop at the end of {HANDS} bridge hands: at most {max(blocked):.1f} ms "
        f"({max(cpu):.1f} ms of CPU, {max(walls):.1f} ms of wall time with the waits for a CPU, "
        f"{max(collected):.1f} ms collecting garbage); "
        f"each: {[round(b, 1) for b in blocked]}"
    )
