"""A full room whose robots no worker serves yet waits for one (ROOM_STATE's ``waiting`` says
why), starts when the worker comes, and closes with ERROR ROBOTS_UNAVAILABLE when the bound
passes first; driven through the room core with a roster the test fills (the Redis side:
tests/redis/test_late_robots.py)."""

from __future__ import annotations

from paiju.core.config import Limits
from paiju.core.lifecycle import Phase
from paiju.core.table import SwapSeat
from paiju.protocol import Error, ErrorCode, Event, Prompt, RoomEvent, RoomState

from .tablekit import Driver

LIMITS = Limits(hand_pause=0.0, grace=5.0, quickplay_wait=1.0, rematch_wait=0.0, robot_wait=10.0)


class Roster:
    """The robots a worker serves, as the test says."""

    def __init__(self) -> None:
        self.served: set[str] = set()

    def serves(self, game: str, robot: str) -> bool:
        return f"{game}/{robot}" in self.served


def held_room(roster: Roster) -> Driver:
    d = Driver.new("tricks", bots=[1], limits=LIMITS, roster=roster)
    d.join("ann")
    d.join("eve", None)  # a spectator
    return d


def test_a_full_room_waits_for_its_robots_worker_then_plays() -> None:
    roster = Roster()
    d = held_room(roster)
    assert d.table.phase is Phase.WAITING
    held = d.frames("ann", RoomState)[-1]
    assert held.waiting == "waiting for a worker that serves tricks/random (up to 10 s)"
    assert d.frames("eve", RoomState)[-1].waiting == held.waiting
    assert not d.published and not d.frames("ann", Prompt)
    d.tick(5.0)  # still nobody: it waits on, within its bound
    assert d.table.phase is Phase.WAITING and not d.closed
    roster.served.add("tricks/random")
    d.tick(0.3)
    assert d.table.phase is Phase.PLAYING
    assert [s.waiting for s in d.frames("ann", RoomState)][-1] == ""  # told it is not held any more
    assert RoomEvent.HAND_START in [e.code for e in d.frames("eve", Event)]
    assert d.published or d.frames("ann", Prompt)
    assert not d.frames("ann", Error)


def test_the_bound_passes_the_room_closes_with_robots_unavailable() -> None:
    d = held_room(Roster())
    d.run_clock()
    assert d.closed and d.table.phase is Phase.OVER
    for pid in ("ann", "eve"):
        [err] = d.frames(pid, Error)
        assert (err.code, err.ref_type) == (ErrorCode.ROBOTS_UNAVAILABLE, None)
        assert "no worker served tricks/random within 10 s" in err.message
    assert 10.0 <= d.now < 10.5  # closed at its bound, not at the waiting room's 300 s expiry
    assert not d.published


def test_a_seat_freed_while_held_ends_the_wait() -> None:
    d = Driver.new("tricks", limits=LIMITS, roster=Roster())
    d.join("ann")
    conn = d.people["ann"].conn
    d.feed(SwapSeat("ann", conn, 1, True))  # the creator gives the last seat to a robot
    assert d.frames("ann", RoomState)[-1].waiting.startswith("waiting for a worker")
    d.feed(SwapSeat("ann", conn, 1, False))  # and takes it back: the room waits for a player
    d.tick(0.3)
    assert d.table.phase is Phase.WAITING and d.frames("ann", RoomState)[-1].waiting == ""
    assert d.table.next_deadline() == d.now + LIMITS.waiting_expiry  # the waiting room's own bound again
    d.run_clock()
    assert [e.code for e in d.frames("ann", Error)] == [ErrorCode.ROOM_EXPIRED]


def test_no_bound_no_wait() -> None:
    """``robot_wait`` 0: the match starts at once (the clock plays an unserved robot seat)."""
    limits = Limits(hand_pause=0.0, rematch_wait=0.0, robot_wait=0.0)
    d = Driver.new("tricks", bots=[1], limits=limits, roster=Roster())
    d.join("ann")
    assert d.table.phase is Phase.PLAYING and d.frames("ann", RoomState)[-1].waiting == ""
