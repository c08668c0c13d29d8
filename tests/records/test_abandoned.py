"""A match is never left "playing" for ever: `paiju serve` (no Redis: its rooms die with it)
killed outright (SIGKILL) in the middle of a match leaves its row playing; the next server
started on the same database closes it as abandoned, keeping the hands already played."""

from __future__ import annotations

import asyncio
import json
import random
import signal
import sqlite3
import time
from pathlib import Path

from paiju.client import Client
from paiju.protocol import Prompt, Result
from tests.server.conftest import TEST_OPTIONS, Launched, start_process, stop_server


def rows(db: Path) -> list[tuple[str, float | None, list[int] | None, int]]:
    """Each match's status, end, totals and number of hands recorded."""
    with sqlite3.connect(db) as c:
        got = c.execute(
            "SELECT status, ended, totals, (SELECT count(*) FROM hands WHERE match_id = matches.id) FROM matches"
        )
        return [(status, ended, json.loads(totals or "null"), n) for status, ended, totals, n in got]


async def kill_after_one_hand(s: Launched, db: Path) -> Result:
    """A 4-hand tricks match against a robot, played until its first hand is recorded; then
    the server is killed (the player still connected)."""
    rng = random.Random(3)
    async with await Client.connect(s.url, "ann") as c:
        await c.create("tricks", bots=[1], hands=4, clock_ms=60_000, seed=5)
        async with asyncio.timeout(60):
            while True:
                f = await c.recv()
                if isinstance(f, Prompt) and f.prompt_id in c.prompts:
                    await c.act_random(f, rng)
                elif isinstance(f, Result):
                    break
            while not (db.exists() and rows(db) and rows(db)[0][3] == 1):  # written in a moment
                await asyncio.sleep(0.1)
        s.proc.send_signal(signal.SIGKILL)
        s.proc.wait(10)
    return f


def test_a_match_a_killed_server_left_playing_is_abandoned_by_the_next_one(tmp_path: Path) -> None:
    db = tmp_path / "records.sqlite3"
    s = start_process(*TEST_OPTIONS, "--database", f"sqlite:///{db}")
    try:
        first = asyncio.run(kill_after_one_hand(s, db))
    finally:
        stop_server(s)
    assert s.proc.returncode == -signal.SIGKILL
    assert rows(db) == [("playing", None, None, 1)]  # what the kill leaves
    s = start_process(*TEST_OPTIONS, "--database", f"sqlite:///{db}")
    try:
        ((status, ended, totals, hands),) = rows(db)  # closed before the server takes connections
        assert (status, hands) == ("abandoned", 1) and ended is not None and ended <= time.time()
        assert totals == first.scores  # the hand played is kept
    finally:
        out = stop_server(s)
    assert "Traceback" not in out, out[-3000:]
