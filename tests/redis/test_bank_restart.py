"""A room rebuilt after a restart keeps each seat's time bank: the log writes what a seat has
left of its bank after every move that could draw on it, and the room rebuilt from the log
prompts the seat with that, not with a fresh bank nor with none."""

from __future__ import annotations

import asyncio
import random
import signal

from paiju.client import Client
from paiju.protocol import Prompt, Result
from paiju.testing.launch import Child

from .conftest import RedisServer, start_bots, start_serve
from .test_restart import OPTS, settle

MOVE_MS = 500  # the game's time for one move
BANK_MS = 4000  # and each seat's time bank for a hand
THINK_S = 1.5  # Ann's first move: 1 s over the move's time, paid from her bank


async def _prompt(c: Client) -> Prompt:
    async with asyncio.timeout(20):
        while True:
            f = await c.recv()
            assert not isinstance(f, Result), "the hand ended before Ann's next move"
            if isinstance(f, Prompt) and f.prompt_id in c.prompts:
                return f


async def test_a_rebuilt_room_keeps_each_seats_time_bank(redis_server: RedisServer) -> None:
    rng = random.Random(7)
    opts = (*OPTS, "--clock", f"tricks={MOVE_MS}", "--bank", f"tricks={BANK_MS}")
    bots = start_bots(redis_server.url, "w", "--concurrency", "2")
    server = start_serve(redis_server.url, *opts)
    ann = await Client.connect(server.url, "ann", record=True)
    back: Client | None = None
    server2: Child | None = None
    try:
        # no clock of the room's own: the game's move time and bank (paiju serve --clock, --bank)
        st = await ann.create("tricks", bots=[1], hands=1, seed=17)
        first = await _prompt(ann)
        assert (first.ms_left, first.bank_ms) == (MOVE_MS + BANK_MS, BANK_MS)
        await asyncio.sleep(THINK_S)
        await ann.act_random(first, rng)
        second = await _prompt(ann)
        spent = BANK_MS - second.bank_ms
        assert THINK_S * 1000 - MOVE_MS <= spent < THINK_S * 1000 - MOVE_MS + 500, spent
        await settle(ann)
        seen, token = ann.seq, ann.token
        server.stop(signal.SIGKILL)
        await ann.abort()

        server2 = start_serve(redis_server.url, *opts)
        server2.wait_for(rf"room {st.room} \(tricks\) rebuilt from its log")
        back = await Client.connect(server2.url, "ann", token=token, last_seq=seen, record=True)
        again = await _prompt(back)
        # the rebuilt room's prompt (asked as it was rebuilt, Ann away, and given her bank as she
        # came back): what is left of a fresh move time, and the bank Ann had before the restart
        assert abs(again.bank_ms - second.bank_ms) <= 1, (again.bank_ms, second.bank_ms)
        assert again.bank_ms < again.ms_left <= MOVE_MS + again.bank_ms
        print(
            f"bank {BANK_MS} ms, {spent} ms spent before the kill; the rebuilt room offers {again.bank_ms} ms "
            f"(was {second.bank_ms} ms)"
        )
        await back.act_random(again, rng)
        results = await back.play(rng, timeout=60)
        assert results and results[-1].final
        out = server2.stop()
        assert "Traceback" not in out, out[-3000:]
    finally:
        for c in filter(None, (ann, back)):
            await c.close()
        for p in filter(None, (server2, bots)):
            p.stop()
        server.stop(signal.SIGKILL)
