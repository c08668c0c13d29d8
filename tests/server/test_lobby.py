"""The lobby: list, create (public and private), join, watch, leave, quick play; the HTTP side."""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request

import pytest

from client import Client, ServerError
from protocol import ErrorCode, Event, RoomEvent, SeatKind

from .conftest import Served


async def test_create_list_join_leave(served: Served) -> None:
    a = await Client.connect(served.url, "ann")
    b = await Client.connect(served.url, "bob")
    c = await Client.connect(served.url, "cy")
    try:
        pub = await a.create("tricks", clock_ms=60_000)
        with pytest.raises(ServerError) as e:
            await b.create("tricks", private=True, bots=[5])  # no game has a seat 5: the frame is bad
        assert e.value.code == ErrorCode.BAD_FIELD
        with pytest.raises(ServerError) as e:
            await b.create("tricks", private=True, bots=[3])  # tricks has two seats
        assert e.value.code == ErrorCode.BAD_ROOM_OPTIONS
        for bad in ({"hands": 0}, {"clock_ms": 1}, {"robot": "nobody"}, {"ruleset": "nope"}):
            with pytest.raises(ServerError) as e:
                await b.create("tricks", **bad)  # type: ignore[arg-type]
            assert e.value.code == ErrorCode.BAD_ROOM_OPTIONS, bad
        with pytest.raises(ServerError):
            await b.create("chess")
        priv = await b.create("tricks", private=True, clock_ms=60_000)
        listed = {r.room: r for r in await c.list_rooms("tricks")}
        assert pub.room in listed and priv.room not in listed
        assert listed[pub.room].seats[0] == "ann" and listed[pub.room].status == "waiting"
        assert not await c.list_rooms("no-such-game")
        with pytest.raises(ServerError) as e:
            await c.join(pub.room, 0)
        assert e.value.code == ErrorCode.SEAT_TAKEN
        await c.watch(priv.room)  # a private room is joined by its id
        with pytest.raises(ServerError) as e:
            await c.join(pub.room, 1)
        assert e.value.code == ErrorCode.ALREADY_IN_ROOM
        await c.leave()
        st = await c.join(pub.room, 1)
        assert st.seat == 1
        async with asyncio.timeout(5):  # both seats taken: the hand starts
            while not any(isinstance(f, Event) and f.code == RoomEvent.HAND_START for f in [await a.recv()]):
                pass
        await c.leave()  # leaving mid-match: a robot takes the seat
        async with asyncio.timeout(5):
            while True:
                f = await a.recv()
                if isinstance(f, Event) and f.code == RoomEvent.SEAT and f.seat == 1:
                    assert f.arg == SeatKind.BOT
                    break
        await b.leave()  # the private room's last human goes: it closes
        await asyncio.sleep(0.1)
        with pytest.raises(ServerError) as e:
            await c.join(priv.room, 1)
        assert e.value.code == ErrorCode.NO_SUCH_ROOM
    finally:
        for x in (a, b, c):
            await x.close()


async def test_quickplay_waits_then_fills_with_robots(served: Served) -> None:
    a = await Client.connect(served.url, "ann", record=True)
    b = await Client.connect(served.url, "bob", record=True)
    try:
        sa = await a.quickplay("niujiu")
        sb = await b.quickplay("niujiu")
        assert sa.room == sb.room and {sa.seat, sb.seat} == {0, 1}
        results = await asyncio.gather(a.play(timeout=60), b.play(timeout=60))  # seat 2: a robot, after the wait
        assert results[0][-1].final and results[0][-1].totals == results[1][-1].totals
        seats = [f for f in a.log if isinstance(f, Event) and f.code == RoomEvent.SEAT and f.seat == 2]
        assert seats and seats[0].arg == SeatKind.BOT
    finally:
        await a.close()
        await b.close()


def test_http_paths(served: Served) -> None:
    with urllib.request.urlopen(served.http + "/healthz", timeout=5) as r:
        health = json.load(r)
        assert r.headers["Content-Type"] == "application/json"
    assert health["ok"] and "tricks" in health["games"]
    with urllib.request.urlopen(served.http + "/", timeout=5) as r:
        assert r.headers["Content-Type"].startswith("text/html")
        assert b"<" in r.read()
    for path in ("/nope.html", "/%2e%2e/pyproject.toml", "/..%2f..%2fpyproject.toml", "/.hidden"):
        with pytest.raises(urllib.error.HTTPError) as e:
            urllib.request.urlopen(served.http + path, timeout=5)
        assert e.value.code == 404, path
