"""Records with Redis: a server SIGKILLed mid-match loses no hand. The hand that ended before
the kill is in the database; the room is rebuilt from its Redis log, the registered player
resumes (token and session), and the rest of the match is recorded under the same match."""

from __future__ import annotations

import asyncio
import random
import signal
from pathlib import Path

from sqlalchemy import select

from paiju.client import Client
from paiju.protocol import Prompt, Result
from paiju.records import Database, matches
from paiju.records.models import Hand, Match

from .conftest import RedisServer, start_bots, start_serve

OPTS = ("--secret", "test-secret", "--server-id", "srv-rec", "--no-robot-on-drop")


async def hands_stored(db: Database) -> list[tuple[int, str, int]]:
    async with db.session() as s:
        rows = await s.execute(select(Match.id, Match.status, Hand.hand).join(Hand, Hand.match_id == Match.id))
        return [tuple(r) for r in rows.all()]  # type: ignore[misc]


async def test_killed_mid_match_with_redis_loses_no_hand(redis_server: RedisServer, tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'records.sqlite3'}"
    db = Database(url)
    rng = random.Random(5)
    bots = start_bots(redis_server.url, "w", "--concurrency", "2")
    server = start_serve(redis_server.url, *OPTS, "--database", url)
    ann = await Client.connect(server.url, "guest")
    back: Client | None = None
    server2 = None
    try:
        ident = await ann.account("register", "ann", "correct horse")
        st = await ann.create("tricks", bots=[1], hands=3, clock_ms=30_000, seed=9)
        results: list[Result] = []
        async with asyncio.timeout(60):
            while not results:  # the first hand, to its end
                f = await ann.recv()
                if isinstance(f, Prompt) and f.prompt_id in ann.prompts:
                    await ann.act_random(f, rng)
                elif isinstance(f, Result):
                    results.append(f)
            while await hands_stored(db) == []:
                await asyncio.sleep(0.05)
        assert await hands_stored(db) == [(1, "playing", 0)]
        seen, token = ann.seq, ann.token
        server.stop(signal.SIGKILL)
        await ann.abort()

        server2 = start_serve(redis_server.url, *OPTS, "--database", url)
        server2.wait_for(rf"room {st.room} \(tricks\) rebuilt from its log")
        back = await Client.connect(server2.url, "ann", token=token, last_seq=seen, session=ident.session)
        results += await back.play(rng, timeout=60)
        assert [r.hand for r in results] == [0, 1, 2] and results[-1].final
        async with asyncio.timeout(10):
            while (await hands_stored(db))[-1][1] != "over":
                await asyncio.sleep(0.05)
        assert await hands_stored(db) == [(1, "over", 0), (1, "over", 1), (1, "over", 2)]
        record = await matches.match(db, 1)
        assert record["totals"] == results[-1].totals
        assert [h["scores"] for h in record["hands"]] == [r.scores for r in results]
        assert [s["name"] for s in record["seats"]] == ["ann", "perfect@1"]  # tricks' default robot
        page = await matches.history(db, "ann")
        assert [m["id"] for m in page["matches"]] == [1]
    finally:
        await db.close()
        for c in (ann, back):
            if c is not None:
                await c.close()
        server.stop(signal.SIGKILL)
        bots.stop()
        if server2 is not None:
            out = server2.stop()
            assert "Traceback" not in out, out[-3000:]
