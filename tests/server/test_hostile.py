"""A hostile client: garbage, truncated, oversized and misdirected frames, illegal and
out-of-turn actions, retries and floods each get an ERROR (or an ACK for a true retry);
the others in the room notice nothing, and the server keeps serving."""

from __future__ import annotations

import asyncio
import json
import random
import urllib.request

import msgpack
import pytest

from paiju.client import Client, ServerError
from paiju.protocol import (
    Ack,
    Action,
    CreateRoom,
    Error,
    ErrorCode,
    Event,
    Frame,
    Hello,
    Join,
    Leave,
    Ping,
    Pong,
    Prompt,
    Result,
    RoomEvent,
    Welcome,
    encode,
)

from .conftest import Served


async def answer(c: Client, data: bytes | str) -> Frame:
    """Send raw bytes; the next ERROR/ACK/PONG/WELCOME this connection receives."""
    while not c.frames.empty():  # what came before is not the answer
        c.frames.get_nowait()
    await c.send_raw(data)
    async with asyncio.timeout(5):
        while True:
            f = await c.recv()
            if isinstance(f, (Error, Ack, Pong, Welcome)):
                return f


async def expect_error(c: Client, data: bytes | str, code: int) -> None:
    f = await answer(c, data)
    assert isinstance(f, Error) and f.code == code, f"{data[:40]!r}: got {f}"


async def my_prompt(c: Client) -> Prompt:
    async with asyncio.timeout(10):
        while not c.prompts:
            await c.recv()
    return next(iter(c.prompts.values()))


async def test_hostile_client(served: Served) -> None:
    rng = random.Random(3)
    host = await Client.connect(served.url, "host", record=True)  # seat 0, honest
    eve = await Client.connect(served.url, "eve", record=True)  # watches, honest
    bad = await Client.connect(served.url, "mallory", record=True)  # seat 1
    try:
        st = await host.create("tricks", seed=4, clock_ms=60_000)
        await eve.watch(st.room)
        await bad.join(st.room, 1)
        # the deal's events reach everyone before the first prompt; a PING round trip makes sure
        # the watcher has them too, so that what follows the mark is only this test's doing
        await my_prompt(host)
        await eve.ping()
        mark = (len(host.log), len(eve.log))

        # the wire
        await expect_error(bad, b"\xc1", ErrorCode.MALFORMED)  # never valid msgpack
        await expect_error(bad, b"", ErrorCode.MALFORMED)
        await expect_error(bad, encode(Ping(5))[:-1], ErrorCode.MALFORMED)  # truncated
        await expect_error(bad, encode(Ping(5)) + b"\x00", ErrorCode.TRAILING_BYTES)
        await expect_error(bad, "text, not binary", ErrorCode.MALFORMED)
        await expect_error(bad, msgpack.packb([99, 1]), ErrorCode.UNKNOWN_FRAME)
        await expect_error(bad, msgpack.packb({"a": 1}), ErrorCode.MALFORMED)
        await expect_error(bad, msgpack.packb([0x08, "x"]), ErrorCode.BAD_FIELD)
        await expect_error(bad, msgpack.packb([0x07, 1, 0, b"\xff"]), ErrorCode.BAD_CARD)
        await expect_error(bad, msgpack.packb([0x08, 1, b"x" * 70_000]), ErrorCode.TOO_LARGE)  # oversized
        await expect_error(bad, encode(Welcome("x", "y")), ErrorCode.WRONG_DIRECTION)
        await expect_error(bad, encode(Hello(1, "again")), ErrorCode.WRONG_STATE)

        # the lobby
        await expect_error(bad, encode(Join("nope", 0)), ErrorCode.NO_SUCH_ROOM)
        await expect_error(bad, encode(Join(st.room, 0)), ErrorCode.ALREADY_IN_ROOM)
        await expect_error(bad, encode(Leave("elsewhere")), ErrorCode.NOT_IN_ROOM)
        await expect_error(bad, encode(CreateRoom("tricks")), ErrorCode.ALREADY_IN_ROOM)

        # the game: host (seat 0) leads first in hand 0
        p = await my_prompt(host)
        # someone else's prompt (mallory has none pending: not her turn)
        await expect_error(bad, encode(Action(p.prompt_id, 0, p.options[0].cards[:1])), ErrorCode.NOT_YOUR_TURN)
        await expect_error(bad, encode(Action(12345, 0, b"")), ErrorCode.NOT_YOUR_TURN)
        card = p.options[0].cards[:1]
        with pytest.raises(ServerError) as e:
            await host.act(p, 3, card)
        assert e.value.code == ErrorCode.ILLEGAL_ACTION
        with pytest.raises(ServerError) as e:
            await host.act(p, 0, bytes([0x21]) if card != b"\x21" else b"\x22")
        assert e.value.code in (ErrorCode.ILLEGAL_CARDS, ErrorCode.NOT_YOUR_TURN) or e.value.code >= 300
        await host.act(p, 0, card)
        await host.act(p, 0, card)  # a retry of the same answer: acknowledged again ...
        with pytest.raises(ServerError) as e:
            await host.act(p, 0, p.options[0].cards[1:2])  # ... but another answer is refused
        assert e.value.code == ErrorCode.NO_SUCH_PROMPT
        echoes = [f for f in eve.log if isinstance(f, Event) and f.code == 0x20 and f.seat == 0]
        await eve.ping()
        echoes = [f for f in eve.log if isinstance(f, Event) and f.code == 0x20 and f.seat == 0]
        assert len(echoes) == 1, "the retried action was applied once"

        # a flood: every frame is answered (PONG within the rate, RATE_LIMITED beyond)
        n = 600
        for i in range(n):
            await bad.send(Ping(i))
        got: list[Frame] = []
        async with asyncio.timeout(20):
            while len(got) < n:
                f = await bad.recv()
                if isinstance(f, (Pong, Error)):
                    got.append(f)
        limited = sum(isinstance(f, Error) and f.code == ErrorCode.RATE_LIMITED for f in got)
        assert limited > 0 and sum(isinstance(f, Pong) for f in got) > 0
        await asyncio.sleep(1.5)  # the bucket refills

        # the others noticed nothing: no ERROR, and only the one echo of the host's card
        for c, m in zip((host, eve), mark, strict=True):
            extra = [f for f in c.log[m:] if isinstance(f, Error) and c is eve]
            assert not extra
            room_noise = [f for f in c.log[m:] if isinstance(f, Event) and f.code < 0x20 and f.code != RoomEvent.SEAT]
            assert not room_noise
        # and the game goes on to its end with mallory playing properly
        bad_task = asyncio.create_task(bad.play(rng, timeout=30))
        results = await host.play(rng, timeout=30)
        await bad_task
        assert results[-1].final
        async with asyncio.timeout(10):
            while not any(isinstance(f, Result) and f.final for f in eve.log):
                await eve.recv()
        print(f"hostile: {len(got)} flood frames answered, {limited} rate-limited; the hand completed")
    finally:
        for c in (host, eve, bad):
            await c.close()
    # the server keeps serving
    with urllib.request.urlopen(served.http + "/healthz", timeout=5) as r:
        assert json.load(r)["ok"] is True
    fresh = await Client.connect(served.url, "fresh")
    try:
        await fresh.ping()
    finally:
        await fresh.close()


async def test_frames_before_hello_and_huge_messages(served: Served) -> None:
    c = await Client.connect(served.url, "early", hello=False)
    try:
        await expect_error(c, encode(Ping(1)), ErrorCode.HELLO_FIRST)
        await expect_error(c, encode(Hello(2, "v")), ErrorCode.BAD_VERSION)
        await c.hello()
        # beyond the transport limit (2 x 64 KiB) the connection is closed with 1009
        await c.send_raw(b"\x00" * (200 * 1024))
        async with asyncio.timeout(5):
            await c.ws.wait_closed()
        assert c.ws.close_code == 1009
    finally:
        await c.close()
