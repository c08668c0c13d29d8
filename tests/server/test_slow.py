"""A spectator that stops reading is disconnected with a reason ("slow consumer") once its
bounded send queue is full, instead of making the server buffer without limit; the room
plays on for the others."""

from __future__ import annotations

import asyncio
import json
import socket
import time
import urllib.request
from collections.abc import Iterator

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from paiju.client import Client
from paiju.protocol import VERSION, Hello, Join, encode

from .conftest import Served, start_server, stop_server


def connections(s: Served) -> int:
    with urllib.request.urlopen(s.http + "/healthz", timeout=5) as r:
        return int(json.load(r)["connections"])


@pytest.fixture(scope="module")
def small_buffers() -> Iterator[Served]:
    s = start_server("--hand-pause", "0", "--send-queue", "32", "--sndbuf", "8192")
    try:
        yield s
    finally:
        out = stop_server(s)
        assert "Traceback" not in out, out[-4000:]


@pytest.mark.slow
async def test_slow_consumer_is_disconnected(small_buffers: Served) -> None:
    served = small_buffers
    host = await Client.connect(served.url, "host")
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # a reader with a tiny window ...
    sock.connect(("127.0.0.1", served.port))
    lazy = await connect(served.url, sock=sock, max_queue=1, compression=None)
    try:
        # the host watches random robots play (thousands of events a minute: the queue fills fast)
        st = await host.create("mahjong", bots=[0, 1, 2, 3], hands=16, robot="random", seed=1)
        await lazy.send(encode(Hello(VERSION, "lazy")))
        await lazy.recv()
        await lazy.send(encode(Join(st.room, None)))  # ... watches a fast robot match and never reads
        t0 = time.monotonic()
        async with asyncio.timeout(30):  # the server lets go of it (the host is the one left)
            while await asyncio.to_thread(connections, served) > 1:
                await asyncio.sleep(0.2)
        dropped_after = time.monotonic() - t0
        with pytest.raises(ConnectionClosed):  # reading again, the lazy client finds the end
            async with asyncio.timeout(10):
                while True:
                    await lazy.recv()
        print(f"slow consumer dropped after {dropped_after:.1f}s; its connection ended with {lazy.close_code}")
        # the other watcher was not disturbed: it sees the match to its end
        results = await host.until_match_end(timeout=120)
        assert results and results[-1].final
    finally:
        await host.close()
        await lazy.close()
