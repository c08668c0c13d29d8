"""The lobby: list, create (public and private), join, watch, leave, quick play.
In-process: the lobby's core and the tables (tests/server/lobbykit.py); the HTTP side is
tests/server/test_site.py's."""

from __future__ import annotations

import pytest

from paiju.protocol import (
    CreateRoom,
    Error,
    ErrorCode,
    Event,
    Join,
    Leave,
    ListRooms,
    ProtocolError,
    QuickPlay,
    Result,
    RoomEvent,
    RoomList,
    RoomState,
    SeatKind,
    decode,
    encode,
)

from .lobbykit import Kit


def state(frames: list[object]) -> RoomState:
    return next(f for f in frames if isinstance(f, RoomState))


def error(frames: list[object]) -> int:
    (e,) = [f for f in frames if isinstance(f, Error)]
    return e.code


def test_create_list_join_leave() -> None:
    k = Kit()
    for c, name in ((1, "ann"), (2, "bob"), (3, "cy")):
        k.hello(c, name)
    pub = state(k.send(1, CreateRoom("tricks", clock_ms=60_000)))
    with pytest.raises(ProtocolError) as e:  # no game has a seat 5: the frame is bad (the server's reader says so)
        decode(encode(CreateRoom("tricks", private=True, bots=[5])))
    assert e.value.code == ErrorCode.BAD_FIELD
    assert error(k.send(2, CreateRoom("tricks", private=True, bots=[3]))) == ErrorCode.BAD_ROOM_OPTIONS  # two seats
    for bad in ({"hands": 0}, {"clock_ms": 1}, {"robot": "nobody"}, {"ruleset": "nope"}):
        assert error(k.send(2, CreateRoom("tricks", **bad))) == ErrorCode.BAD_ROOM_OPTIONS, bad  # type: ignore[arg-type]
    assert error(k.send(2, CreateRoom("chess"))) == ErrorCode.BAD_ROOM_OPTIONS
    priv = state(k.send(2, CreateRoom("tricks", private=True, clock_ms=60_000)))
    (listed,) = k.send(3, ListRooms("tricks"))
    assert isinstance(listed, RoomList)
    rooms = {r.room: r for r in listed.rooms}
    assert pub.room in rooms and priv.room not in rooms
    assert rooms[pub.room].seats[0] == "ann" and rooms[pub.room].status == "waiting"
    assert k.send(3, ListRooms("no-such-game")) == [RoomList([])]
    assert error(k.send(3, Join(pub.room, 0))) == ErrorCode.SEAT_TAKEN
    assert state(k.send(3, Join(priv.room))).seat is None  # a private room is joined by its id: watching
    assert error(k.send(3, Join(pub.room, 1))) == ErrorCode.ALREADY_IN_ROOM
    k.send(3, Leave(priv.room))
    before = len(k.frames[1])
    assert state(k.send(3, Join(pub.room, 1))).seat == 1
    # both seats taken: the hand starts
    assert any(isinstance(f, Event) and f.code == RoomEvent.HAND_START for f in k.frames[1][before:])
    before = len(k.frames[1])
    k.send(3, Leave(pub.room))  # leaving mid-match: a robot takes the seat
    seat = [f for f in k.frames[1][before:] if isinstance(f, Event) and f.code == RoomEvent.SEAT and f.seat == 1]
    assert seat and seat[0].arg == SeatKind.BOT
    k.send(2, Leave(priv.room))  # the private room's last human goes: it closes
    assert error(k.send(3, Join(priv.room, 1))) == ErrorCode.NO_SUCH_ROOM


def test_quickplay_waits_then_fills_with_robots() -> None:
    k = Kit()
    k.hello(1, "ann")
    k.hello(2, "bob")
    sa = state(k.send(1, QuickPlay("niujiu")))
    sb = state(k.send(2, QuickPlay("niujiu")))
    assert sa.room == sb.room and {sa.seat, sb.seat} == {0, 1}
    k.play(1, 2)  # seat 2: a robot, after the wait
    ra, rb = ([f for f in k.frames[c] if isinstance(f, Result)] for c in (1, 2))
    assert ra[-1].final and ra[-1].totals == rb[-1].totals
    seats = [f for f in k.frames[1] if isinstance(f, Event) and f.code == RoomEvent.SEAT and f.seat == 2]
    assert seats and seats[0].arg == SeatKind.BOT
