"""No secret of a match leaves a real `paiju serve` before its end, and its deals are provably
fixed in advance, in each of the four games.

A player plays a private room against robots; while its second hand plays, the test fetches
every records URL (the player's and the robots' lists, every match id, the stored hand's
replay, the PBN, the check, the leaderboard, health and metrics) and an outsider (connected,
in no room) lists the rooms. None of it, nor any frame the outsider or a spectator gets before
MATCH_END, names the seed, the salt or the private room's id, and the records hold only the
hands whose RESULT was sent. The commitment in ROOM_STATE is SHA-256(salt || seed) of what the
final RESULT reveals; `paiju verify` deals every recorded hand again from it (through the
records API, and from the database), and fails once the record is tampered with.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import io
import json
import random
import sqlite3
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from paiju.cli import main
from paiju.client import Client, ServerError
from paiju.protocol import Event, Prompt, Result, RoomEvent
from tests.records.test_serve import serve
from tests.server.conftest import Served

SEATS = {"tricks": 2, "bridge": 4, "mahjong": 4, "niujiu": 3}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Served, Path]]:
    path = tmp_path_factory.mktemp("fair") / "records.sqlite3"
    for s in serve(f"sqlite:///{path}"):
        yield s, path


def fetch(s: Served, path: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(s.http + path, timeout=20) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


async def verify(*args: str, process: bool = False) -> subprocess.CompletedProcess[str]:
    """`paiju verify ARGS`: its exit code and output (in a process of its own, or in a thread
    of this one: a process costs seconds of start on a busy machine)."""
    if process:
        cmd = [sys.executable, "-m", "paiju", "verify", *args]
        return await asyncio.to_thread(subprocess.run, cmd, capture_output=True, text=True, timeout=60)
    out, err = io.StringIO(), io.StringIO()

    def run() -> int:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            return main(["verify", *args])

    code = await asyncio.to_thread(run)
    return subprocess.CompletedProcess(args, code, out.getvalue(), err.getvalue())


async def probe(s: Served, game: str, name: str, results: int) -> list[bytes]:
    """Every records URL and the public ones, fetched while the match plays (their bodies)."""
    bodies: list[bytes] = []
    status, body = fetch(s, f"/api/players/{name}/matches")
    assert status == 200, body
    match = json.loads(body)["matches"][0]
    mid = match["id"]
    assert match["status"] == "playing" and match["seed"] is None and match["salt"] is None and match["room"] is None
    assert len(match["commitment"]) == 64
    paths = [f"/api/players/{name}/matches", f"/api/players/{name}/matches?limit=100"]
    paths += [f"/api/players/{seat['name']}/matches" for seat in match["seats"]]
    for i in range(1, mid + 3):  # ids are sequential: every match, the others' too
        paths += [f"/api/matches/{i}", f"/api/matches/{i}.pbn", f"/api/matches/{i}/verify"]
        paths += [f"/api/matches/{i}/{h}.msgpack" for h in range(3)]
    paths += [f"/api/leaderboard/{game}", "/api/games", "/healthz", "/metrics"]
    for p in paths:
        status, body = fetch(s, p)
        assert status in (200, 400, 404, 409), (p, status)
        bodies.append(body)
    status, body = fetch(s, f"/api/matches/{mid}")
    record = json.loads(body)
    assert record["seed"] is None and record["room"] is None and record["salt"] is None
    # only the hands whose RESULT was sent: no card of the hand in play is in the records
    assert [h["hand"] for h in record["hands"]] == list(range(results))
    status, body = fetch(s, f"/api/matches/{mid}/verify")
    assert status == 200 and not json.loads(body)["ok"] and "in play" in json.loads(body)["problems"][0]
    assert (await verify(str(mid), "--url", s.http)).returncode == 1
    return bodies


def secrets_in(data: bytes, seed: int, salt: str, room: str | None) -> list[str]:
    """Which of the match's secrets ``data`` names (the seed as text or as a msgpack integer)."""
    found = []
    if str(seed).encode() in data or b"\xcf" + seed.to_bytes(8, "big") in data:
        found.append("seed")
    if salt.encode() in data or bytes.fromhex(salt) in data:
        found.append("salt")
    if room is not None and room.encode() in data:
        found.append("room")
    return found


@pytest.mark.parametrize("game", list(SEATS))
async def test_no_secret_before_the_end_and_every_deal_checks(server: tuple[Served, Path], game: str) -> None:
    s, path = server
    n = SEATS[game]
    player = await Client.connect(s.url, f"fair-{game}")
    outsider = await Client.connect(s.url, f"out-{game}")
    player.record = outsider.record = True
    state = await player.create(game, hands=2, bots=list(range(1, n)), robot="random", private=True)
    room = state.room
    assert len(state.commitment) == 64
    spectator = await Client.connect(s.url, f"watch-{game}")
    spectator.record = True
    watched = await spectator.watch(room)
    assert watched.commitment == state.commitment
    rng = random.Random(7)
    results: list[Result] = []
    bodies: list[bytes] = []
    listed: list[str] = []
    async with asyncio.timeout(60):
        async for f in player:
            if isinstance(f, Prompt) and f.prompt_id in player.prompts:
                if results and not bodies:  # the second hand plays and waits for this seat
                    bodies = await probe(s, game, player.name, len(results))
                    listed = [r.room for r in await outsider.list_rooms()]
                with contextlib.suppress(ServerError):  # withdrawn meanwhile: a newer prompt follows
                    await player.act_random(f, rng)
            elif isinstance(f, Result):
                results.append(f)
            elif isinstance(f, Event) and f.code == RoomEvent.MATCH_END:
                break
    assert bodies, "the records were not probed while the match played"
    assert room not in listed
    final = results[-1]
    assert final.final and final.seed is not None and len(final.salt) == 32
    assert all(r.seed is None and not r.salt for r in results[:-1])
    seed, salt = final.seed, final.salt
    assert hashlib.sha256(bytes.fromhex(salt) + seed.to_bytes(8, "big")).hexdigest() == state.commitment
    for body in bodies:
        assert secrets_in(body, seed, salt, room) == []
    await outsider.ping()
    for f in outsider.log:
        assert secrets_in(repr(f).encode(), seed, salt, room) == [], f
    before_end = [f for f in spectator.log if not (isinstance(f, Result) and f.final)]
    for f in before_end:
        assert secrets_in(repr(f).encode(), seed, salt, None) == [], f
    for c in (player, outsider, spectator):
        await c.close()
    # after MATCH_END the records reveal the seed: at once, since the final RESULT waited for
    # the match's end to be committed
    status, body = fetch(s, f"/api/players/{player.name}/matches")
    assert status == 200, body
    record = json.loads(body)["matches"][0]
    assert record["status"] == "over" and record["seed"] == str(seed) and record["salt"] == salt
    assert record["commitment"] == state.commitment and record["room"] == room
    mid = str(record["id"])
    # `paiju verify` as a process once (its exit code and output as a command); in a thread for the other games
    ok = await verify(mid, "--url", s.http, "--commitment", state.commitment, process=game == "tricks")
    assert ok.returncode == 0 and "ok: every deal (2 hands)" in ok.stdout, ok.stdout + ok.stderr
    assert (await verify(mid, "--database", f"sqlite:///{path}")).returncode == 0
    assert (await verify(mid, "--url", s.http, "--commitment", "0" * 64)).returncode == 1
    # a tampered record fails: another seat's cards recorded (or, when every seat's hand is
    # the same at the end, another score), or another seed
    with sqlite3.connect(path) as db:
        query = "SELECT revealed, scores FROM hands WHERE match_id = ? AND hand = 1"
        revealed, scores = db.execute(query, (mid,)).fetchone()
        cards, points = json.loads(revealed), json.loads(scores)
        if cards[1:] + cards[:1] != cards:
            db.execute(
                "UPDATE hands SET revealed = ? WHERE match_id = ? AND hand = 1",
                (json.dumps(cards[1:] + cards[:1]), mid),
            )
        else:
            db.execute(
                "UPDATE hands SET scores = ? WHERE match_id = ? AND hand = 1",
                (json.dumps([points[0] + 1, *points[1:]]), mid),
            )
    bad = await verify(mid, "--database", f"sqlite:///{path}")
    assert bad.returncode == 1 and "FAILED" in bad.stdout and "hand 1" in bad.stdout, bad.stdout
    with sqlite3.connect(path) as db:
        db.execute("UPDATE hands SET revealed = ?, scores = ? WHERE match_id = ? AND hand = 1", (revealed, scores, mid))
        db.execute("UPDATE matches SET seed = seed + 1 WHERE id = ?", (mid,))
    bad = await verify(mid, "--url", s.http)
    assert bad.returncode == 1 and "not the one promised" in bad.stdout, bad.stdout
