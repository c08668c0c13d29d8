"""The server process killed with SIGKILL mid-hand and started again: the room is rebuilt
from its log in Redis at the same event sequence number, the player resumes with its
token (missed events only, no snapshot) and the match completes with the result that a
replay of the log gives.

The restarts of other rooms (merged here from test_pbn_restart.py, test_bank_restart.py and
test_records_restart.py, tests/server/test_robot_room_restart.py: one file of server restarts
on Redis):

A bridge room that plays the deals of a PBN file survives a restart: its log keeps the
rules' deals (not only the ruleset's name), so the rebuilt room finishes the board in play
and deals the next one from the file too.

A room rebuilt after a restart keeps each seat's time bank: the log writes what a seat has
left of its bank after every move that could draw on it, and the room rebuilt from the log
prompts the seat with that, not with a fresh bank nor with none.

Records with Redis: a server SIGKILLed mid-match loses no hand. The hand that ended before
the kill is in the database; the room is rebuilt from its Redis log, the registered player
resumes (token and session), and the rest of the match is recorded under the same match.

A watched robot match (no human seated) killed with its server and rebuilt from its log
in Redis like any other room: the spectator resumes with its token and ``last_seq``, gets
each missed event once, and watches the match to its final RESULT and MATCH_END.
"""

from __future__ import annotations

import asyncio
import random
import signal
from pathlib import Path
from typing import Any

import pytest
import redis.asyncio as aioredis
from sqlalchemy import select

from paiju import games
from paiju.bus.link import ROOMS, room_log
from paiju.client import Client
from paiju.core.lifecycle import Phase
from paiju.core.roomlog import replay
from paiju.protocol import Event, Prompt, Result, RoomEvent, RoomState, SeatKind, Welcome
from paiju.records import Database, matches
from paiju.records.models import Hand, Match
from paiju.testing.launch import Child
from tests.server.test_pbn import BOARDS, PBN

from .conftest import RedisServer, free_port, start_bots, start_serve

OPTS = ("--secret", "test-secret", "--server-id", "srv-test", "--no-robot-on-drop")


async def settle(c: Client, quiet: float = 0.3) -> None:
    """Read frames until none comes for ``quiet`` seconds (the room waits for ``c``)."""
    while True:
        try:
            await c.recv(timeout=quiet)
        except TimeoutError:
            return


async def close_all(clients: Any, r: Any, server: Any, bots: Any, server2: Any = None) -> None:
    """What a restart test leaves behind: its clients, its Redis client, the killed server,
    the robots' worker and the server that rebuilt the room."""
    for c in clients:
        if c is not None:
            await c.close()
    await r.aclose()
    server.stop(signal.SIGKILL)
    bots.stop()
    if server2 is not None:
        server2.stop()


@pytest.mark.parametrize("game", games.names())
@pytest.mark.slow
async def test_server_killed_mid_hand_rebuilds_and_resumes(redis_server: RedisServer, game: str) -> None:
    n = games.create(game, 0).num_seats
    rng = random.Random(3)
    bots = start_bots(redis_server.url, "w", "--concurrency", "2")
    server = start_serve(redis_server.url, *OPTS)
    r = aioredis.from_url(redis_server.url)
    ann = await Client.connect(server.url, "ann", record=True)
    back: Client | None = None
    try:
        # random robots: the rebuild is under test, not their play (bridge's default thinks for seconds)
        st = await ann.create(game, bots=list(range(1, n)), hands=2, robot="random", clock_ms=30_000, seed=17)
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
        await close_all((ann, back), r, server, bots, locals().get("server2"))


# A PBN room rebuilt (was test_pbn_restart.py)
async def test_pbn_room_rebuilt_after_a_restart_keeps_its_deals(redis_server: RedisServer) -> None:
    rng = random.Random(5)
    bots = start_bots(redis_server.url, "w", "--concurrency", "2")
    server = start_serve(redis_server.url, *OPTS)
    r = aioredis.from_url(redis_server.url)
    ann = await Client.connect(server.url, "ann", record=True)
    back: Client | None = None
    try:
        st = await ann.create("bridge", bots=[1, 2, 3], robot="random", clock_ms=30_000, seed=17, pbn=PBN)
        async with asyncio.timeout(30):  # killed while Ann's first call is asked for (South and West have called)
            while not ann.prompts:
                await ann.recv()
        await settle(ann)
        seen, token = ann.seq, ann.token
        server.stop(signal.SIGKILL)
        await ann.abort()

        server2 = start_serve(redis_server.url, *OPTS)
        m = server2.wait_for(rf"room {st.room} \(bridge\) rebuilt from its log at seq (\d+), hand (\d+)")
        assert (int(m.group(1)), int(m.group(2))) == (seen, 0), "killed in the first board"
        back = await Client.connect(server2.url, "ann", token=token, last_seq=seen, record=True)
        results = await back.play(rng, timeout=60)
        assert [x.hand for x in results] == [0, 1], "hands default to one per deal of the file"
        deals = [
            e.cards
            for c in (ann, back)
            for e in c.log
            if isinstance(e, Event) and e.code == RoomEvent.DEAL and e.seat == 0
        ]
        assert deals == [BOARDS[0].hands[0], BOARDS[1].hands[0]], "both hands dealt from the file"
        for x, board in zip(results, BOARDS, strict=True):
            assert tuple(x.hands) == board.hands and x.detail["board"] == board.board

        async with asyncio.timeout(5):
            while await r.hexists(ROOMS, st.room):
                await asyncio.sleep(0.02)
        rp = replay(st.room, await r.lrange(room_log(st.room), 0, -1))
        assert rp.rules.deals == tuple(str(b.spec) for b in BOARDS) and rp.results == results
        print(
            f"PBN room killed at seq {seen}, rebuilt with its {len(rp.rules.deals)} deals, boards played "
            f"{[x.detail['board'] for x in results]}"
        )
        out = server2.stop()
        assert "Traceback" not in out, out[-3000:]
    finally:
        await close_all((ann, back), r, server, bots, locals().get("server2"))


# The time banks of a rebuilt room (was test_bank_restart.py)
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


# The records of a match whose server was killed (was test_records_restart.py)
REC_OPTS = ("--secret", "test-secret", "--server-id", "srv-rec", "--no-robot-on-drop")


async def hands_stored(db: Database) -> list[tuple[int, str, int]]:
    async with db.session() as s:
        rows = await s.execute(select(Match.id, Match.status, Hand.hand).join(Hand, Hand.match_id == Match.id))
        return [tuple(r) for r in rows.all()]  # type: ignore[misc]


async def test_killed_mid_match_with_redis_loses_no_hand(redis_server: RedisServer, tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'records.sqlite3'}"
    db = Database(url)
    rng = random.Random(5)
    bots = start_bots(redis_server.url, "w", "--concurrency", "2")
    server = start_serve(redis_server.url, *REC_OPTS, "--database", url)
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

        server2 = start_serve(redis_server.url, *REC_OPTS, "--database", url)
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


# A watched robot match rebuilt (was tests/server/test_robot_room_restart.py)
# robots paced, so that the match is still on when the server is killed
ROBOTS_OPTS = ("--secret", "test-secret", "--server-id", "srv-robots", "--robot-pace", "0.1")


async def test_a_watched_robot_match_is_rebuilt_after_a_restart() -> None:
    r = RedisServer(free_port())
    r.start()
    bots = start_bots(r.url, "w")
    server = start_serve(r.url, *ROBOTS_OPTS)
    server2 = None
    eve = back = None
    try:
        eve = await Client.connect(server.url, "eve", record=True)
        st = await eve.create("tricks", bots=[0, 1], hands=2, clock_ms=30_000, seed=5)
        assert st.seat is None, "every seat a robot: the creator watches"
        async with asyncio.timeout(30):
            while eve.seq < 12:  # a few robot moves into the first hand
                await eve.recv()
        server.stop(signal.SIGKILL)
        seen, token = eve.seq, eve.token
        await eve.abort()

        server2 = start_serve(r.url, *ROBOTS_OPTS)
        m = server2.wait_for(rf"room {st.room} \(tricks\) rebuilt from its log at seq (\d+)")
        assert int(m.group(1)) >= seen
        back = await Client.connect(server2.url, "eve", token=token, last_seq=seen, record=True)
        async with asyncio.timeout(60):  # (robots play: the clock, 30 s a move, would not finish in time)
            while not any(isinstance(f, Event) and f.code == RoomEvent.MATCH_END for f in back.log):
                await back.recv()
        events = [f.seq for f in back.log if isinstance(f, Event)]
        assert not any(isinstance(f, RoomState) for f in back.log), "resumed from the log's events, no snapshot"
        assert events == list(range(seen + 1, seen + 1 + len(events))), "each missed event once, in order"
        finals = [f for f in back.log if isinstance(f, Result) and f.final]
        assert len(finals) == 1 and finals[0].hand == 1
        print(f"robot match killed at seq {seen}, rebuilt at {m.group(1)}; the watcher saw {len(events)} more events")
    finally:
        for c in (eve, back):
            if c is not None:
                await c.close()
        server.stop(signal.SIGKILL)
        if server2 is not None:
            out = server2.stop()
            assert "Traceback" not in out, out[-3000:]
        bots.stop()
        r.stop()
