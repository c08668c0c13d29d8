"""What the records work out from a deal (the server's ``extras``: bridge's par, a double-dummy
solve in a process) never holds a hand's end: it is started when the hand is dealt and added
when it is ready. Here every par is held back until the match is over: the 4 bridge hands, whose
robots answer at once (no pause between hands), all end meanwhile; then the pars, solved in
the solver's process, arrive. Waiting for the par at a hand's end, as the server once did, would
hold the event loop for the whole solve (some 100 ms to a second); how long the loop is held
while robots play is a timing target, measured by ``paiju bench loop`` (its p99 and max)."""

from __future__ import annotations

import asyncio
import os
import random
from typing import Any

from paiju.bots.bridge.analysis import par_future, pool
from paiju.bus.memory import MemoryBus
from paiju.client import Client
from paiju.core.config import Config, Limits
from paiju.protocol import Decision, Event, RoomEvent
from paiju.server.app import Server

HANDS = 2  # the second hand is dealt and played while the first one's par is held back


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


async def test_bridge_hands_end_without_waiting_for_their_par() -> None:
    solver = pool()  # its process loads the solver at once, as a server's does
    assert await solver.submit(os.getpid) != os.getpid()  # the solves run in another process
    solving: list[asyncio.Future[dict[str, Any]]] = []
    held: list[asyncio.Future[dict[str, Any]]] = []  # what the server waits on: released at the end

    def extras(game: Any, hands: int) -> asyncio.Future[dict[str, Any]]:
        solving.append(par_future(solver, game))
        held.append(asyncio.get_running_loop().create_future())
        return held[-1]

    bus = MemoryBus("extras")
    server = Server(Config(port=0, limits=Limits(hand_pause=0.0)), bus, extras=extras)
    await server.start()
    robots = asyncio.create_task(answer_robots(bus))
    ends = 0
    try:
        async with await Client.connect(f"ws://127.0.0.1:{server.port}/ws", "watcher") as c:
            await c.create("bridge", bots=[0, 1, 2, 3], hands=HANDS, robot="random", clock_ms=60_000, seed=3)
            async with asyncio.timeout(120):
                async for f in c:
                    if isinstance(f, Event) and f.code == RoomEvent.HAND_END:
                        ends += 1
                    if isinstance(f, Event) and f.code == RoomEvent.MATCH_END:
                        break
            # every hand ended while its par was held back: no hand's end waited for it
            assert ends == HANDS and len(held) == HANDS and not any(h.done() for h in held)
            done = await asyncio.gather(*solving)  # solved meanwhile in the solver's process
            for h, par in zip(held, done, strict=True):
                h.set_result(par)
    finally:
        robots.cancel()
        await server.close()
        solver.close()
    assert all(isinstance(e.get("par"), int) for e in done), done
