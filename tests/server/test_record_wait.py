"""How long a hand's RESULT waits for its record (paiju/server/room.py's ``_Recorded``: the
records' done-callbacks and one timer, no task): until every record is committed; a database
that is down holds it ``RECORD_WAIT``; a writer that is still writing, slowly, on past it, up to
``RECORD_CAP``; a room that stops sends nothing. The bounds are shortened here, and the room is
reduced to what the wait reads of it (also in the compiled build, whose classes take only
their own types)."""

from __future__ import annotations

import asyncio
import time
from typing import Any, cast

from paiju.server.room import LogReader, _Recorded


class Follower:
    """What the wait reads of the room's follower: whether the records are being written."""

    def __init__(self, writing: bool) -> None:
        self.writing_now = writing

    def writing(self, within: float) -> bool:
        return self.writing_now


def recorded(records: list[asyncio.Future[bool]], then: Waited, writing: bool = False) -> _Recorded:
    """The wait of room r1's frames for ``records``, with bounds of 0.1 s (RECORD_WAIT) and
    0.35 s (RECORD_CAP)."""
    return _Recorded("r1", "tricks", cast(LogReader, Follower(writing)), records, then, wait=0.1, cap=0.35)


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


async def test_the_frames_go_once_every_record_is_committed() -> None:
    loop = asyncio.get_running_loop()
    records: list[asyncio.Future[bool]] = [loop.create_future(), loop.create_future()]
    done = Waited()
    wait = recorded(records, done)
    records[0].set_result(True)
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    assert done.at == []  # one record is still being written
    records[1].set_result(False)  # (given up by the database: the frames go all the same)
    await done.called()
    assert len(done.at) == 1 and wait.timer.cancelled()  # once: the timer went with the wait


async def test_a_database_that_is_down_holds_them_record_wait() -> None:
    never: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
    done = Waited()
    recorded([never], done)
    assert await done.called() >= 0.09  # RECORD_WAIT (the loop may ring a hair early)
    never.set_result(True)  # late: nothing goes twice
    await asyncio.sleep(0.05)
    assert len(done.at) == 1


async def test_a_slow_writer_holds_them_on_up_to_record_cap() -> None:
    never: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
    done = Waited()
    recorded([never], done, writing=True)
    assert await done.called() >= 0.34  # past RECORD_WAIT (the writer writes: it comes), up to RECORD_CAP


async def test_a_room_that_stops_sends_nothing() -> None:
    loop = asyncio.get_running_loop()
    record: asyncio.Future[bool] = loop.create_future()
    done = Waited()
    wait = recorded([record], done)
    wait.cancel()
    record.set_result(True)
    await asyncio.sleep(0.05)
    assert done.at == [] and wait.timer.cancelled() and not record.cancelled()  # (a record is never cancelled)
