"""Limits per client address, so that one client cannot take the server: its open
connections, the open rooms it created and the rooms it creates a minute, each refused with
its own ERROR code naming the refused frame; and a room waiting for players closes after
``waiting_expiry`` even while its creator stays connected. In-process: the lobby's core and
the tables, the clock an input (tests/server/lobbykit.py)."""

from __future__ import annotations

from paiju.core.config import Limits
from paiju.protocol import VERSION, CreateRoom, Error, ErrorCode, Hello, Leave, QuickPlay, RoomState, Welcome

from .lobbykit import Kit

LIMITED = Limits(address_connections=4, address_rooms=2, address_rooms_per_minute=3, grace=1)


def refusal(frames: list[object]) -> Error:
    (e,) = [f for f in frames if isinstance(f, Error)]
    return e


def test_connections_per_address() -> None:
    k = Kit(limits=LIMITED)
    for c in range(4):
        k.hello(c, f"c{c}")
    k.connect(4)
    e = refusal(k.send(4, Hello(VERSION, "one-too-many")))
    assert (e.code, e.ref_type) == (ErrorCode.TOO_MANY_CONNECTIONS, Hello.TYPE)
    assert k.closed[4][0] == 1013  # closed after the ERROR
    k.drop(4)
    k.drop(3)
    k.connect(5)  # a freed place is free
    assert isinstance(k.send(5, Hello(VERSION, "in-again"))[0], Welcome)


def test_rooms_held_and_created_per_minute() -> None:
    k = Kit(limits=LIMITED)
    for c, name in ((1, "a"), (2, "b"), (3, "c")):
        k.hello(c, name)
    ra = next(f for f in k.send(1, CreateRoom("bridge", clock_ms=60_000)) if isinstance(f, RoomState))
    k.send(2, CreateRoom("bridge", clock_ms=60_000))  # two open rooms from this address: its bound
    e = refusal(k.send(3, CreateRoom("bridge", clock_ms=60_000)))
    assert (e.code, e.ref_type) == (ErrorCode.TOO_MANY_ROOMS, CreateRoom.TYPE)
    e = refusal(k.send(3, QuickPlay("tricks")))  # a quick play that would open a room, likewise
    assert (e.code, e.ref_type) == (ErrorCode.TOO_MANY_ROOMS, QuickPlay.TYPE)
    k.send(1, Leave(ra.room))  # a room closes: one may be created again ...
    rc = next(f for f in k.send(3, CreateRoom("bridge", clock_ms=60_000)) if isinstance(f, RoomState))
    k.send(3, Leave(rc.room))
    e = refusal(k.send(3, CreateRoom("bridge", clock_ms=60_000)))  # ... but not a fourth in the same minute
    assert e.code == ErrorCode.TOO_MANY_ROOMS and "a minute" in e.message
    k.tick(61)  # a minute later it may
    assert any(isinstance(f, RoomState) for f in k.send(3, CreateRoom("bridge", clock_ms=60_000)))


def test_a_waiting_room_expires_while_its_creator_stays() -> None:
    k = Kit(limits=Limits(waiting_expiry=1))
    k.hello(1, "ann")
    k.send(1, CreateRoom("bridge", clock_ms=60_000))  # three seats stay empty
    assert len(k.lobby.rooms) == 1
    k.tick(0.9)
    assert not any(isinstance(f, Error) for f in k.frames[1])
    k.tick(0.2)
    e = refusal(k.frames[1])
    assert (e.code, e.ref_type) == (ErrorCode.ROOM_EXPIRED, None) and not k.lobby.rooms
    assert any(isinstance(f, RoomState) for f in k.send(1, CreateRoom("tricks", clock_ms=60_000)))  # free again
