"""Records through a real `paiju serve`: 200 matches played at once are all stored, with
outcomes equal to a replay of their logs and to what the players were sent; the server then
killed (SIGKILL) in the middle of matches and started again keeps every finished match and
hand, closes the matches it left playing as abandoned (keeping their hands played) before it
takes connections, and records the next ones."""

from __future__ import annotations

import asyncio
import random
import signal
import time
from pathlib import Path

import pytest
from sqlalchemy import func, select

from paiju.client import Client
from paiju.protocol import Prompt, Result
from paiju.records import Database, matches
from paiju.records.models import Hand, Match
from tests.server.conftest import TEST_OPTIONS, Launched, start_process, stop_server

OPTIONS = (*TEST_OPTIONS, "--max-connections", "1000")


async def stored(db: Database, status: str) -> int:
    async with db.session() as s:
        n: int = await s.scalar(select(func.count()).select_from(Match).where(Match.status == status))
    return n


async def wait_for(db: Database, status: str, n: int, timeout: float = 60) -> None:
    async with asyncio.timeout(timeout):
        while await stored(db, status) < n:
            await asyncio.sleep(0.1)


async def play_one(s: Launched, i: int, hands: int, c: Client | None = None) -> tuple[str, list[Result]]:
    c = c or await Client.connect(s.url, f"guest{i}")
    try:
        game = ("tricks", "niujiu")[i % 2]
        state = await c.create(game, hands=hands, bots=[1, 2][: 1 + (game == "niujiu")], robot="random")
        return state.room, await c.play(random.Random(i), timeout=120)
    finally:
        await c.close()


async def check(db: Database, played: dict[str, list[Result]]) -> None:
    """Every match played is stored once, over, its hands replaying to the scores the players got."""
    async with db.session() as s:
        rows = (await s.execute(select(Match.id, Match.room_id).where(Match.status == "over"))).all()
    by_room = {room: mid for mid, room in rows}
    assert set(by_room) == set(played) and len(rows) == len(played)
    for room, results in played.items():
        record = await matches.match(db, by_room[room])
        assert record["totals"] == results[-1].totals
        assert len(record["hands"]) == len(results)
        for h, res in zip(record["hands"], results, strict=True):
            assert list(matches.replay_hand(record, h).outcome().scores) == h["scores"] == res.scores


@pytest.mark.slow
async def test_200_matches_at_once_are_all_stored_and_a_kill_loses_none(tmp_path: Path) -> None:
    """One server lifecycle for both checks (they were two tests, each starting its server)."""
    url = f"sqlite:///{tmp_path / 'records.sqlite3'}"
    s = start_process(*OPTIONS, "--database", url)
    db = Database(url)
    try:
        # 200 players connect (twenty handshakes at a time), then all 200 matches are played at once
        gate = asyncio.Semaphore(20)

        async def connect(i: int) -> Client:
            async with gate:
                return await Client.connect(s.url, f"guest{i}")

        clients = await asyncio.gather(*(connect(i) for i in range(200)))
        finished = dict(await asyncio.gather(*(play_one(s, i, 1, c) for i, c in enumerate(clients))))
        await wait_for(db, "over", 200)
        await check(db, finished)
        board = await matches.leaderboard(db, "tricks")
        assert [p["name"] for p in board] == ["random@1"] and board[0]["matches"] == 100

        # more matches in play, each with its first hand over (and recorded: its RESULT waited
        # for that); then the server is killed, the players still connected (a clock that does
        # not play a second hand for them meanwhile on a busy machine)
        late_clients = []
        for i in range(10):
            c = await Client.connect(s.url, f"late{i}")
            await c.create("tricks", hands=3, bots=[1], robot="random", clock_ms=60_000)
            late_clients.append(c)

        async def first_hand(c: Client, i: int) -> tuple[str, Result]:
            rng = random.Random(i)
            async for f in c:
                if isinstance(f, Result):
                    assert c.room is not None
                    return c.room, f
                if isinstance(f, Prompt) and f.prompt_id in c.prompts:
                    await c.act_random(f, rng)
            raise AssertionError("the connection closed before the first hand ended")

        firsts = dict(await asyncio.gather(*(first_hand(c, i) for i, c in enumerate(late_clients))))
        await wait_for(db, "playing", 10)
        assert "Traceback" not in s.output(), s.output()[-4000:]
        s.proc.send_signal(signal.SIGKILL)
        s.proc.wait(10)
        for c in late_clients:
            await c.abort()
        await check(db, finished)
        s = start_process(*OPTIONS, "--database", url)  # the same database: migrations have nothing to do
        # the matches the killed server left playing are closed as abandoned before the next
        # server takes connections, each keeping its hand played (was test_abandoned.py)
        async with db.session() as session:
            left = (
                await session.execute(
                    select(Match.room_id, Match.status, Match.ended, Match.totals, func.count(Hand.hand))
                    .join(Hand, Hand.match_id == Match.id, isouter=True)
                    .where(Match.room_id.in_(list(firsts)))
                    .group_by(Match.id)
                )
            ).all()
        assert len(left) == 10
        for room, status, ended, totals, hands in left:
            assert (status, hands) == ("abandoned", 1) and ended is not None and ended <= time.time()
            assert totals == firsts[room].scores  # the hand played is kept
        assert await stored(db, "over") == 200 and await stored(db, "playing") == 0
        late = dict(await asyncio.gather(*(play_one(s, 200 + i, 1) for i in range(5))))
        await wait_for(db, "over", 205)
        await check(db, finished | late)
    finally:
        await db.close()
        out = stop_server(s)
    assert "Traceback" not in out, out[-4000:]
