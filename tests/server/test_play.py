"""A player creates a room of each game with the other seats robots and plays whole hands
with random legal moves until the final RESULT; a spectator watches a robots-only match.
In-process: the lobby's core and the tables (tests/server/lobbykit.py); the robots answer
with random legal options at once (the real robots play through a server in
tests/server/test_default_robot.py and tests/bots)."""

from __future__ import annotations

import random

import pytest

from paiju import games
from paiju.protocol import CreateRoom, Event, Prompt, Result, RoomEvent, RoomState

from .lobbykit import Kit


@pytest.mark.parametrize("game", games.names())
def test_play_against_bots_until_result(game: str) -> None:
    n = games.create(game, 0).num_seats
    k = Kit()
    k.hello(1, "ann")
    got = k.send(1, CreateRoom(game, bots=list(range(1, n)), hands=2, clock_ms=5000, seed=11))
    st = next(f for f in got if isinstance(f, RoomState))
    assert st.seat == 0 and st.game == game and len(st.seats) == n
    k.play(1, rng=random.Random(5))
    log = k.frames[1]
    results = [f for f in log if isinstance(f, Result)]
    assert [r.hand for r in results] == [0, 1] and results[-1].final
    assert results[-1].totals == [a + b for a, b in zip(results[0].scores, results[1].scores, strict=True)]
    events = [f for f in log if isinstance(f, Event)]
    assert [e.seq for e in events] == list(range(events[0].seq, events[0].seq + len(events)))
    starts = [e for e in events if e.code == RoomEvent.HAND_START]
    assert [e.arg for e in starts] == [0, 1]
    assert starts[0].seat != starts[1].seat  # the dealer rotates
    assert any(e.code == RoomEvent.MATCH_END for e in events)
    assert any(isinstance(f, Prompt) for f in log)


@pytest.mark.parametrize("game", games.names())
def test_spectator_watches_robots(game: str) -> None:
    n = games.create(game, 0).num_seats
    k = Kit()
    k.hello(1, "watcher")
    got = k.send(1, CreateRoom(game, bots=list(range(n)), hands=1, seed=3))
    st = next(f for f in got if isinstance(f, RoomState))
    assert st.seat is None  # every seat is a robot's: the creator watches
    k.run_clock(lambda: any(isinstance(f, Result) and f.final for f in k.frames[1]))
    results = [f for f in k.frames[1] if isinstance(f, Result)]
    assert len(results) == 1 and results[0].final
    assert not any(isinstance(f, Prompt) for f in k.frames[1])
