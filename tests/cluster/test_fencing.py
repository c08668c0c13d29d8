"""A node that stops (SIGSTOP) past its lease loses its room to another node; when it runs
again (SIGCONT) it does not fight: the room stops there (its appends are refused by the epoch
fence, or it sees the new owner first), its player's connection closes, and the player
resumes on the new owner; the log holds one history, every acknowledged action once."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
from pathlib import Path

import pytest
import redis.asyncio as aioredis

from paiju.bench.cluster import Player, Report, check_room, owners_of
from paiju.bus.link import room_log
from paiju.client import Client, Closed
from paiju.protocol import Ack, Action, Event, Prompt, Result, RoomEvent
from tests.redis.conftest import RedisServer

from .conftest import redis_server, start_two

__all__ = ["redis_server"]


@pytest.mark.slow
async def test_a_stopped_node_is_fenced_off_its_room(redis_server: RedisServer, tmp_path: Path) -> None:
    a, b, bots = start_two(redis_server, tmp_path)
    r = aioredis.from_url(redis_server.url)
    rng = random.Random(5)
    ann = await Client.connect(a.url, "ann", urls=[a.url, b.url], record=True)
    try:
        st = await ann.create("tricks", bots=[1], robot="random", hands=1, clock_ms=60_000, seed=3)
        async with asyncio.timeout(20):
            for _ in range(2):  # a few moves, then Ann's turn
                p = next(iter(ann.prompts.values()), None) or await ann.recv()
                while not (isinstance(p, Prompt) and p.prompt_id in ann.prompts):
                    p = await ann.recv()
                await ann.act_random(p, rng)
            while not ann.prompts:
                await ann.recv()
        prompt = next(iter(ann.prompts.values()))

        os.kill(a.proc.pid, signal.SIGSTOP)
        async with asyncio.timeout(15):  # b claims the room once a's lease has lapsed
            while (await owners_of(r)).get(st.room) != "b":
                await asyncio.sleep(0.1)
        os.kill(a.proc.pid, signal.SIGCONT)
        # Ann's link to a is still open: her answer reaches a, which must not log it
        opt = prompt.options[0]
        await ann.send(Action(prompt.prompt_id, opt.code, bytes(opt.cards[: opt.pick])))
        async with asyncio.timeout(15):
            with contextlib.suppress(Closed):
                while True:
                    f = await ann.recv()
                    assert not (isinstance(f, Ack) and f.prompt_id == prompt.prompt_id), "a acknowledged it"
        assert ann.ws.close_code == 1012, ann.ws.close_code
        a.wait_for(rf"room {st.room}: (this node's lease epoch is stale|node b owns it now)")

        await ann.reconnect(timeout=20)
        assert ann.url == b.url, "resumed on the new owner"
        me = Player(st.room, "ann", a.url, ann)
        async with asyncio.timeout(60):
            while not me.ended:
                try:
                    f = await ann.recv()
                except Closed:
                    await ann.reconnect()
                    continue
                if isinstance(f, Prompt) and f.prompt_id in ann.prompts:
                    await ann.act_random(f, rng)
                elif isinstance(f, Result):
                    me.results.append(f)
                elif isinstance(f, Event):
                    me.ended = f.code == RoomEvent.MATCH_END
        me.acked = {f.prompt_id for f in ann.log if isinstance(f, Ack)}
        me.seqs = [f.seq for f in ann.log if isinstance(f, Event)]
        report = Report(rooms=1)
        entries = [e if isinstance(e, bytes) else e.encode() for e in await r.lrange(room_log(st.room), 0, -1)]
        check_room(entries, [me], report)
        assert report.completed == report.equal_to_replay == 1
        assert report.lost == report.duplicated == report.gaps == report.duplicate_events == 0
    finally:
        await ann.close()
        await r.aclose()
        bots.stop()
        if a.proc.poll() is None:
            os.kill(a.proc.pid, signal.SIGCONT)
        for proc in (a, b):
            out = proc.stop()
            assert "Traceback" not in out, out[-3000:]
