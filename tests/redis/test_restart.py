"""The server process killed with SIGKILL mid-match and started again: every room is rebuilt
from its log in Redis at the same event sequence number, its players resume with their
tokens (missed events only, no snapshot) and the matches complete. One server lifecycle
(one redis-server, one `paiju bots` worker, a server killed and its successor) carries a room
of each kind below, each checked as the separate tests that were merged here checked it
(one per game, test_pbn_restart.py, test_bank_restart.py, test_records_restart.py,
tests/server/test_robot_room_restart.py):

- A room of each game, a player's turn a few moves into the first hand: rebuilt at the seq
  the player had seen, the player resumes with each missed event once and finishes the match
  with the results that a replay of the log gives.
- A bridge room that plays the deals of a PBN file: its log keeps the rules' deals (not only
  the ruleset's name), so the rebuilt room finishes the board in play and deals the next one
  from the file too.
- A room's time banks: the log writes what a seat has left of its bank after every move that
  could draw on it, and the room rebuilt from the log prompts the seat with that, not with a
  fresh bank nor with none.
- Records: the hand that ended before the kill is in the database; the registered player
  resumes (token and session), and the rest of the match is recorded under the same match.
- A watched robot match (no human seated): the spectator resumes with its token and
  ``last_seq``, gets each missed event once, and watches the match to its final RESULT and
  MATCH_END.
"""

from __future__ import annotations

import abc
import asyncio
import random
import signal
from pathlib import Path

import pytest
import redis.asyncio as aioredis
from sqlalchemy import select

from paiju import games
from paiju.bus.link import ROOMS, room_log
from paiju.client import Client
from paiju.core.lifecycle import Phase
from paiju.core.roomlog import Replayed, replay
from paiju.protocol import Event, Prompt, Result, RoomEvent, RoomState, SeatKind, Welcome
from paiju.records import Database, matches
from paiju.records.models import Hand, Match
from paiju.testing.launch import Child, all_started
from tests.server.test_pbn import BOARDS, PBN

from .conftest import SLOW, RedisServer, start_bots, start_serve

# The tricks game's move time and bank (rooms without a clock of their own: the bank's room);
# the robot of the watched match thinks SLOW_MS a move, so that its match (ROBOT_HANDS hands of
# 16 moves: at least 7.2 s) is still on when the server is killed (some 2 s after it starts: the
# bank's room plays meanwhile).
MOVE_MS = 500
BANK_MS = 20_000  # long: Ann's clock does not run out while the server restarts on a busy machine
THINK_S = 1.5  # Ann's first move in the bank's room: 1 s over the move's time, paid from her bank
SLOW_MS = 150
ROBOT_HANDS = 3
OPTS = (
    *("--secret", "test-secret", "--server-id", "srv-test", "--no-robot-on-drop", "--robots-module", SLOW),
    *("--clock", f"tricks={MOVE_MS}", "--bank", f"tricks={BANK_MS}"),
)
# The rooms where a player waits for the kill: a clock that the other rooms' play before the
# kill does not run out on a busy machine
CLOCK_MS = 300_000


async def settle(c: Client, quiet: float = 0.3) -> None:
    """Read frames until none comes for ``quiet`` seconds (the room waits for ``c``)."""
    while True:
        try:
            await c.recv(timeout=quiet)
        except TimeoutError:
            return


async def _prompt(c: Client) -> Prompt:
    """``c``'s next prompt (its own), within the hand."""
    async with asyncio.timeout(20):
        while True:
            f = await c.recv()
            assert not isinstance(f, Result), "the hand ended before the next move"
            if isinstance(f, Prompt) and f.prompt_id in c.prompts:
                return f


async def log_replayed(r: aioredis.Redis, room: str) -> Replayed:
    """The replay of ``room``'s log, once its end is written (after its last frames)."""
    async with asyncio.timeout(10):
        while await r.hexists(ROOMS, room):
            await asyncio.sleep(0.02)
    return replay(room, await r.lrange(room_log(room), 0, -1))


class Restarted(abc.ABC):
    """A room played up to the kill (:meth:`before`), then resumed and checked on the server
    that rebuilt it (:meth:`after`)."""

    client: Client
    back: Client | None = None
    room = ""
    seen = 0

    @abc.abstractmethod
    async def before(self, url: str) -> None:
        """Create the room through ``url`` and play it up to the kill."""

    @abc.abstractmethod
    async def after(self, server: Child, r: aioredis.Redis) -> None:
        """Resume on ``server`` (the successor; ``r`` its Redis) and check the rebuilt room."""

    async def close(self) -> None:
        for c in (getattr(self, "client", None), self.back):
            if c is not None:
                await c.close()


class GameRoom(Restarted):
    """A player and random robots (the rebuild is under test, not their play: bridge's default
    robot thinks for seconds), killed at the player's turn a few moves into the first hand."""

    def __init__(self, game: str) -> None:
        self.game = game
        self.rng = random.Random(3)

    async def before(self, url: str) -> None:
        n = games.create(self.game, 0).num_seats
        self.client = ann = await Client.connect(url, f"ann-{self.game}", record=True)
        st = await ann.create(self.game, bots=list(range(1, n)), hands=2, robot="random", clock_ms=CLOCK_MS, seed=17)
        self.room = st.room
        acted = 0
        async with asyncio.timeout(60):
            while acted < 3:  # a few moves into the first hand
                f = await ann.recv()
                if isinstance(f, Prompt) and f.prompt_id in ann.prompts:
                    await ann.act_random(f, self.rng)
                    acted += 1
            while not ann.prompts:  # then wait until it is Ann's turn again
                await ann.recv()
        await settle(ann)
        assert ann.prompts and not any(isinstance(f, Result) for f in ann.log), "still in the first hand"
        self.seen = ann.seq

    async def after(self, server: Child, r: aioredis.Redis) -> None:
        game, seen, ann = self.game, self.seen, self.client
        m = server.wait_for(
            rf"room {self.room} \({game}\) rebuilt from its log at seq (\d+), hand (\d+), (\d+) actions"
        )
        assert int(m.group(1)) == seen, f"{game}: rebuilt at seq {m.group(1)}, the player had seen {seen}"
        assert int(m.group(2)) == 0
        self.back = back = await Client.connect(server.url, f"ann-{game}", token=ann.token, last_seq=seen, record=True)
        assert isinstance(back.log[0], Welcome) and back.player_id == ann.player_id
        results = await back.play(self.rng, timeout=120)
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
        rp = await log_replayed(r, self.room)
        assert rp.phase is Phase.OVER and rp.results == results
        assert list(rp.game.outcome().scores) == results[-1].scores
        assert rp.seq == max(e.seq for e in events) and await r.ttl(room_log(self.room)) > 0
        print(
            f"{game}: killed at seq {seen} (hand 0, {m.group(3)} actions), rebuilt at seq {m.group(1)}, "
            f"{len(events)} events after resume, final totals {results[-1].totals}"
        )


class PbnRoom(Restarted):
    """A bridge room playing the deals of a PBN file, killed while Ann's first call is asked
    for (South and West have called)."""

    rng = random.Random(5)

    async def before(self, url: str) -> None:
        self.client = ann = await Client.connect(url, "ann-pbn", record=True)
        st = await ann.create("bridge", bots=[1, 2, 3], robot="random", clock_ms=CLOCK_MS, seed=17, pbn=PBN)
        self.room = st.room
        async with asyncio.timeout(60):
            while not ann.prompts:
                await ann.recv()
        await settle(ann)
        self.seen = ann.seq

    async def after(self, server: Child, r: aioredis.Redis) -> None:
        seen, ann = self.seen, self.client
        m = server.wait_for(rf"room {self.room} \(bridge\) rebuilt from its log at seq (\d+), hand (\d+)")
        assert (int(m.group(1)), int(m.group(2))) == (seen, 0), "killed in the first board"
        self.back = back = await Client.connect(server.url, "ann-pbn", token=ann.token, last_seq=seen, record=True)
        results = await back.play(self.rng, timeout=120)
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
        rp = await log_replayed(r, self.room)
        assert rp.rules.deals == tuple(str(b.spec) for b in BOARDS) and rp.results == results
        print(f"PBN room killed at seq {seen}, rebuilt with its deals, boards {[x.detail['board'] for x in results]}")


class BankRoom(Restarted):
    """Tricks without a clock of the room's own (the game's move time and bank: paiju serve
    --clock, --bank): Ann's first move draws on her bank, the server is killed at her second.
    Played last before the kill: her clock runs meanwhile."""

    rng = random.Random(7)

    async def before(self, url: str) -> None:
        self.client = ann = await Client.connect(url, "ann-bank", record=True)
        st = await ann.create("tricks", bots=[1], hands=1, seed=17)
        self.room = st.room
        first = await _prompt(ann)
        assert (first.ms_left, first.bank_ms) == (MOVE_MS + BANK_MS, BANK_MS)
        await asyncio.sleep(THINK_S)
        await ann.act_random(first, self.rng)
        self.second = second = await _prompt(ann)
        self.spent = BANK_MS - second.bank_ms
        assert THINK_S * 1000 - MOVE_MS <= self.spent < THINK_S * 1000 - MOVE_MS + 500, self.spent
        await settle(ann)
        self.seen = ann.seq

    async def after(self, server: Child, r: aioredis.Redis) -> None:
        server.wait_for(rf"room {self.room} \(tricks\) rebuilt from its log")
        self.back = back = await Client.connect(
            server.url, "ann-bank", token=self.client.token, last_seq=self.seen, record=True
        )
        again = await _prompt(back)
        # the rebuilt room's prompt (asked as it was rebuilt, Ann away, and given her bank as she
        # came back): the bank Ann had before the restart, and what is left of a fresh move time
        # and that bank (the restart may take longer than a move's time on a busy machine)
        assert abs(again.bank_ms - self.second.bank_ms) <= 1, (again.bank_ms, self.second.bank_ms)
        assert 0 < again.ms_left <= MOVE_MS + again.bank_ms
        print(f"bank {BANK_MS} ms, {self.spent} ms spent before the kill; the rebuilt room offers {again.bank_ms} ms")
        await back.act_random(again, self.rng)
        results = await back.play(self.rng, timeout=60)
        assert results and results[-1].final


async def hands_stored(db: Database, room: str) -> list[tuple[int, str, int]]:
    """The match id, status and hand number of each hand of ``room`` in the database."""
    async with db.session() as s:
        rows = await s.execute(
            select(Match.id, Match.status, Hand.hand)
            .join(Hand, Hand.match_id == Match.id)
            .where(Match.room_id == room)
            .order_by(Hand.hand)
        )
        return [tuple(r) for r in rows.all()]  # type: ignore[misc]


class RecordedRoom(Restarted):
    """A registered player's match against the trick game's default robot, killed after its
    first hand is in the database."""

    rng = random.Random(5)

    def __init__(self, db: Database) -> None:
        self.db = db

    async def before(self, url: str) -> None:
        self.client = ann = await Client.connect(url, "guest")
        self.ident = await ann.account("register", "ann", "correct horse")
        st = await ann.create("tricks", bots=[1], hands=3, clock_ms=CLOCK_MS, seed=9)
        self.room = st.room
        self.results: list[Result] = []
        async with asyncio.timeout(120):
            while not self.results:  # the first hand, to its end
                f = await ann.recv()
                if isinstance(f, Prompt) and f.prompt_id in ann.prompts:
                    await ann.act_random(f, self.rng)
                elif isinstance(f, Result):
                    self.results.append(f)
            while await hands_stored(self.db, self.room) == []:
                await asyncio.sleep(0.05)
        (self.match,) = {m for m, _, _ in await hands_stored(self.db, self.room)}
        assert await hands_stored(self.db, self.room) == [(self.match, "playing", 0)]
        self.seen = ann.seq

    async def after(self, server: Child, r: aioredis.Redis) -> None:
        db, mid, results = self.db, self.match, self.results
        server.wait_for(rf"room {self.room} \(tricks\) rebuilt from its log")
        self.back = back = await Client.connect(
            server.url, "ann", token=self.client.token, last_seq=self.seen, session=self.ident.session
        )
        results += await back.play(self.rng, timeout=120)
        assert [x.hand for x in results] == [0, 1, 2] and results[-1].final
        async with asyncio.timeout(10):
            while (await hands_stored(db, self.room))[-1][1] != "over":
                await asyncio.sleep(0.05)
        assert await hands_stored(db, self.room) == [(mid, "over", 0), (mid, "over", 1), (mid, "over", 2)]
        record = await matches.match(db, mid)
        assert record["totals"] == results[-1].totals
        assert [h["scores"] for h in record["hands"]] == [x.scores for x in results]
        assert [s["name"] for s in record["seats"]] == ["ann", "perfect@1"]  # tricks' default robot
        page = await matches.history(db, "ann")
        assert [m["id"] for m in page["matches"]] == [mid]


class WatchedRobots(Restarted):
    """Robots in every seat, watched by the room's creator; killed a few robot moves in."""

    async def before(self, url: str) -> None:
        self.client = eve = await Client.connect(url, "eve", record=True)
        st = await eve.create("tricks", bots=[0, 1], hands=ROBOT_HANDS, robot="slow", clock_ms=30_000, seed=5)
        assert st.seat is None, "every seat a robot: the creator watches"
        self.room = st.room

    async def at_kill(self) -> None:
        eve = self.client
        async with asyncio.timeout(60):
            while eve.seq < 12:  # a few robot moves into the first hand
                await eve.recv()
        self.seen = eve.seq

    async def after(self, server: Child, r: aioredis.Redis) -> None:
        seen = self.seen
        m = server.wait_for(rf"room {self.room} \(tricks\) rebuilt from its log at seq (\d+)")
        assert int(m.group(1)) >= seen
        self.back = back = await Client.connect(server.url, "eve", token=self.client.token, last_seq=seen, record=True)
        async with asyncio.timeout(120):  # (robots play: the clock, 30 s a move, would not finish in time)
            while not any(isinstance(f, Event) and f.code == RoomEvent.MATCH_END for f in back.log):
                await back.recv()
        events = [f.seq for f in back.log if isinstance(f, Event)]
        assert not any(isinstance(f, RoomState) for f in back.log), "resumed from the log's events, no snapshot"
        assert events == list(range(seen + 1, seen + 1 + len(events))), "each missed event once, in order"
        finals = [f for f in back.log if isinstance(f, Result) and f.final]
        assert len(finals) == 1 and finals[0].hand == ROBOT_HANDS - 1
        print(f"robot match killed at seq {seen}, rebuilt at {m.group(1)}; the watcher saw {len(events)} more events")


@pytest.mark.slow
async def test_a_killed_server_rebuilds_every_room_from_its_log(
    redis_server: RedisServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PAIJU_SLOW_MS", str(SLOW_MS))  # the robot of the watched match (the worker's)
    url = f"sqlite:///{tmp_path / 'records.sqlite3'}"
    db = Database(url)
    opts = (*OPTS, "--database", url)
    worker = ("--concurrency", "4", "--processes", "2", "--robots-module", SLOW)
    bots = start_bots(redis_server.url, "w", *worker, wait=False)
    server = start_serve(redis_server.url, *opts, wait=False)
    all_started(bots, server)
    r = aioredis.from_url(redis_server.url)
    played = [*(GameRoom(g) for g in games.names()), PbnRoom(), RecordedRoom(db)]
    robots, bank = WatchedRobots(), BankRoom()
    rooms: list[Restarted] = [*played, robots, bank]
    server2: Child | None = None
    try:
        await asyncio.gather(*(x.before(server.url) for x in played))
        # last, and at once before the kill: the robots' match goes on, Ann's clock runs
        await robots.before(server.url)
        await bank.before(server.url)
        await robots.at_kill()
        server.stop(signal.SIGKILL)
        for x in rooms:
            await x.client.abort()

        server2 = start_serve(redis_server.url, *opts)
        # the bank's first: Ann's bank is given back as she comes back
        await asyncio.gather(*(x.after(server2, r) for x in (bank, *played, robots)))
        out = server2.stop()
        assert "Traceback" not in out, out[-3000:]
    finally:
        for x in rooms:
            await x.close()
        await r.aclose()
        await db.close()
        server.stop(signal.SIGKILL)
        bots.stop()
        if server2 is not None:
            server2.stop()
