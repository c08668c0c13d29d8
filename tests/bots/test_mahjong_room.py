"""A room of four mahjong robots (bdi-hudist in every seat) plays a match of one hand through the
server's bus to the end: a real `paiju serve` on a free port, watched through the client
library. A robot that failed or chose outside its options would be logged by the worker
(with a traceback) and its seat played by the clock's default action."""

from __future__ import annotations

import asyncio

from paiju.client import Client
from paiju.protocol import Result
from tests.server.conftest import TEST_OPTIONS, start_server, stop_server


async def test_four_robot_room_plays_to_the_end() -> None:
    served = start_server(*TEST_OPTIONS)
    out = ""
    try:
        c = await Client.connect(served.url, "watcher")
        try:
            st = await c.create("mahjong", "championship", bots=[0, 1, 2, 3], robot="bdi-hudist", hands=1, seed=5)
            assert st.seat is None  # every seat is a robot's: the creator watches
            results = []
            async with asyncio.timeout(120):
                async for f in c:
                    if isinstance(f, Result):
                        results.append(f)
                        if f.final:
                            break
        finally:
            await c.close()
    finally:
        out = stop_server(served)
    assert [r.hand for r in results] == [0] and results[-1].final
    assert all(sum(r.scores) == 0 for r in results)
    assert "failed on" not in out and "Traceback" not in out, out[-3000:]
