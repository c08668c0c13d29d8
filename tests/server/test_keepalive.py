"""The server's one keepalive (paiju/server/keepalive.py): a peer that stops answering pings -- a
raw socket that did the WebSocket handshake and then went silent, as a vanished laptop does --
is closed within two ``--ping-interval``s, while a client that answers stays, and the server
counts it gone."""

from __future__ import annotations

import asyncio
import json
import socket
import time
import urllib.request
from collections.abc import Iterator

import pytest

from paiju.client import Client

from .conftest import Served, serving

INTERVAL = 0.3


@pytest.fixture(scope="module")
def pinging() -> Iterator[Served]:
    yield from serving("--ping-interval", str(INTERVAL))


def connections(s: Served) -> int:
    with urllib.request.urlopen(s.http + "/healthz", timeout=5) as r:
        return int(json.load(r)["connections"])


def silent_peer(port: int) -> socket.socket:
    """A socket that completes the WebSocket handshake and then neither reads nor answers."""
    sock = socket.create_connection(("127.0.0.1", port))
    sock.sendall(
        b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    head = b""
    while b"\r\n\r\n" not in head:
        head += sock.recv(4096)
    assert head.startswith(b"HTTP/1.1 101"), head
    return sock


def closed_by_server(sock: socket.socket) -> bool:
    """Whether the server has closed ``sock`` (its pings read and thrown away)."""
    sock.setblocking(False)
    try:
        while True:
            data = sock.recv(65536)
            if not data:
                return True
    except BlockingIOError:
        return False
    except ConnectionResetError:
        return True


async def test_a_silent_peer_is_closed_and_an_answering_one_stays(pinging: Served) -> None:
    base = connections(pinging)
    alive = await Client.connect(pinging.url, "alive")
    sock = silent_peer(pinging.port)
    try:
        assert connections(pinging) == base + 2
        deadline = time.monotonic() + 20 * INTERVAL
        while not closed_by_server(sock):
            assert time.monotonic() < deadline, "the silent peer was never closed"
            await asyncio.sleep(INTERVAL / 3)
        took = time.monotonic() - (deadline - 20 * INTERVAL)
        print(f"silent peer closed after {took:.2f} s")
        await asyncio.sleep(3 * INTERVAL)  # more rounds: the client that answers is still here
        assert isinstance(await alive.list_rooms(), list)
        assert connections(pinging) == base + 1
    finally:
        sock.close()
        await alive.close()
