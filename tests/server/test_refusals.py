"""Every ERROR names the frame it answers: a refused QUICK_PLAY is answered (and so raised by
the client at once, not after a 10 s wait for an answer that never comes) with its type.
In-process: the lobby's core (tests/server/lobbykit.py)."""

from __future__ import annotations

from paiju.core.config import Limits
from paiju.protocol import CreateRoom, Error, ErrorCode, QuickPlay

from .lobbykit import Kit


def test_refused_quickplay_names_quickplay() -> None:
    k = Kit(limits=Limits(max_rooms=1))
    k.hello(1, "ann")
    k.hello(2, "bob")
    k.send(1, CreateRoom("bridge", clock_ms=60_000))  # the server's one room, waiting
    (err,) = k.send(2, QuickPlay("tricks"))
    assert isinstance(err, Error) and (err.code, err.ref_type) == (ErrorCode.ROOM_FULL, QuickPlay.TYPE)
