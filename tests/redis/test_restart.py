"""The server process killed with SIGKILL mid-hand and started again: the room is rebuilt
from its log in Redis at the same event sequence number, the player resumes with its
token (missed events only, no snapshot) and the match completes with the result that a
replay of the log gives."""

from __future__ import annotations

import asyncio
import random
import signal

import pytest
import redis.asyncio as aioredis

from paiju import games
from paiju.bus.link import ROOMS, room_log
from paiju.client import Client
from paiju.core.lifecycle import Phase
from paiju.core.roomlog import replay
from paiju.protocol import Event, Prompt, Result, RoomEvent, RoomState, SeatKind, Welcome

from .conftest import RedisServer, start_bots, start_serve

OPTS = ("--secret", "test-secret", "--server-id", "srv-test", "--no-robot-on-drop")


async def settle(c: Client, quiet: float = 0.3) -> None:
    """Read frames until none comes for ``quiet`` seconds (the room waits for ``c``)."""
    while True:
        try:
            await c.recv(timeout=quiet)
        except TimeoutError:
            return


@pytest.mark.parametrize("game", games.names())
async def test_server_killed_mid_hand_rebuilds_and_resumes(redis_server: RedisServer, game: str) -> None:
    n = games.create(game, 0).num_seats
    rng = random.Random(3)
    bots = start_bots(redis_server.url, "w", "--concurrency", "2")
    server = start_serve(redis_server.url, *OPTS)
    r = aioredis.from_url(redis_server.url)
    ann = await Client.connect(server.url, "ann", record=True)
    back: Client | None = None
    try:
        st = await ann.create(game, bots=list(range(1, n)), hands=2, clock_ms=30_000, seed=17)
        acted = 0
        async with asyncio.timeout(30):
            while acted < 3:  # a few moves into the first hand
                f = await ann.recv()
                if isinstance(f, Prompt) and f.prompt_id in ann.prompts:
                    await ann.act_random(f, rng)
                    acted += 1
            while not ann.prompts:  # then wait until it is Ann's turn again
                await ann.recv()
        await settle(ann)
        assert ann.prompts and not any(isinstance(f, Result) for f in ann.log), "still in the first hand"
        seen, token, pid = ann.seq, ann.token, ann.player_id
        server.stop(signal.SIGKILL)
        await ann.abort()

        server2 = start_serve(redis_server.url, *OPTS)
        m = server2.wait_for(rf"room {st.room} \({game}\) rebuilt from its log at seq (\d+), hand (\d+), (\d+) actions")
        assert int(m.group(1)) == seen, f"rebuilt at seq {m.group(1)}, the player had seen {seen}"
        assert int(m.group(2)) == 0

        back = await Client.connect(server2.url, "ann", token=token, last_seq=seen, record=True)
        assert isinstance(back.log[0], Welcome) and back.player_id == pid
        results = await back.play(rng, timeout=60)
        async with asyncio.timeout(10):  # MATCH_END follows the final RESULT
            while not any(isinstance(f, Event) and f.code == RoomEvent.MATCH_END for f in back.log):
                await back.recv()
        events = [f for f in back.log if isinstance(f, Event)]
        assert not any(isinstance(f, RoomState) for f in back.log), "resumed from the log's events, no snapshot"
        assert [e.seq for e in events] == list(range(seen + 1, seen + 1 + len(events))), "each missed event once"
        assert [(e.code, e.arg) for e in events[:2]] == [
            (RoomEvent.SEAT, SeatKind.AWAY),
            (RoomEvent.SEAT, SeatKind.HUMAN),
        ]
        assert [x.hand for x in results] == [0, 1] and results[-1].final

        # The log (kept for --log-ttl after the match) replays to the same results.
        async with asyncio.timeout(5):
            while await r.hexists(ROOMS, st.room):  # the room's end is written after its last frames
                await asyncio.sleep(0.02)
        entries = await r.lrange(room_log(st.room), 0, -1)
        rp = replay(st.room, entries)
        assert rp.phase is Phase.OVER and rp.results == results
        assert list(rp.game.outcome().scores) == results[-1].scores
        assert rp.seq == max(e.seq for e in events) and await r.ttl(room_log(st.room)) > 0
        print(
            f"{game}: killed at seq {seen} (hand 0, {m.group(3)} actions), rebuilt at seq {m.group(1)}, "
            f"{len(events)} events after resume, final totals {results[-1].totals} = replay of {rp.actions} actions"
        )
        out = server2.stop()
        assert "Traceback" not in out, out[-3000:]
    finally:
        for c in (ann, back):
            if c is not None:
                await c.close()
        await r.aclose()
        server.stop(signal.SIGKILL)
        bots.stop()
        if "server2" in locals():
            server2.stop()
