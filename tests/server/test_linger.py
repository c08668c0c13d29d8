"""Bounded batching (``paiju serve --linger-ms``): frames that ask nothing of their reader
(an ACK, events) wait for company up to the linger; a prompt leaves at once."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import pytest
from websockets.asyncio.client import ClientConnection, connect

from paiju.protocol import (
    VERSION,
    Ack,
    Action,
    CreateRoom,
    Frame,
    Hello,
    Join,
    Prompt,
    RoomState,
    Welcome,
    decode,
    encode,
)

from .conftest import TEST_OPTIONS, Served, serving

LINGER = 1.0  # seconds: long enough to tell from scheduling noise on a busy machine


@pytest.fixture(scope="module")
def lingering() -> Iterator[Served]:
    yield from serving(*TEST_OPTIONS, "--linger-ms", str(int(LINGER * 1000)))


async def until(ws: ClientConnection, want: type[Frame], timeout: float = 20) -> tuple[Frame, float]:
    """The next frame of type ``want`` and when it was read."""
    async with asyncio.timeout(timeout):
        while True:
            f = decode(await ws.recv())  # type: ignore[arg-type]
            if isinstance(f, want):
                return f, time.monotonic()


async def test_the_next_prompt_leaves_at_once_and_the_ack_waits_for_company(lingering: Served) -> None:
    async with connect(lingering.url, compression=None) as a, connect(lingering.url, compression=None) as b:
        for ws, name in ((a, "ann"), (b, "bob")):
            await ws.send(encode(Hello(VERSION, name)))
            await until(ws, Welcome)
        await a.send(encode(CreateRoom("tricks", None, 1, 60_000, [], None, True)))
        st, _ = await until(a, RoomState)
        assert isinstance(st, RoomState)
        await b.send(encode(Join(st.room, 1)))
        await until(b, RoomState)
        first, _ = await until(a, Prompt)  # seat 0 leads
        assert isinstance(first, Prompt) and first.mask
        o = first.options[0]
        sent = time.monotonic()
        await a.send(encode(Action(first.prompt_id, o.code, o.cards[: o.pick])))
        answer = asyncio.ensure_future(until(b, Prompt))  # seat 1 follows: its prompt must not wait
        ack, acked = await until(a, Ack)
        p, prompted = await answer
        assert isinstance(ack, Ack) and ack.prompt_id == first.prompt_id
        assert isinstance(p, Prompt) and p.mask
        # Without the linger, the ACK is written in the very turn that writes the prompt
        # (before it: it was queued first); with it, it waits for company or the linger.
        assert acked - prompted > LINGER / 2, (acked - sent, prompted - sent)
        assert acked - sent < LINGER + 5  # bounded: it does not wait for ever
