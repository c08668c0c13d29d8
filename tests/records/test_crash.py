"""SIGKILL of the embedded server (`paiju serve` with its SQLite records) at random moments
while robot rooms of all four games play at full speed, twice on the same database:
every hand whose RESULT a spectator received is in the database with the scores it was shown,
the analyses the killed servers left pending (bridge's par, the trick game's solved values)
are finished by the next one, and no match is left ``playing``."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
import signal
import sqlite3
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from paiju.client import Client
from paiju.protocol import Result
from tests.server.conftest import TEST_OPTIONS, Launched, start_process

SEATS = {"tricks": 2, "bridge": 4, "mahjong": 4, "niujiu": 3}
KILLS = 2  # the second start finishes what the first kill left, the last start what the second left


async def watch_robots(s: Launched, game: str) -> Client:
    """A room of ``game`` where robots hold every seat, watched by its creator (who records)."""
    c = await Client.connect(s.url, f"w-{game}", record=True)
    await c.create(game, hands=64, bots=list(range(SEATS[game])), robot="random")
    return c


def record_waits(s: Launched) -> str:
    """The mean and count of paiju_result_record_wait_seconds by game, from /metrics."""
    with urllib.request.urlopen(s.http + "/metrics", timeout=10) as r:
        text = r.read().decode()
    got: dict[str, dict[str, float]] = {}
    for m in re.finditer(r'paiju_result_record_wait_seconds_(sum|count)\{game="(\w+)"\} (\S+)', text):
        got.setdefault(m.group(2), {})[m.group(1)] = float(m.group(3))
    return ", ".join(f"{g} {1000 * v['sum'] / v['count']:.1f} ms x {v['count']:.0f}" for g, v in sorted(got.items()))


def rows(path: Path, query: str, *args: object) -> list[tuple[Any, ...]]:
    with contextlib.closing(sqlite3.connect(path)) as db:
        return db.execute(query, args).fetchall()


@pytest.mark.slow
async def test_sigkill_at_random_moments_loses_no_hand_a_client_saw(tmp_path: Path) -> None:
    path = tmp_path / "records.sqlite3"
    url = f"sqlite:///{path}"
    rng = random.Random(45)
    seen: list[Result] = []
    for _ in range(KILLS):
        s = start_process(*TEST_OPTIONS, "--database", url)
        watchers = [await watch_robots(s, game) for game in SEATS]
        async with asyncio.timeout(60):  # a hand ended in every room (a busy machine is slow)...
            while not all(any(isinstance(f, Result) for f in c.log) for c in watchers):
                await asyncio.sleep(0.05)
        await asyncio.sleep(rng.uniform(0.0, 2.0))  # ...and a random moment of play later
        waits = record_waits(s)
        s.stop(signal.SIGKILL)
        for c in watchers:
            await c.abort()
            seen += [f for f in c.log if isinstance(f, Result)]
    pending = rows(path, "SELECT count(*) FROM hands WHERE analysis_pending")[0][0]  # left by the last kill
    # and, whatever the machine's speed, some more: the first hand of every bridge and tricks
    # match as a server killed before its analysis came leaves it (each restart above finished
    # those the kill before it left)
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        forced = db.execute(
            "UPDATE hands SET analysis_pending = 1, detail = json_remove(detail, '$.par', '$.value')"
            " WHERE hand = 0 AND match_id IN (SELECT id FROM matches WHERE game IN ('bridge', 'tricks'))"
        ).rowcount
    assert forced > 0
    # a server on the same database: it closes what the killed ones left playing and finishes
    # the analyses they left pending
    s = start_process(*TEST_OPTIONS, "--database", url)
    try:
        # the solvers run below the server's priority: on a busy machine they take their time
        until = time.monotonic() + 300
        while (
            left := rows(path, "SELECT count(*) FROM hands WHERE analysis_pending")[0][0]
        ) and time.monotonic() < until:
            await asyncio.sleep(0.2)
        assert left == 0, f"{left} analyses still pending five minutes after the restart"
    finally:
        out = s.stop()
    assert "Traceback" not in out, out[-4000:]
    assert rows(path, "SELECT count(*) FROM matches WHERE status = 'playing'") == [(0,)]
    stored = {
        (room, hand): (json.loads(scores), json.loads(revealed), json.loads(detail), game)
        for room, hand, scores, revealed, detail, game in rows(
            path,
            "SELECT m.room_id, h.hand, h.scores, h.revealed, h.detail, m.game FROM hands h"
            " JOIN matches m ON m.id = h.match_id",
        )
    }
    lost = [(r.room, r.hand) for r in seen if (r.room, r.hand) not in stored]
    assert not lost, f"{len(lost)} of {len(seen)} hands a client saw end are not in the database: {lost[:5]}"
    for r in seen:
        scores, revealed, _, _ = stored[(r.room, r.hand)]
        assert scores == r.scores and revealed == [c.hex() for c in r.hands]
    analysed = {"bridge": "par", "tricks": "value"}
    for (_, _), (_, _, detail, game) in stored.items():
        if game in analysed:
            assert analysed[game] in detail, (game, detail, [x for x in out.splitlines() if "analys" in x])
    print(f"{len(seen)} hands seen end over {KILLS} kills, all recorded; {pending} + {forced} analyses finished")
    print("RESULTs' wait for their records before the last kill (/metrics):", waits)
