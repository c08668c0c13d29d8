"""Batches (SPEC.md §1, HELLO's Feature.BATCH): what one action sends a connection is one
WebSocket message; a client that does not ask gets one frame a message; and the frames are
the same either way."""

from __future__ import annotations

import asyncio
import dataclasses
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.asyncio.client import ClientConnection, connect

from paiju.client import Client
from paiju.protocol import (
    VERSION,
    Ack,
    Action,
    CreateRoom,
    Event,
    Feature,
    Frame,
    Hello,
    Join,
    Prompt,
    Result,
    RoomEvent,
    RoomState,
    Welcome,
    decode,
    decode_all,
    encode,
)

from .conftest import Served


async def message(ws: ClientConnection, timeout: float = 10) -> list[Frame]:
    """The frames of the next message."""
    data = await asyncio.wait_for(ws.recv(), timeout)
    assert isinstance(data, bytes)
    return decode_all(data)


async def test_one_message_an_action_to_each_player(served: Served) -> None:
    """A two-player match with batches: each action reaches the mover as one message (its
    ACK, the echo, a TRICK) and the other player as one (the echo, its PROMPT); the last
    one's RESULT may come in a message of its own, after the hand's record."""
    async with connect(served.url, compression=None) as a, connect(served.url, compression=None) as b:
        for ws, name in ((a, "ann"), (b, "bob")):
            await ws.send(encode(Hello(VERSION, name, features=Feature.BATCH)))
            (w,) = await message(ws)
            assert isinstance(w, Welcome) and w.features == Feature.BATCH
        await a.send(encode(CreateRoom("tricks", None, 1, 60_000, [], None, True, seed=5)))
        created = await message(a)  # the room's ROOM_STATE first (SPEC: nothing of it before)
        st_a = created[0]
        assert isinstance(st_a, RoomState) and all(not isinstance(f, Event) for f in created)
        await b.send(encode(Join(st_a.room, 1)))
        # the match starts at once: bob's ROOM_STATE and the deal; the deal and the first PROMPT
        pending = {1: await message(b), 0: await message(a)}
        conns = {0: a, 1: b}
        over = False
        actions = 0
        while not over:
            prompts = [
                (s, f) for s, fs in pending.items() for f in fs if isinstance(f, Prompt) and f.mask and f.options
            ]
            ((mover, p),) = prompts
            o = p.options[0]
            await conns[mover].send(encode(Action(p.prompt_id, o.code, o.cards[: o.pick])))
            actions += 1
            mine, theirs = await message(conns[mover]), await message(conns[1 - mover])
            if actions == 16:  # the last card: the RESULT waits for the hand's record, which may
                # take longer than the mover's ACK and echo linger (a busy machine): a message more
                while not any(isinstance(f, Event) and f.code == RoomEvent.MATCH_END for f in mine):
                    mine += await message(conns[mover])
                while not any(isinstance(f, Result) and f.final for f in theirs):
                    theirs += await message(conns[1 - mover])
            assert any(isinstance(f, Ack) and f.prompt_id == p.prompt_id for f in mine), mine
            echo = [f for f in mine if isinstance(f, Event) and f.code == 0x20]
            assert echo and echo == [f for f in theirs if isinstance(f, Event) and f.code == 0x20]
            over = any(isinstance(f, Event) and f.code == RoomEvent.MATCH_END for f in mine)
            if over:
                assert any(isinstance(f, Result) and f.final for f in theirs)
            else:  # the next prompt is in the one message of whoever moves next
                assert sum(isinstance(f, Prompt) and f.mask > 0 for f in mine + theirs) == 1
            pending = {mover: mine, 1 - mover: theirs}
        assert actions == 16  # a hand of the default order 8: every card played
        for ws in (a, b):  # nothing else came: each action was one message to each
            assert not await _has(ws)


async def _has(ws: ClientConnection, wait: float = 0.3) -> bool:
    """Whether a message comes within ``wait`` seconds (it is then lost: only for checks)."""
    try:
        await asyncio.wait_for(ws.recv(), wait)
    except TimeoutError:
        return False
    return True


async def test_a_client_that_does_not_ask_gets_one_frame_a_message(served: Served) -> None:
    c = await Client.connect(served.url, "plain", record=True, batch=False)
    try:
        await c.create("tricks", bots=[1], hands=1, seed=3)
        await c.play(random.Random(1), timeout=60)
        await asyncio.sleep(0.1)
    finally:
        await c.close()
    assert isinstance(c.log[0], Welcome) and c.log[0].features == 0
    assert c.messages == len(c.log) > 20  # and each was decoded by decode(): one frame, nothing after
    async with connect(served.url, compression=None) as ws:
        await ws.send(encode(Hello(VERSION, "raw")))
        w = decode(await ws.recv())  # type: ignore[arg-type]
        assert isinstance(w, Welcome) and w.features == 0


# ------------------------------------------------------------------ same frames either way
EXTRAS = {
    "value",
    "leader",
    "par",
}  # paiju serve's extras (paiju/bots/tricks/analysis.py, paiju/bots/bridge/analysis.py)


def _normal(f: Frame) -> Frame | None:
    """``f`` without what differs between two runs of one seeded game: the room's id, the
    clock's readings, the player's id and token, what a process works out from the deal, the
    match's salt (random: its commitment too)."""
    if isinstance(f, Welcome):
        return None
    if isinstance(f, Prompt):
        return dataclasses.replace(f, room="R", ms_left=0, bank_ms=0)
    if isinstance(f, Result):  # the solver's figures join a RESULT only when ready in time (paiju/server/room.py)
        detail = {k: v for k, v in f.detail.items() if k not in EXTRAS}
        return dataclasses.replace(f, room="R", detail=detail, salt="")
    if isinstance(f, RoomState):
        return dataclasses.replace(f, room="R", commitment="")
    if isinstance(f, Event):
        return dataclasses.replace(f, room="R")
    return f


async def _match(url: str, game: str, seats: int, seed: int, batch: bool) -> list[list[Frame]]:
    """Every seat a client of ours (batches asked or not), one hand of ``game`` dealt from
    ``seed``, each choosing with a generator seeded by the seat and prompt id: the frames
    each received, normalised."""
    clients = [await Client.connect(url, f"p{s}", record=True, batch=batch) for s in range(seats)]
    try:
        st0 = await clients[0].create(game, hands=1, clock_ms=60_000, seed=seed, private=True)
        for s in range(1, seats):
            await clients[s].join(st0.room, s)

        async def player(c: Client, seat: int) -> None:
            async with asyncio.timeout(60):
                async for f in c:
                    if isinstance(f, Prompt) and f.mask and f.prompt_id in c.prompts:
                        rng = random.Random(seed * 1000 + seat * 100 + f.prompt_id)
                        o = rng.choice(f.options)
                        await c.send(Action(f.prompt_id, o.code, bytes(rng.sample(list(o.cards), o.pick))))
                    elif isinstance(f, Event) and f.code == RoomEvent.MATCH_END:
                        return

        await asyncio.gather(*(player(c, s) for s, c in enumerate(clients)))
    finally:
        for c in clients:
            await c.close()
    return [[n for f in c.log if (n := _normal(f)) is not None] for c in clients]


@settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck))
@given(game=st.sampled_from([("tricks", 2), ("niujiu", 3)]), seed=st.integers(0, 2**31))
def test_batched_and_single_frames_decode_to_the_same_sequence(
    served: Served, game: tuple[str, int], seed: int
) -> None:
    """One seeded match played twice, the same choices, batches asked for or not: every seat
    receives the same frames (in far fewer messages with batches)."""
    name, seats = game
    batched = asyncio.run(_match(served.url, name, seats, seed, True))
    single = asyncio.run(_match(served.url, name, seats, seed, False))
    assert batched == single
    assert all(any(isinstance(f, Result) and f.final for f in frames) for frames in batched)


@pytest.mark.parametrize("batch", [True, False])
async def test_the_client_library_counts_messages(served: Served, batch: bool) -> None:
    c = await Client.connect(served.url, "counted", record=True, batch=batch)
    try:
        await c.create("tricks", bots=[1], hands=1, seed=9)
        await c.play(random.Random(2), timeout=60)
    finally:
        await c.close()
    if batch:
        assert c.messages < len(c.log)
    else:
        assert c.messages == len(c.log)
