"""Every ERROR names the frame it answers: a refused QUICK_PLAY is raised by the client at
once (not a 10 s wait for an answer that never comes)."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from client import Client, ServerError
from protocol import ErrorCode, QuickPlay

from .conftest import Served, serving


@pytest.fixture(scope="module")
def one_room() -> Iterator[Served]:
    yield from serving("--max-rooms", "1")


async def test_refused_quickplay_names_quickplay(one_room: Served) -> None:
    a = await Client.connect(one_room.url, "ann")
    b = await Client.connect(one_room.url, "bob", record=True)
    try:
        await a.create("bridge", clock_ms=60_000)  # the server's one room, waiting
        t0 = time.monotonic()
        with pytest.raises(ServerError) as e:
            await b.quickplay("tricks")
        assert e.value.code == ErrorCode.ROOM_FULL and e.value.error.ref_type == QuickPlay.TYPE
        print(f"refused QUICK_PLAY raised after {time.monotonic() - t0:.2f} s: {e.value}")
    finally:
        await a.close()
        await b.close()
