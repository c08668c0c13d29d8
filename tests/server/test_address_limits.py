"""Limits per client address, so that one client cannot take the server: its open
connections, the open rooms it created and the rooms it creates a minute, each refused with
its own ERROR code naming the refused frame; and a room waiting for players closes after
``--waiting-expiry`` even while its creator stays connected."""

from __future__ import annotations

import asyncio
import json
import time
import urllib.request
from collections.abc import Iterator

import pytest

from client import Client, ServerError
from protocol import CreateRoom, Error, ErrorCode, Hello, QuickPlay

from .conftest import Served, serving


@pytest.fixture(scope="module")
def limited() -> Iterator[Served]:
    yield from serving(
        "--address-connections", "4", "--address-rooms", "2", "--address-rooms-per-minute", "3", "--grace", "1"
    )


@pytest.fixture(scope="module")
def expiring() -> Iterator[Served]:
    yield from serving("--waiting-expiry", "1")


def rooms(s: Served) -> int:
    with urllib.request.urlopen(s.http + "/healthz", timeout=10) as r:
        n: int = json.load(r)["rooms"]
        return n


async def test_connections_per_address(limited: Served) -> None:
    clients = [await Client.connect(limited.url, f"c{i}") for i in range(4)]
    try:
        with pytest.raises(ServerError) as e:
            await Client.connect(limited.url, "one-too-many")
        assert e.value.code == ErrorCode.TOO_MANY_CONNECTIONS and e.value.error.ref_type == Hello.TYPE
        await clients.pop().close()
        await asyncio.sleep(0.3)  # the server notices the close
        clients.append(await Client.connect(limited.url, "in-again"))  # a freed place is free
    finally:
        for c in clients:
            await c.close()


async def test_rooms_held_and_created_per_minute(limited: Served) -> None:
    a, b, c = [await Client.connect(limited.url, n) for n in "abc"]
    try:
        await a.create("bridge", clock_ms=60_000)
        await b.create("bridge", clock_ms=60_000)  # two open rooms from this address: its bound
        with pytest.raises(ServerError) as e:
            await c.create("bridge", clock_ms=60_000)
        assert e.value.code == ErrorCode.TOO_MANY_ROOMS and e.value.error.ref_type == CreateRoom.TYPE
        with pytest.raises(ServerError) as e:
            await c.quickplay("tricks")  # a quick play that would open a room, likewise
        assert e.value.code == ErrorCode.TOO_MANY_ROOMS and e.value.error.ref_type == QuickPlay.TYPE
        await a.leave()  # a room closes: one may be created again ...
        await asyncio.sleep(0.2)
        await c.create("bridge", clock_ms=60_000)
        await c.leave()
        await asyncio.sleep(0.2)
        with pytest.raises(ServerError) as e:  # ... but not a fourth in the same minute
            await c.create("bridge", clock_ms=60_000)
        assert e.value.code == ErrorCode.TOO_MANY_ROOMS and "a minute" in e.value.error.message
    finally:
        for x in (a, b, c):
            await x.close()


async def test_a_waiting_room_expires_while_its_creator_stays(expiring: Served) -> None:
    ann = await Client.connect(expiring.url, "ann", record=True)
    try:
        before = rooms(expiring)
        await ann.create("bridge", clock_ms=60_000)  # three seats stay empty
        assert rooms(expiring) == before + 1
        t0 = time.monotonic()
        f = await ann.recv(timeout=10)
        while not isinstance(f, Error):
            f = await ann.recv(timeout=10)
        waited = time.monotonic() - t0
        assert f.code == ErrorCode.ROOM_EXPIRED and f.ref_type is None, f
        assert 0.5 < waited < 5 and rooms(expiring) == before
        await ann.create("tricks", clock_ms=60_000)  # the creator is free again
        print(f"the waiting room expired after {waited:.1f} s: {f.message}")
    finally:
        await ann.close()
