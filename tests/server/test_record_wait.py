"""How long a hand's RESULT waits for its record (paiju/server/room.py's ``_Recorded``: the
records' done-callbacks and one timer, no task): until every record is committed; a database
that is down holds it ``RECORD_WAIT``; a writer that is still writing, slowly, on past it, up to
``RECORD_CAP``; a room that stops sends nothing. The bounds are shortened here (they are
module constants read at each wait), and the room is reduced to what the wait reads of it."""

from __future__ import annotations

import asyncio
import time
from types import SimpleNamespace
from typing import Any, cast

import pytest

from paiju.server import room as room_module
from paiju.server.room import Room, _Recorded


def room(writing: bool = False) -> Room:
    """What the wait reads of a room: its id, its follower's writing(), its game's name."""
    follower = SimpleNamespace(writing=lambda within: writing)
    return cast(Room, SimpleNamespace(id="r1", follower=follower, table=SimpleNamespace(game_name="tricks")))


class Waited:
    """The ``then`` of a wait: when it was called, in seconds from its making."""

    def __init__(self) -> None:
        self.at: list[float] = []
        self.t0 = time.perf_counter()

    def __call__(self) -> None:
        self.at.append(time.perf_counter() - self.t0)

    async def called(self) -> float:
        """When it was called (waiting for it, however busy the machine)."""
        async with asyncio.timeout(30):
            while not self.at:
                await asyncio.sleep(0.01)
        return self.at[0]


@pytest.fixture
def short(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(room_module, "RECORD_WAIT", 0.1)
    monkeypatch.setattr(room_module, "RECORD_CAP", 0.35)


async def test_the_frames_go_once_every_record_is_committed() -> None:
    loop = asyncio.get_running_loop()
    records: list[asyncio.Future[bool]] = [loop.create_future(), loop.create_future()]
    done = Waited()
    wait = _Recorded(room(), records, done)
    records[0].set_result(True)
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    assert done.at == []  # one record is still being written
    records[1].set_result(False)  # (given up by the database: the frames go all the same)
    await done.called()
    assert len(done.at) == 1 and wait.timer.cancelled()  # once: the timer went with the wait


async def test_a_database_that_is_down_holds_them_record_wait(short: None) -> None:
    never: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
    done = Waited()
    _Recorded(room(writing=False), [never], done)
    assert await done.called() >= 0.09  # RECORD_WAIT (the loop may ring a hair early)
    never.set_result(True)  # late: nothing goes twice
    await asyncio.sleep(0.05)
    assert len(done.at) == 1


async def test_a_slow_writer_holds_them_on_up_to_record_cap(short: None) -> None:
    never: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
    done = Waited()
    _Recorded(room(writing=True), [never], done)
    assert await done.called() >= 0.34  # past RECORD_WAIT (the writer writes: it comes), up to RECORD_CAP


async def test_a_room_that_stops_sends_nothing() -> None:
    loop = asyncio.get_running_loop()
    record: asyncio.Future[bool] = loop.create_future()
    done = Waited()
    wait = _Recorded(room(), [record], done)
    wait.cancel()
    record.set_result(True)
    await asyncio.sleep(0.05)
    assert done.at == [] and wait.timer.cancelled() and not record.cancelled()  # (a record is never cancelled)
