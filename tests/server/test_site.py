"""What a player of the site sees besides the table, through a real ``paiju serve``: the
robots' menus in /healthz (strongest first, described), the replay of a finished hand
(/replay/ROOM/HAND: a spectator's frames with every card face up, then the RESULT, nothing
before the hand is over),
a server whose bridge rooms play the deals of ``--pbn FILE``, and the solver's value of a
finished trick-taking deal in its RESULT."""

from __future__ import annotations

import asyncio
import json
import random
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import msgpack
import pytest

from paiju.bots import registry
from paiju.bots.tricks import solve
from paiju.client import Client, ServerError
from paiju.core.config import PREFERRED_ROBOTS
from paiju.protocol import HIDDEN, ErrorCode, Event, Result, RoomEvent, RoomState, decode
from paiju.protocol.cards import tricks_number

from .conftest import TEST_OPTIONS, Served, start_server, stop_server
from .tablekit import Driver
from .test_pbn import BOARDS, PBN


def get(url: str) -> tuple[int, bytes, str]:
    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args: object, **kw: object) -> None:
            return None

    opener = urllib.request.build_opener(NoRedirect)
    try:
        with opener.open(url, timeout=10) as r:
            return r.status, r.read(), r.headers.get("Location", "")
    except urllib.error.HTTPError as e:
        return e.code, e.read(), e.headers.get("Location", "")


def test_http_paths(served: Served) -> None:
    with urllib.request.urlopen(served.http + "/healthz", timeout=5) as r:
        health = json.load(r)
        assert r.headers["Content-Type"] == "application/json"
    assert health["ok"] and "tricks" in health["games"]
    with urllib.request.urlopen(served.http + "/", timeout=5) as r:
        assert r.headers["Content-Type"].startswith("text/html")
        assert b"<" in r.read()
    with urllib.request.urlopen(served.http + "/rules/bridge-system.html", timeout=5) as r:  # the system card
        assert r.headers["Content-Type"] == "text/html; charset=utf-8"
        assert b"<h1>Bridge: the bidding system</h1>" in r.read()
    with urllib.request.urlopen(served.http + "/rules/bridge-system.zh.html", timeout=5) as r:  # in Chinese
        assert "<h1>桥牌：叫牌体系</h1>" in r.read().decode()
    for path in ("/nope.html", "/%2e%2e/pyproject.toml", "/..%2f..%2fpyproject.toml", "/.hidden"):
        with pytest.raises(urllib.error.HTTPError) as e:
            urllib.request.urlopen(served.http + path, timeout=5)
        assert e.value.code == 404, path


def test_healthz_lists_each_games_robots_strongest_first(served: Served) -> None:
    status, body, _ = get(served.http + "/healthz")
    assert status == 200
    menus = json.loads(body)["robots"]
    for game, menu in menus.items():
        names = [name for name, _ in menu]
        assert sorted(names) == registry.names(game)
        assert names[0] == next(r for r in PREFERRED_ROBOTS if r in names)  # the default first
        assert names[-1] == "random" and all(text for _, text in menu)
    assert menus["mahjong"][0][0] == "bdi-hudist" and menus["tricks"][0][0] == "perfect"


async def test_a_finished_hand_replays_face_up(served: Served) -> None:
    async with await Client.connect(served.url, "ann", record=True) as c:
        st = await c.create("tricks", bots=[1], robot="random", clock_ms=30_000, hands=2)
        base = f"{served.http}/replay/{st.room}/0"
        assert get(base + ".msgpack")[0] == 404  # not before the hand is over
        results = await c.play(random.Random(1), timeout=60)
    for hand, result in enumerate(results):
        status, data, _ = get(f"{served.http}/replay/{st.room}/{hand}.msgpack")
        assert status == 200
        frames = [decode(msgpack.packb(f, use_bin_type=True)) for f in msgpack.unpackb(data, raw=False)]
        head, events, last = frames[0], frames[1:-1], frames[-1]
        assert isinstance(head, RoomState) and head.seat is None and head.hand == hand
        assert all(isinstance(e, Event) for e in events) and isinstance(last, Result)
        assert [e.seq for e in events] == list(range(head.seq + 1, head.seq + 1 + len(events)))
        assert events[0].code == RoomEvent.HAND_START and events[-1].code == RoomEvent.HAND_END
        deals = [e for e in events if e.code == RoomEvent.DEAL]
        # a finished hand replays with every hand face up from the deal (each seat's deal is
        # the hand the RESULT reveals), while the live spectator saw them face down
        assert len(deals) == 2 and all(HIDDEN not in e.cards for e in deals)
        assert [sorted(e.cards) for e in sorted(deals, key=lambda e: e.seat or 0)] == [sorted(h) for h in result.hands]
        assert last == result  # the RESULT reveals the hands, at the end
        live = [f for f in c.log if isinstance(f, Event) and head.seq < f.seq <= events[-1].seq]
        assert [(e.seq, e.code, e.seat) for e in live] == [(e.seq, e.code, e.seat) for e in events]
    status, _, location = get(f"{served.http}/replay/{st.room}/1")
    assert status == 302 and location == f"../../?replay={st.room}/1"  # the web client's replay page
    assert get(f"{served.http}/replay/{st.room}/7.msgpack")[0] == 404
    assert get(f"{served.http}/replay/nope/x.msgpack")[0] == 404


async def test_the_result_of_a_trick_taking_deal_has_its_solved_value(served: Served) -> None:
    async with await Client.connect(served.url, "ann", record=True) as c:
        await c.create("tricks", bots=[1], robot="random", clock_ms=30_000)
        [result] = await c.play(random.Random(2), timeout=60)
    # the RESULT is not held for the solver: the value reaches the hand's record when it is ready
    detail = await asyncio.to_thread(solved_detail, served.http, "ann")
    leader = detail["leader"]
    dealt = [sorted(tricks_number(b) for b in h) for h in result.hands]
    assert detail["value"] == solve(dealt[leader], dealt[1 - leader])


def solved_detail(http: str, player: str, within: float = 60.0) -> dict[str, int]:
    """The detail of the player's last match's first hand once its analysis is done."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        _, body, _ = get(f"{http}/api/players/{player}/matches")
        matches = json.loads(body)["matches"]
        if matches:
            _, body, _ = get(f"{http}/api/matches/{matches[0]['id']}")
            hands = json.loads(body)["hands"]
            if hands and not hands[0]["analysis_pending"]:
                return dict(hands[0]["detail"])
        time.sleep(0.2)
    raise AssertionError(f"no finished analysis for {player}'s match within {within} s")


@pytest.fixture
def pbn_server(tmp_path: Path) -> Iterator[Served]:
    f = tmp_path / "club.pbn"
    f.write_text(PBN)
    s = start_server(*TEST_OPTIONS, "--pbn", str(f))
    try:
        yield s
    finally:
        stop_server(s)


async def test_serve_pbn_seeds_the_bridge_rooms(pbn_server: Served) -> None:
    async with await Client.connect(pbn_server.url, "ann", record=True) as c:
        st = await c.create("bridge", bots=[1, 2, 3], robot="random", clock_ms=30_000, hands=1)
        [result] = await c.play(random.Random(3), timeout=90)
    assert result.detail["board"] == BOARDS[0].board and st.game == "bridge"
    assert [bytes(sorted(h)) for h in result.hands] == [bytes(sorted(h)) for h in BOARDS[0].hands]


async def test_each_robot_seat_may_hold_its_own_robot(served: Served) -> None:
    async with await Client.connect(served.url, "ann", record=True) as c:
        with pytest.raises(ServerError) as e:
            await c.create("mahjong", bots=[1, 2, 3], robots=[None, "nobody"])
        assert e.value.code == ErrorCode.BAD_ROOM_OPTIONS and "nobody" in e.value.error.message
        with pytest.raises(ServerError) as e:
            await c.create("mahjong", bots=[1, 2], robots=[None, None, None, "greedy"])  # seat 3 is not a robot's
        assert e.value.code == ErrorCode.BAD_ROOM_OPTIONS
        st = await c.create("mahjong", bots=[1, 2, 3], robots=[None, "greedy", "bdi-rearrange"], clock_ms=30_000)
        assert st.seats[1:] == ["greedy (robot)", "bdi-rearrange (robot)", "bdi-hudist (robot)"]


def test_a_robot_seat_is_asked_as_its_own_robot() -> None:
    d = Driver.new("mahjong", seed=3, bots=[1, 2, 3], robots=[None, "greedy", None, "bdi-rearrange"])
    d.join("ann")
    rng = random.Random(4)
    for _ in range(200):
        if not d.answer_robots(rng) and not d.random_answer("ann", rng):
            break
    by_seat = {r.seat: r.robot for r in d.published}
    assert by_seat == {1: "greedy", 2: "random", 3: "bdi-rearrange"}  # seat 2: the room's robot
