"""Drop and resume: a player's connection dies mid-hand, a robot (or the clock) keeps the
game going, the player comes back with its token and the last sequence number it saw,
receives every missed event exactly once and in order, then finishes the hand."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
import urllib.request
from collections.abc import Iterator

import pytest

from paiju.cli import eventloop
from paiju.client import Client, ServerError
from paiju.protocol import ErrorCode, Event, Prompt, Result, RoomEvent, RoomState, SeatKind, Welcome

from .conftest import TEST_OPTIONS, Served, start_server, stop_server


def events(c: Client) -> list[Event]:
    return [f for f in c.log if isinstance(f, Event)]


def same_event(mine: Event, public: Event) -> bool:
    """``mine`` (as a seat sees it) matches the spectator's copy, cards aside where hidden."""
    if (mine.seq, mine.code, mine.seat, mine.arg) != (public.seq, public.code, public.seat, public.arg):
        return False
    return mine.cards == public.cards or set(public.cards) <= {0}


async def play_some(c: Client, actions: int, rng: random.Random) -> None:
    async with asyncio.timeout(20):
        while actions > 0:
            f = await c.recv()
            if isinstance(f, Prompt) and f.prompt_id in c.prompts:
                await c.act_random(f, rng)
                actions -= 1


async def check_resume(url: str, away: float, *, opponent_pace: float) -> tuple[int, int, set[int]]:
    """Ann (seat 0) plays tricks against Bob (seat 1, a slow human) while Eve watches.
    Returns (events Ann missed, prompts Ann answered after coming back)."""
    rng = random.Random(7)
    ann = await Client.connect(url, "ann", record=True)
    bob = await Client.connect(url, "bob", record=True)
    eve = await Client.connect(url, "eve", record=True)
    try:
        st = await ann.create("tricks", seed=99, clock_ms=300, hands=1)
        await eve.watch(st.room)
        await bob.join(st.room, 1)

        async def bob_plays() -> None:
            async for f in bob:
                if isinstance(f, Prompt) and f.prompt_id in bob.prompts:
                    await asyncio.sleep(opponent_pace)
                    if f.prompt_id in bob.prompts:
                        with contextlib.suppress(ServerError):  # the clock answered first
                            await bob.act_random(f, rng)
                elif isinstance(f, Result) and f.final:
                    return

        bob_task = asyncio.create_task(bob_plays())
        await play_some(ann, 1, rng)
        before = events(ann)
        last_seq, token = ann.seq, ann.token
        await ann.abort()  # no closing handshake: the network just went away
        await asyncio.sleep(away)
        back = await Client.connect(url, "ann", token=token, last_seq=last_seq, record=True)
        assert isinstance(back.log[0], Welcome) and back.player_id == ann.player_id
        answered = 0
        async with asyncio.timeout(30):
            async for f in back:
                if isinstance(f, Prompt) and f.prompt_id in back.prompts:
                    await back.act_random(f, rng)
                    answered += 1
                elif isinstance(f, Result) and f.final:
                    break
        await asyncio.wait_for(bob_task, 30)
        for c in (back, eve):  # MATCH_END follows the final RESULT
            async with asyncio.timeout(10):
                while not any(isinstance(f, Event) and f.code == RoomEvent.MATCH_END for f in c.log):
                    await c.recv()
        after = events(back)
        assert not any(isinstance(f, RoomState) for f in back.log), "the events were buffered: no snapshot"
        mine = before + after
        seqs = [e.seq for e in mine]
        start = next(f.seq for f in ann.log if isinstance(f, RoomState))  # her arrival's SEAT is in it
        assert seqs == list(range(start + 1, start + 1 + len(seqs))), f"every event once, in order: {seqs} {last_seq}"
        public = events(eve)  # Eve came in after Ann's own SEAT event
        assert [e.seq for e in public] == seqs[seqs.index(public[0].seq) :]
        assert all(same_event(a, b) for a, b in zip(mine[-len(public) :], public, strict=True))
        marks = [e for e in after if e.code == RoomEvent.SEAT and e.seat == 0]
        assert [e.arg for e in marks] == [SeatKind.AWAY, SeatKind.HUMAN]
        missed = [e for e in after if e.seq < marks[1].seq]  # what happened while Ann was away
        kept_by = {e.code for e in missed if e.seat == 0} & {RoomEvent.ROBOT, RoomEvent.TIMEOUT}
        return len(missed), answered, kept_by
    finally:
        for c in (ann, bob, eve):
            await c.close()


# The servers of the resume and clock tests run on both event loops (paiju/cli/eventloop.py):
# uvloop, the default where it is installed, and asyncio's own.
LOOPS = [
    pytest.param("uvloop", marks=pytest.mark.skipif(not eventloop.uvloop_version(), reason="uvloop not installed")),
    "asyncio",
]


@pytest.fixture(scope="module", params=LOOPS)
def loop(request: pytest.FixtureRequest) -> str:
    kind: str = request.param
    return kind


def on_loop(loop: str, *options: str) -> Iterator[Served]:
    """A server of this module on event loop ``loop`` (its /healthz says so)."""
    s = start_server(*options, "--loop", loop)
    try:
        assert health(s, timeout=60)["loop"] == loop  # the first /healthz imports the robots' menus
        yield s
    finally:
        out = stop_server(s)
        assert "Traceback" not in out, out[-4000:]


@pytest.fixture(scope="module")
def robot_kept(loop: str) -> Iterator[Served]:
    yield from on_loop(loop, *TEST_OPTIONS)


async def test_drop_robot_plays_then_resume(robot_kept: Served) -> None:
    missed, answered, kept_by = await check_resume(robot_kept.url, away=0.6, opponent_pace=0.15)
    print(f"robot kept the seat: {missed} events missed and replayed, {answered} prompts answered after resume")
    assert missed >= 3 and answered >= 1 and kept_by == {RoomEvent.ROBOT}


@pytest.fixture(scope="module")
def clock_only(loop: str) -> Iterator[Served]:
    yield from on_loop(loop, "--hand-pause", "0", "--no-robot-on-drop", "--takeover-after", "1000", "--grace", "5")


async def test_drop_clock_plays_then_resume(clock_only: Served) -> None:
    missed, answered, kept_by = await check_resume(clock_only.url, away=1.0, opponent_pace=0.05)
    print(f"clock kept the seat: {missed} events missed and replayed, {answered} prompts answered after resume")
    assert missed >= 3 and answered >= 1 and kept_by == {RoomEvent.TIMEOUT}


async def test_resume_without_last_seq_gets_room_state(served: Served) -> None:
    a = await Client.connect(served.url, "ann")
    b = await Client.connect(served.url, "bob")
    try:
        st = await a.create("tricks", seed=5, clock_ms=60_000)
        await b.join(st.room, 1)
        token = a.token
        await a.abort()
        for last_seq in (None, 10**6):  # no position, or one the room never reached
            c = await Client.connect(served.url, "ann", token=token, last_seq=last_seq, record=True)
            async with asyncio.timeout(5):
                f = await c.recv()
                while not isinstance(f, RoomState):
                    f = await c.recv()
            assert f.room == st.room and f.seat == 0 and f.view["hand"]
            token = c.token
            await c.abort()
    finally:
        await a.close()
        await b.close()


async def test_bad_token_is_refused(served: Served) -> None:
    a = await Client.connect(served.url, "ann")
    forged = a.token[:-1] + ("0" if a.token[-1] != "0" else "1")
    await a.close()
    c = await Client.connect(served.url, "x", hello=False)
    try:
        with pytest.raises(Exception, match="201"):
            await c.hello(token=forged, last_seq=0)
        await c.hello()  # the connection carries on
        assert c.player_id
    finally:
        await c.close()


GRACE = 8  # seconds, short_grace's


@pytest.fixture(scope="module")
def short_grace(loop: str) -> Iterator[Served]:
    """A server of its own, so that /healthz counts only this module's rooms. The grace (from
    a drop) must outlast the rest of a 2-hand match and its records' commits on a busy machine
    (with 4 s the match sometimes ended after it, at a load average of 12-15)."""
    yield from on_loop(loop, "--hand-pause", "0", "--grace", str(GRACE), "--rate", "300", "--burst", "300")


def health(s: Served, timeout: float = 5) -> dict[str, object]:
    with urllib.request.urlopen(s.http + "/healthz", timeout=timeout) as r:
        body: dict[str, object] = json.loads(r.read())
        return body


async def rooms_become(s: Served, n: int, timeout: float) -> float:
    """Wait until /healthz counts ``n`` rooms; returns the seconds it took."""
    t0 = time.monotonic()
    while health(s)["rooms"] != n:
        assert time.monotonic() - t0 < timeout, f"/healthz still counts {health(s)['rooms']} rooms, not {n}"
        await asyncio.sleep(0.1)
    return time.monotonic() - t0


async def drop_until_match_end(url: str, rng: random.Random, seed: int) -> tuple[Client, Client, str, int]:
    """Ann plays one card of a 2-hand tricks match against a robot, drops, and the robot that
    takes her seat finishes the match; Eve watches until MATCH_END. Returns (ann, eve, token,
    last_seq)."""
    ann = await Client.connect(url, "ann", record=True)
    eve = await Client.connect(url, "eve", record=True)
    st = await ann.create("tricks", bots=[1], seed=seed, clock_ms=2_000, hands=2)
    await eve.watch(st.room)
    await play_some(ann, 1, rng)
    last_seq, token = ann.seq, ann.token
    await ann.abort()
    async with asyncio.timeout(10):
        while not any(isinstance(f, Event) and f.code == RoomEvent.MATCH_END for f in eve.log):
            await eve.recv()
    return ann, eve, token, last_seq


async def test_resume_after_the_match_ended(short_grace: Served) -> None:
    """The match ends while Ann is away: her resume within the grace period gets exactly the
    events she missed, the final RESULT and MATCH_END once each, in order; then the room is
    released. Without a resume the room is released when her grace period runs out."""
    rng = random.Random(11)
    url = short_grace.url
    ann, eve, token, last_seq = await drop_until_match_end(url, rng, seed=21)
    back: Client | None = None
    try:
        room = eve.room
        assert health(short_grace)["rooms"] == 1, "the ended room waits for Ann"
        assert room not in [r.room for r in await eve.list_rooms()], "an ended room is not listed"
        back = await Client.connect(url, "ann", token=token, last_seq=last_seq, record=True)
        async with asyncio.timeout(5):
            while not any(isinstance(f, Event) and f.code == RoomEvent.MATCH_END for f in back.log):
                await back.recv()
        with contextlib.suppress(TimeoutError):
            await back.recv(timeout=0.5)  # nothing may follow MATCH_END
        frames = back.log[1:]
        assert isinstance(back.log[0], Welcome) and not any(isinstance(f, RoomState) for f in frames)
        got = [f for f in frames if isinstance(f, Event)]
        assert [e.seq for e in got] == list(range(last_seq + 1, got[-1].seq + 1)), "each missed event once, in order"
        public = {e.seq: e for e in events(eve)}
        assert all(same_event(e, public[e.seq]) for e in got if e.seq in public)
        finals = [f for f in frames if isinstance(f, Result) and f.final]
        ends = [e for e in got if e.code == RoomEvent.MATCH_END]
        assert len(finals) == 1 and len(ends) == 1 and frames[-1] is ends[0]
        assert frames[-2] is finals[0] and isinstance(frames[-3], Event) and frames[-3].code == RoomEvent.HAND_END
        assert finals[0] == next(f for f in eve.log if isinstance(f, Result) and f.final)
        released = await rooms_become(short_grace, 0, timeout=3)
        print(
            f"match ended while away: {len(got)} events replayed on resume (final RESULT and MATCH_END once), "
            f"room released {released:.2f} s after the resume"
        )
        st = await back.create("tricks", bots=[1], clock_ms=2_000)  # Ann is free to play again
        assert st.room != room
        await back.leave(st.room)
        await rooms_become(short_grace, 0, timeout=3)

        # Nobody comes back: the ended room is kept for the grace period, then released.
        ann2, eve2, token2, _ = await drop_until_match_end(url, rng, seed=22)
        try:
            assert health(short_grace)["rooms"] == 1
            waited = await rooms_become(short_grace, 0, timeout=GRACE + 4)
            with pytest.raises(ServerError) as e:  # after the grace period nothing is kept: the token ended
                await Client.connect(url, "ann", token=token2, last_seq=0)
            assert e.value.code == ErrorCode.BAD_TOKEN
            print(f"no resume: the ended room released {waited:.2f} s after MATCH_END (grace {GRACE} s from the drop)")
        finally:
            for c in (ann2, eve2):
                await c.close()
    finally:
        for c in (ann, eve, back):
            if c is not None:
                await c.close()
