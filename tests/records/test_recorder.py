"""The recorder on real databases: the jobs that arrive together go in one transaction, in
order (a match's hands before its end), and a job that cannot be written costs only itself."""

from __future__ import annotations

import asyncio
import logging
import random
import time
from dataclasses import dataclass

import pytest

from paiju.cli.serve import records_writer
from paiju.records import matches
from paiju.records.database import Database
from paiju.records.matches import HandRecord, MatchInfo, SeatHolder
from paiju.records.models import GUEST, ROBOT
from paiju.records.recorder import Recorder
from tests.records.test_matches import play

ROBOTS = [SeatHolder(ROBOT, "random@1")] * 2


def info(room: str, hands: int) -> MatchInfo:
    return MatchInfo(room, "tricks", "classic", {}, 7, hands, time.time())


async def ids(db: Database) -> dict[str, int]:
    """Match id by room id."""
    from sqlalchemy import select

    from paiju.records.models import Match

    async with db.session() as s:
        return {room: mid for mid, room in (await s.execute(select(Match.id, Match.room_id))).all()}


@pytest.mark.parametrize("process", [False, True], ids=["in the loop", "writer process"])
async def test_jobs_that_arrive_together_are_written_in_order(db: Database, process: bool) -> None:
    # linger: long enough for every job below to join the first one's batch
    rec = Recorder(db, linger=0.3, writer=records_writer if process else None)
    rec.start()
    a, b = info("ra", 2), info("rb", 3)
    hands = [play("tricks", 7, h) for h in range(2)]
    rec.hand_ended(a, hands[0], ROBOTS)
    rec.hand_ended(b, hands[0], ROBOTS)
    rec.hand_ended(a, hands[1], ROBOTS)
    totals = [x + y for x, y in zip(hands[0].scores, hands[1].scores, strict=True)]
    rec.match_ended(a, ROBOTS, totals, complete=True)
    rec.match_ended(info("never played", 1), ROBOTS, [0, 0], complete=False)  # no hand ended: nothing kept
    await rec.flush()
    assert (rec.written, rec.failures) == (5, 0)
    stored = await ids(db)
    assert set(stored) == {"ra", "rb"}
    ra = await matches.match(db, stored["ra"])
    assert ra["status"] == "over" and ra["totals"] == totals and ra["hands_played"] == 2
    assert [h["hand"] for h in ra["hands"]] == [0, 1]
    assert [s["total"] for s in ra["seats"]] == totals
    rb = await matches.match(db, stored["rb"])
    assert rb["status"] == "playing" and rb["hands_played"] == 1 and [s["total"] for s in rb["seats"]] == [None, None]
    # the next batch finds the match of rb that this one opened
    rec.hand_ended(b, hands[1], ROBOTS)
    await rec.flush()
    await rec.close()
    assert (await ids(db)) == stored
    rb = await matches.match(db, stored["rb"])
    assert rb["hands_played"] == 2 and [h["hand"] for h in rb["hands"]] == [0, 1]


async def test_a_bad_job_costs_only_itself(db: Database, caplog: pytest.LogCaptureFixture) -> None:
    rec = Recorder(db, linger=0.3)
    rec.start()
    a, b = info("ra", 3), info("rb", 1)
    first, second = play("tricks", 7, 0), play("tricks", 7, 1)
    rec.hand_ended(a, first, ROBOTS)
    rec.hand_ended(a, first, ROBOTS)  # the same hand again: the database refuses it (its key)
    rec.hand_ended(a, second, ROBOTS)
    rec.hand_ended(b, first, ROBOTS)
    with caplog.at_level(logging.WARNING, "paiju.records"):
        await rec.flush()
    await rec.close()
    assert rec.written == 3 and rec.failures == 2  # the batch, then the bad job alone
    assert "writing them one by one" in caplog.text and "room ra: record not written" in caplog.text
    stored = await ids(db)
    ra = await matches.match(db, stored["ra"])
    assert [h["hand"] for h in ra["hands"]] == [0, 1] and ra["hands_played"] == 2
    assert len((await matches.match(db, stored["rb"]))["hands"]) == 1


async def test_the_seats_at_the_end_replace_those_of_the_first_hand(db: Database) -> None:
    rec = Recorder(db, linger=0)
    rec.start()
    a = info("ra", 1)
    hand = play("tricks", 7, 0)
    rec.hand_ended(a, hand, [SeatHolder(GUEST, "bob"), ROBOTS[0]])
    await rec.flush()
    rec.match_ended(a, ROBOTS, list(hand.scores), complete=True)  # bob left; a robot took his seat
    await rec.close()
    ra = await matches.match(db, (await ids(db))["ra"])
    assert [(s["kind"], s["name"], s["total"]) for s in ra["seats"]] == [
        (ROBOT, "random@1", hand.scores[0]),
        (ROBOT, "random@1", hand.scores[1]),
    ]


async def test_a_killed_writer_process_is_replaced_and_nothing_is_lost(db: Database) -> None:
    import os
    import signal

    rec = Recorder(db, linger=0, writer=records_writer)  # as paiju serve writes
    rec.start()
    a = info("ra", 3)
    hands = [play("tricks", 7, h) for h in range(3)]
    rec.hand_ended(a, hands[0], ROBOTS)
    await rec.flush()
    (pid,) = rec.writer_pids()
    assert pid != os.getpid()
    os.kill(pid, signal.SIGKILL)
    rec.hand_ended(a, hands[1], ROBOTS)  # written by a new writer
    await rec.flush()
    assert rec.writer_pids() and rec.writer_pids() != [pid]
    rec.hand_ended(a, hands[2], ROBOTS)
    await rec.close()
    # the death is seen on the writer's pipe at once (no failed try) or by the batch sent to it (one)
    assert rec.written == 3 and rec.failures <= 1
    ra = await matches.match(db, (await ids(db))["ra"])
    assert [h["hand"] for h in ra["hands"]] == [0, 1, 2] and ra["hands_played"] == 3


def test_paiju_bench_records_measures_each_linger() -> None:
    import json
    import subprocess
    import sys

    cmd = [sys.executable, "-m", "paiju", "bench", "records", "--hands", "12", "--match-hands", "4"]
    cmd += ["--gap", "0", "--linger", "0.05", "--group", "0", "0.01", "--game", "tricks", "--process", "--json"]
    out = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True, timeout=120).stdout)
    runs = [(r["linger_s"], r["group_s"], r.get("process", False)) for r in out["runs"]]
    assert out["hands"] == 12 and runs == [
        (0.05, 0.0, False),
        (0.05, 0.0, True),
        (0.05, 0.01, False),
        (0.05, 0.01, True),
    ]
    assert all(1 <= r["batches"] <= 15 for r in out["runs"])  # 12 hands and 3 ends
    assert all(r["failures"] == 0 for r in out["runs"])
    # in the loop the process pays for the SQL; with the writer process the writer does
    assert all(r["cpu_ms_per_hand"] > 0 for r in out["runs"] if not r.get("process"))
    assert all(r["writer_cpu_ms_per_hand"] >= 0 for r in out["runs"] if r.get("process"))
    # a bad option: the same entry point in this process (no second python start); the message
    # SystemExit carries is what python prints on stderr, exiting with 1
    from paiju.cli import main

    with pytest.raises(SystemExit) as bad:
        main([*cmd[3:5], "--gap", "-1"])
    assert "--gap, --linger and --group are seconds" in str(bad.value.code)


async def test_a_busy_servers_jobs_wait_a_little_for_each_other(db: Database) -> None:
    """Jobs that come faster than ``group`` seconds apart go in batches of several (the first
    waits, at most ``group``, for the few that the recent rate brings); an idle server's job
    goes at once; every job is written, in order."""
    from paiju.records.recorder import GROUP_JOBS

    rec = Recorder(db, group=0.05)
    assert rec.grouping() == 0.0  # idle: at once
    rec.gap = 0.002
    assert rec.grouping() == pytest.approx((GROUP_JOBS - 1) * 0.002)
    rec.gap = 0.04
    assert rec.grouping() == 0.05  # at most group
    rec.gap = 0.1
    rec.start()
    a, b = info("ga", 8), info("gb", 8)
    ha, hb = [play("tricks", 5, h) for h in range(8)], [play("tricks", 6, h) for h in range(7)]
    first = rec.hand_ended(a, ha[0], ROBOTS)
    assert await first
    done = [first]
    for h in range(1, 8):  # two rooms ending hands 1 ms apart: the jobs come fast
        done += [rec.hand_ended(a, ha[h], ROBOTS), rec.hand_ended(b, hb[h - 1], ROBOTS)]
        await asyncio.sleep(0.001)
    done.append(rec.match_ended(a, ROBOTS, [0, 0], complete=True))
    assert all(await asyncio.gather(*done))
    await rec.close()
    assert rec.written == 16 and rec.batches < 16 // 2
    got = await matches.match(db, (await ids(db))["ga"])
    assert [h["hand"] for h in got["hands"]] == list(range(8)) and got["status"] == "over"


@dataclass
class Live:
    """A match of the random jobs below, while they come."""

    info: MatchInfo
    hands: int
    seats: tuple[SeatHolder, ...]
    totals: list[int]
    played: int = 0


MATCH_COLUMNS = ("id", "room_id", "game", "seed", "hands_planned", "hands_played", "status", "rated", "totals")
SEAT_COLUMNS = ("match_id", "seat", "account_id", "name", "kind", "total", "rank", "rating_before", "rating_after")


async def _rows(db: Database) -> dict[str, list[tuple[object, ...]]]:
    """Every stored row that a batch writes, times aside (ended: only whether it is set)."""
    from sqlalchemy import select

    from paiju.records.models import Account, Hand, Match, MatchSeat, Rating

    def rounded(v: object) -> object:
        return round(v, 9) if isinstance(v, float) else v

    async with db.session() as s:
        ms = (await s.execute(select(Match).order_by(Match.id))).scalars().all()
        seats = (await s.execute(select(MatchSeat).order_by(MatchSeat.match_id, MatchSeat.seat))).scalars().all()
        hands = (await s.execute(select(Hand).order_by(Hand.match_id, Hand.hand))).scalars().all()
        rates = (await s.execute(select(Rating).order_by(Rating.account_id, Rating.game))).scalars().all()
        accs = (await s.execute(select(Account).order_by(Account.id))).scalars().all()
        return {
            "matches": [(*(getattr(m, c) for c in MATCH_COLUMNS), m.ended is not None) for m in ms],
            "seats": [tuple(rounded(getattr(x, c)) for c in SEAT_COLUMNS) for x in seats],
            "hands": [(h.match_id, h.hand, h.actions, h.scores, h.revealed, h.detail) for h in hands],
            "ratings": [(r.account_id, r.game, rounded(r.mu), rounded(r.sigma), r.matches) for r in rates],
            "accounts": [(a.id, a.name, a.kind) for a in accs],
        }


@pytest.mark.parametrize(
    ("seed", "where"),
    [(1, "sqlite"), (2, "sqlite"), (3, "sqlite"), (1, "writer"), (2, "writer"), (3, "writer"), (1, "postgresql")],
)
async def test_a_batch_writes_what_the_jobs_one_by_one_write(
    tmp_path: object, seed: int, where: str, request: pytest.FixtureRequest
) -> None:
    """Random matches (guests, robots whose ratings move from match to match, holders that
    change, abandoned matches), their jobs interleaved and cut into random batches: the batch
    writer (paiju.records.batch.write_batch) stores exactly the rows that the jobs written one by
    one, each in its own transaction, store: through SQLAlchemy's session on SQLite and on
    PostgreSQL, and on the sqlite3 driver itself as the writer process writes (``blocking``)."""
    from pathlib import Path

    from paiju.records.recorder import Batches, _End, _Hand

    rng = random.Random(seed)
    holders = [
        SeatHolder(GUEST, "ann"),
        SeatHolder(GUEST, "bob"),
        SeatHolder(ROBOT, "random@1"),
        SeatHolder(ROBOT, "perfect@1"),
    ]
    jobs: list[_Hand | _End] = []
    live: list[Live] = []
    for m in range(14):
        n = rng.randint(1, 3)
        live.append(Live(info(f"r{m}", n), n, (rng.choice(holders), rng.choice(holders)), [0, 0]))
        while live and (len(live) > 3 or m == 13):  # a few matches at once, their jobs interleaved
            x = rng.choice(live)
            if x.played < x.hands and rng.random() < 0.9:
                hand = play("tricks", seed * 100 + int(x.info.room_id[1:]), x.played)
                jobs.append(_Hand(x.info, hand, x.seats))
                x.played += 1
                x.totals = [t + d for t, d in zip(x.totals, hand.scores, strict=True)]
            else:
                end = x.seats if rng.random() < 0.7 else (x.seats[0], rng.choice(holders))
                jobs.append(_End(x.info, end, tuple(x.totals), x.played == x.hands))
                live.remove(x)
    one_by_one = Database(f"sqlite+aiosqlite:///{Path(str(tmp_path)) / 'a.sqlite3'}")
    if where == "postgresql":
        batched = await request.getfixturevalue("postgres").emptied()
    else:
        batched = Database(f"sqlite+aiosqlite:///{Path(str(tmp_path)) / 'b.sqlite3'}")
        await batched.upgrade()
    await one_by_one.upgrade()
    mids: dict[str, int] = {}
    for job in jobs:  # the reference: a transaction a job
        if isinstance(job, _Hand):
            mids[job.info.room_id] = await matches.write_hand(
                one_by_one, job.info, mids.get(job.info.room_id), job.hand, job.seats
            )
        elif job.info.room_id in mids:
            await matches.finish_match(
                one_by_one, mids.pop(job.info.room_id), job.info, job.seats, job.totals, complete=job.complete
            )
    writer = Batches(batched, blocking=where == "writer")
    k = 0
    while k < len(jobs):
        size = rng.randint(1, 12)
        assert await writer.write(jobs[k : k + size]) == ([True] * len(jobs[k : k + size]), 0)
        k += size
    expected, got = await _rows(one_by_one), await _rows(batched)
    assert got == expected
    assert any(r[7] for r in got["matches"]) and got["ratings"]  # rated matches, ratings that moved
    for d in (one_by_one, batched):
        await d.close()


async def test_an_analysis_waits_for_a_batch_that_goes_anyway(db: Database) -> None:
    """An analysis, whose commit nothing waits for, does not wake the writer: it goes with the
    next hand's batch, or alone after ANALYSIS_WAIT; the hand is no longer pending."""
    rec = Recorder(db, group=0)
    rec.start()
    a = info("an", 3)
    first = play("tricks", 8, 0)
    pending = HandRecord(first.hand, first.actions, first.scores, first.revealed, first.detail, True)
    assert await rec.hand_ended(a, pending, ROBOTS)
    before = rec.batches
    rec.analysed(a, 0, {"values": [1, 2]})
    assert await rec.hand_ended(a, play("tricks", 8, 1), ROBOTS)
    await rec.flush()
    assert rec.batches == before + 1  # the analysis went with the hand
    rec.analysed(a, 1, {"values": [3]})
    await rec.flush()  # alone: after ANALYSIS_WAIT
    await rec.close()
    got = await matches.match(db, (await ids(db))["an"])
    assert [(h["analysis_pending"], h["detail"].get("values")) for h in got["hands"]] == [(False, [1, 2]), (False, [3])]
