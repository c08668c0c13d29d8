"""Accounts and records through a real `paiju serve` (its own SQLite file): register, log in
and out over the WebSocket, the name rules, and a match played against robots that shows up
in the history, the match record and the leaderboard with the outcome the players saw."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import sqlite3
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from paiju.client import Client, ServerError
from paiju.protocol import ErrorCode, Identity, Result
from paiju.records import matches
from tests.records.conftest import Postgres
from tests.server.conftest import TEST_OPTIONS, Served, start_process, start_server, stop_server


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Served]:
    yield from serve(f"sqlite:///{tmp_path / 'records.sqlite3'}")


@pytest.fixture(params=["sqlite", "postgresql"])
def any_server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Served]:
    """`paiju serve` on a SQLite file, and on a PostgreSQL database."""
    if request.param == "sqlite":
        yield from serve(f"sqlite:///{tmp_path / 'records.sqlite3'}")
        return
    pg: Postgres = request.getfixturevalue("postgres")
    yield from serve(asyncio.run(pg.cluster.create()).replace("+asyncpg", ""))


def serve(url: str, *extra: str) -> Iterator[Served]:
    s = start_server(*(extra or TEST_OPTIONS), "--database", url)
    try:
        yield s
    finally:
        out = stop_server(s)
        assert "Traceback" not in out, out[-4000:]


def get(s: Served, path: str) -> tuple[int, Any]:
    try:
        with urllib.request.urlopen(s.http + path, timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


async def test_register_login_logout_and_names(server: Served) -> None:
    c = await Client.connect(server.url, "zed")
    ident = await c.account("register", "Alice", "correct horse")
    assert ident == Identity("Alice", True, ident.session) and ident.session
    with pytest.raises(ServerError) as e:
        await c.account("register", "alice", "another one")
    assert e.value.code == ErrorCode.NAME_TAKEN
    with pytest.raises(ServerError) as e:
        await c.account("register", "x", "another one")
    assert e.value.code == ErrorCode.BAD_ACCOUNT
    await c.close()
    # a guest may not take an account's name, whatever its case
    with pytest.raises(ServerError) as e:
        await Client.connect(server.url, "ALICE")
    assert e.value.code == ErrorCode.NAME_TAKEN
    # the session token comes back (a browser restart): HELLO plays as the account
    c = await Client.connect(server.url, "whoever", session=ident.session, record=True)
    frames = [await c.recv(5), await c.recv(5)]
    assert type(frames[0]).__name__ == "Welcome" and frames[1] == Identity("Alice", True, None)
    out = await c.account("logout")
    assert not out.registered and out.player != "Alice"
    await c.close()
    with pytest.raises(ServerError) as e:
        await Client.connect(server.url, "whoever", session=ident.session)
    assert e.value.code == ErrorCode.BAD_LOGIN
    c = await Client.connect(server.url, "guest")
    with pytest.raises(ServerError) as e:
        await c.account("login", "alice", "wrong horse")
    assert e.value.code == ErrorCode.BAD_LOGIN
    assert (await c.account("login", "alice", "correct horse")).registered
    await c.close()


async def test_failed_logins_are_throttled_the_same_for_every_name(server: Served) -> None:
    """Three failures of a name are free; the fourth attempt waits a second (then two, four,
    ... until a lock): refused at once with RATE_LIMITED, whether the name is an account's or
    not, and costing no password check. paiju/core/throttle.py has the rules, tested in the core."""
    c = await Client.connect(server.url, "zed")
    await c.account("register", "Carol", "correct horse")
    await c.account("logout")
    for name in ("carol", "nobody-here"):
        for _ in range(3):
            with pytest.raises(ServerError) as e:
                await c.account("login", name, "wrong horse")
            assert e.value.code == ErrorCode.BAD_LOGIN
        with pytest.raises(ServerError) as e:
            await c.account("login", name, "correct horse")
        assert e.value.code == ErrorCode.RATE_LIMITED and "too many failed logins" in e.value.error.message
    await asyncio.sleep(1.1)  # the delay has passed: the right password goes through
    assert (await c.account("login", "carol", "correct horse")).registered
    await c.close()


async def test_a_match_against_robots_is_recorded(any_server: Served) -> None:
    server = any_server
    c = await Client.connect(server.url, "guest")
    await c.account("register", "bob", "correct horse")
    await c.create("tricks", hands=2, bots=[1], robot="random")
    results: list[Result] = await c.play(random.Random(4))
    await c.close()
    assert len(results) == 2 and results[-1].final
    for _ in range(300):  # the recorder writes in its own process: a moment after MATCH_END
        status, page = get(server, "/api/players/bob/matches")
        if status == 200 and page["matches"] and page["matches"][0]["status"] == "over":
            break
        await asyncio.sleep(0.05)
    assert status == 200, page
    m = page["matches"][0]
    assert m["seats_held"] == [0] and m["totals"] == results[-1].totals and m["rated"]
    assert [s["name"] for s in m["seats"]] == ["bob", "random@1"]
    status, record = get(server, f"/api/matches/{m['id']}")
    assert status == 200
    for h, res in zip(record["hands"], results, strict=True):
        assert h["scores"] == res.scores and h["revealed"] == [c.hex() for c in res.hands]
        g = matches.replay_hand(record, h)
        assert list(g.outcome().scores) == res.scores
    status, board = get(server, "/api/leaderboard/tricks")
    assert status == 200 and {p["name"] for p in board["players"]} == {"bob", "random@1"}
    status, err = get(server, "/api/players/bob/matches?limit=1000")
    assert status == 400 and err["error"]["code"] == "bad_limit"


def _children(pid: int) -> list[int]:
    return [int(k) for t in Path(f"/proc/{pid}/task").iterdir() for k in (t / "children").read_text().split()]


def _running(pid: int) -> bool:
    """Alive and not a zombie waiting for a parent to reap it."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


async def test_the_records_writer_is_a_process_that_ends_with_a_killed_server(tmp_path: Path) -> None:
    s = start_process(*TEST_OPTIONS, "--database", f"sqlite:///{tmp_path / 'records.sqlite3'}")
    helpers: list[int] = []
    try:
        # from the start: multiprocessing's resource tracker, which a spawning process starts,
        # and the records writer (connected at start: the first RESULT waits for its record,
        # not for imports); the deals' extras start with their game's first deal
        for _ in range(300):
            helpers = _children(s.proc.pid)
            if len(helpers) == 2:
                break
            await asyncio.sleep(0.05)
        assert len(helpers) == 2, helpers
        c = await Client.connect(s.url, "guest")
        await c.create("tricks", hands=1, bots=[1], robot="random")
        await c.play(random.Random(1))
        await c.close()
        started = [p for p in _children(s.proc.pid) if p not in helpers]
        assert len(started) == 1  # the trick game's solver, for its first deal (no bridge par: no bridge dealt)
        helpers += started
        assert all(map(_running, helpers))
        s.proc.kill()  # SIGKILL: the server cleans nothing up
        s.proc.wait(10)
        for _ in range(200):
            if not any(map(_running, helpers)):
                break
            await asyncio.sleep(0.05)
        assert not any(map(_running, helpers))
    finally:
        for pid in filter(_running, helpers):  # (holding the server's output pipe open)
            os.kill(pid, signal.SIGKILL)
        stop_server(s)


def _spawned(pid: int) -> list[int]:
    """``pid``'s pool processes (the records' writer, the robots' decision pool)."""
    kids = []
    for k in _children(pid):
        with contextlib.suppress(OSError):
            if b"spawn_main" in Path(f"/proc/{k}/cmdline").read_bytes():
                kids.append(k)
    return kids


async def test_a_ctrl_c_ends_the_server_its_robots_and_its_writer_cleanly(tmp_path: Path) -> None:
    """SIGINT to the whole process group, as a terminal's Ctrl-C sends it: the pools' processes
    leave the stopping to the server, which writes what it holds and exits without a trace."""
    db = tmp_path / "records.sqlite3"
    s = start_process(*TEST_OPTIONS, "--database", f"sqlite:///{db}", new_session=True)
    helpers: list[int] = []
    try:
        c = await Client.connect(s.url, "guest")
        await c.create("mahjong", hands=1, bots=[1, 2, 3], robot="bdi-hudist")
        await c.play(random.Random(1))
        await c.close()
        for _ in range(300):  # a robots' process (at the first decision) and the writer (first hand)
            helpers = _children(s.proc.pid)
            if len(_spawned(s.proc.pid)) >= 2:
                break
            await asyncio.sleep(0.05)
        assert len(_spawned(s.proc.pid)) >= 2
        os.killpg(s.proc.pid, signal.SIGINT)
        out = s.wait(timeout=30)
        assert s.proc.returncode == 0 and "Traceback" not in out and "writer process ended" not in out, out
        for _ in range(200):
            if not any(map(_running, helpers)):
                break
            await asyncio.sleep(0.05)
        assert not any(map(_running, helpers))
        with contextlib.closing(sqlite3.connect(db)) as con:
            assert con.execute("select count(*) from hands").fetchone() == (1,)
    finally:
        for pid in filter(_running, helpers):
            os.kill(pid, signal.SIGKILL)
        if s.proc.poll() is None:
            stop_server(s)
