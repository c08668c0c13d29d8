"""The recorder on real databases: the jobs that arrive together go in one transaction, in
order (a match's hands before its end), and a job that cannot be written costs only itself."""

from __future__ import annotations

import logging
import time

import pytest

from bots.pool import process_pool
from records import matches
from records.database import Database
from records.matches import MatchInfo, SeatHolder
from records.models import GUEST, ROBOT
from records.recorder import Recorder
from tests.records.test_matches import play

ROBOTS = [SeatHolder(ROBOT, "random@1")] * 2


def info(room: str, hands: int) -> MatchInfo:
    return MatchInfo(room, "tricks", "classic", {}, 7, hands, time.time())


async def ids(db: Database) -> dict[str, int]:
    """Match id by room id."""
    from sqlalchemy import select

    from records.models import Match

    async with db.session() as s:
        return {room: mid for mid, room in (await s.execute(select(Match.id, Match.room_id))).all()}


@pytest.mark.parametrize("process", [False, True], ids=["in the loop", "writer process"])
async def test_jobs_that_arrive_together_are_written_in_order(db: Database, process: bool) -> None:
    # linger: long enough for every job below to join the first one's batch
    rec = Recorder(db, linger=0.3, writer=process_pool if process else None)
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

    rec = Recorder(db, linger=0, writer=process_pool)  # as paiju serve writes
    rec.start()
    a = info("ra", 3)
    hands = [play("tricks", 7, h) for h in range(3)]
    rec.hand_ended(a, hands[0], ROBOTS)
    await rec.flush()
    (pid,) = rec.writer_pids()
    assert pid != os.getpid()
    os.kill(pid, signal.SIGKILL)
    rec.hand_ended(a, hands[1], ROBOTS)  # written by a new writer, after one failed try
    await rec.flush()
    assert rec.writer_pids() and rec.writer_pids() != [pid]
    rec.hand_ended(a, hands[2], ROBOTS)
    await rec.close()
    assert (rec.written, rec.failures) == (3, 1)
    ra = await matches.match(db, (await ids(db))["ra"])
    assert [h["hand"] for h in ra["hands"]] == [0, 1, 2] and ra["hands_played"] == 3


def test_paiju_bench_records_measures_each_linger() -> None:
    import json
    import subprocess
    import sys

    cmd = [sys.executable, "-m", "paiju", "bench", "records", "--hands", "12", "--match-hands", "4"]
    cmd += ["--gap", "0", "--linger", "0", "0.05", "--game", "tricks", "--process", "--json"]
    out = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True, timeout=120).stdout)
    assert out["hands"] == 12 and [(r["linger_s"], r.get("process", False)) for r in out["runs"]] == [
        (0.0, False),
        (0.0, True),
        (0.05, False),
        (0.05, True),
    ]
    assert all(r["failures"] == 0 for r in out["runs"])
    # in the loop the process pays for the SQL; with the writer process the writer does
    assert all(r["cpu_ms_per_hand"] > 0 for r in out["runs"] if not r.get("process"))
    assert all(r["writer_cpu_ms_per_hand"] >= 0 for r in out["runs"] if r.get("process"))
    bad = subprocess.run([*cmd[:5], "--gap", "-1"], capture_output=True, text=True, timeout=120)
    assert bad.returncode != 0 and "--gap and --linger are seconds" in bad.stderr
