"""Clients that send but never read, then vanish: the server closes them within ``--stall``
and releases them (connection, player record), so /healthz counts return to their baseline."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
import struct
import time
import urllib.request
from collections.abc import Iterator

import pytest

from paiju.client import Client
from protocol import VERSION, Hello, ListRooms, encode

from .conftest import Served, serving

CLIENTS = 24


@pytest.fixture(scope="module")
def stalls() -> Iterator[Served]:
    yield from serving("--stall", "2", "--send-queue", "32", "--sndbuf", "4096", "--rate", "2000", "--burst", "2000")


def health(s: Served) -> dict[str, int]:
    with urllib.request.urlopen(s.http + "/healthz", timeout=10) as r:
        body: dict[str, int] = json.load(r)
        return body


def ws_frame(payload: bytes) -> bytes:
    """A masked binary WebSocket frame (mask key 0: the payload goes as it is)."""
    n = len(payload)
    head = struct.pack("!BB", 0x82, 0x80 | n) if n < 126 else struct.pack("!BBH", 0x82, 0xFE, n)
    return head + b"\0\0\0\0" + payload


def nonreader(port: int) -> socket.socket:
    """A raw socket that upgrades to WebSocket, says HELLO, asks for the room list over and
    over (each answer a few hundred bytes), and never reads a byte after the upgrade."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall(
        (
            f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        head += s.recv(1)
    assert head.startswith(b"HTTP/1.1 101"), head
    s.sendall(ws_frame(encode(Hello(VERSION, "lazy"))) + ws_frame(encode(ListRooms())) * 400)
    return s


async def counts_become(s: Served, want: dict[str, int], timeout: float) -> float:
    t0 = time.monotonic()
    while True:
        h = await asyncio.to_thread(health, s)
        now = {k: h[k] for k in want}
        if now == want:
            return time.monotonic() - t0
        assert time.monotonic() - t0 < timeout, f"/healthz counts {now}, not back to {want}"
        await asyncio.sleep(0.5)


async def test_clients_that_never_read_are_released(stalls: Served) -> None:
    hosts = [await Client.connect(stalls.url, f"host{i}") for i in range(6)]
    try:
        for h in hosts:  # public waiting rooms, so that the room list is long
            await h.create("bridge", clock_ms=60_000)
        h0 = health(stalls)
        baseline = {k: h0[k] for k in ("connections", "players", "rooms")}
        socks = await asyncio.gather(*(asyncio.to_thread(nonreader, stalls.port) for _ in range(CLIENTS)))
        # never reading, they are closed within the stall bound (2 s) and forgotten
        closed_after = await counts_become(stalls, baseline, timeout=60)
        for s in socks:  # then they vanish
            s.close()
        await counts_become(stalls, baseline, timeout=30)
        print(f"{CLIENTS} clients that never read: released {closed_after:.1f} s after they connected; {baseline}")
    finally:
        for h in hosts:
            await h.close()
