"""A connection the server closes gets the server's close code, not the 1000 of a handler
that returned first: a client that floods past its strikes sees 1008 "flooding", and the
client library's Closed says so."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from paiju.client import Client, Closed
from paiju.protocol import VERSION, Hello, Ping, encode

from .conftest import Served, start_server, stop_server


@pytest.fixture(scope="module")
def strict() -> Iterator[Served]:
    s = start_server("--rate", "1", "--burst", "1")
    try:
        yield s
    finally:
        out = stop_server(s)
        assert "Traceback" not in out, out[-4000:]


@pytest.mark.parametrize("attempt", range(3))
async def test_a_flooding_client_is_closed_with_1008(strict: Served, attempt: int) -> None:
    async with connect(strict.url, compression=None) as ws:
        await ws.send(encode(Hello(VERSION, f"flood{attempt}")))
        await ws.recv()

        async def read() -> None:
            with contextlib.suppress(ConnectionClosed):
                async for _ in ws:
                    pass

        reader = asyncio.create_task(read())  # reads every answer (RATE_LIMITED) until the end
        async with asyncio.timeout(30):
            with contextlib.suppress(ConnectionClosed):
                for n in range(100_000):
                    if reader.done():
                        break
                    await ws.send(encode(Ping(n)))
                    # 500 frames a second, far past the rate of 1: flooding as fast as the socket
                    # takes it left frames unread when the server closed, and the kernel's reset
                    # could then drop the close frame (1006 once, on a loaded machine)
                    await asyncio.sleep(0.002)
            await reader
        assert ws.close_code == 1008 and "flooding" in (ws.close_reason or ""), (ws.close_code, ws.close_reason)


async def test_the_client_library_says_how_the_server_closed(strict: Served) -> None:
    """paiju.client's Closed carries the server's close code and reason (a bench that lost a
    connection says why: 1012 for a room that moved to another node, 1008 here)."""
    c = await Client.connect(strict.url, "flood-lib")
    try:
        with pytest.raises(Closed) as got:
            async with asyncio.timeout(30):
                for n in range(100_000):
                    if c.closed:
                        break
                    with contextlib.suppress(ConnectionClosed):
                        await c.send(Ping(n))
                    await asyncio.sleep(0.002)  # (paced, as above: the close frame is not reset away)
                while True:
                    await c.recv()
    finally:
        await c.close()
    assert got.value.code == 1008 and "flooding" in got.value.reason, got.value
    assert str(got.value).startswith("closed by the server: 1008 (flooding"), str(got.value)
