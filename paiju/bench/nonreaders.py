"""`paiju bench nonreaders`: clients that send but never read, then vanish, against a
`paiju serve` of its own: the server's connections, player records, RSS and idle CPU before,
at the peak and after it has let them go.

Each client is a raw socket with a small receive buffer: it upgrades to WebSocket, says
HELLO and asks for the room list over and over (each answer a few hundred bytes: some
public rooms wait for players), and never reads a byte after the upgrade. The server's
answers fill the socket, then its send queue; within its stall bound (``--stall``) it
closes each of them and forgets its player record. When the counts are back at their
baseline the clients close their sockets (they vanish), and the server's RSS and idle CPU
are measured against those before. With ``--warmup N`` a first wave of N such clients comes
and goes before the baseline: the memory the first abuse leaves once (allocator arenas that
stay mapped, caches filled) is then in the baseline, and what is measured is whether abuse
keeps adding to it; both figures are in docs/performance.md. The server runs with
``PYTHONMALLOC=malloc`` as deploy/ runs it (``--allocator pymalloc``: Python's own allocator,
whose arenas stay mapped after the wave).
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import os
import resource
import socket
import struct
import time
from typing import Any

from paiju.bench.churn import health
from paiju.cli.args import nonnegative_int, positive_float, positive_int
from paiju.client import Client
from paiju.protocol import VERSION, Hello, ListRooms, encode
from paiju.testing.launch import Child, serve

COUNTS = ("connections", "players", "rooms")


def ws_frame(payload: bytes) -> bytes:
    """A masked binary WebSocket frame (mask key 0: the payload goes as it is)."""
    n = len(payload)
    head = struct.pack("!BB", 0x82, 0x80 | n) if n < 126 else struct.pack("!BBH", 0x82, 0xFE, n)
    return head + b"\0\0\0\0" + payload


def nonreader(port: int) -> socket.socket:
    """A raw socket that upgrades to WebSocket and says HELLO, and never reads a byte after
    the upgrade (:func:`flood` makes it ask)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.settimeout(120)  # a loaded server may take its time to accept
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
    if not head.startswith(b"HTTP/1.1 101"):
        raise ConnectionError(f"no upgrade: {head[:60]!r}")
    s.sendall(ws_frame(encode(Hello(VERSION, "lazy"))))
    return s


def flood(s: socket.socket, asks: int = 400) -> None:
    """Ask for the room list ``asks`` times (a few hundred bytes an answer, never read)."""
    s.sendall(ws_frame(encode(ListRooms())) * asks)


def counts(http: str) -> dict[str, int]:
    h = health(http)
    return {k: int(h[k]) for k in COUNTS}


def idle_cpu(child: Child, seconds: float) -> float:
    """The server's CPU use over ``seconds`` of wall time, in percent of one core."""
    c0, t0 = child.cpu_seconds(), time.monotonic()
    time.sleep(seconds)
    return 100 * (child.cpu_seconds() - c0) / (time.monotonic() - t0)


async def until_counts(http: str, want: dict[str, int], timeout: float) -> float:
    """Seconds until /healthz shows ``want`` (TimeoutError after ``timeout``)."""
    t0 = time.monotonic()
    while (now := await asyncio.to_thread(counts, http)) != want:
        if time.monotonic() - t0 > timeout:
            raise TimeoutError(f"/healthz counts {now}, not back to {want} after {timeout:g} s")
        await asyncio.sleep(0.5)
    return time.monotonic() - t0


async def bench(
    child: Child, clients: int, stall: float, settle: float, hosts: int = 6, warmup: int = 0
) -> dict[str, Any]:
    """The figures of one run against the server ``child`` (see the module's docstring)."""
    url, http = f"ws://127.0.0.1:{child.port}/ws", f"http://127.0.0.1:{child.port}"
    rooms = [await host(url, f"host{i}") for i in range(hosts)]
    try:
        await asyncio.sleep(settle)
        if warmup:
            await wave(child.port, http, warmup, await asyncio.to_thread(counts, http), stall)
            await asyncio.sleep(settle)
        base = await asyncio.to_thread(counts, http)
        rss0, cpu0 = child.rss_kib(), await asyncio.to_thread(idle_cpu, child, settle)
        opened, released, peak, rss_peak = await wave(child.port, http, clients, base, stall, child)
        await asyncio.sleep(settle)
        rss1, cpu1 = child.rss_kib(), await asyncio.to_thread(idle_cpu, child, settle)
        after = await asyncio.to_thread(counts, http)
    finally:
        for h in rooms:
            await h.close()
    return {
        "clients": clients,
        "warmup": warmup,
        "stall_s": stall,
        "opened_in_s": round(opened, 1),
        "released_after_s": round(opened + released, 1),
        "baseline": base,
        "peak": peak,
        "after": after,
        "rss_mib": {k: round(v / 1024, 1) for k, v in (("baseline", rss0), ("peak", rss_peak), ("after", rss1))},
        "idle_cpu_pct": {"baseline": round(cpu0, 2), "after": round(cpu1, 2)},
        "rss_after_vs_baseline": round(rss1 / rss0, 3),
    }


async def host(url: str, name: str, tries: int = 3) -> Client:
    """A client waiting in a public bridge room of its own (so that the room list is long);
    a request a loaded machine leaves unanswered for its 10 s is tried again."""
    for i in range(tries):
        # no keepalive of its own: a server slowed down by the abuse (on a loaded machine)
        # must not make the measuring clients give up on it (the server's keepalive stays)
        c = await Client.connect(url, name, ping_interval=None)
        try:
            await c.create("bridge", clock_ms=60_000)
            return c
        except TimeoutError:
            await c.close()
            if i == tries - 1:
                raise
    raise AssertionError("unreachable")


async def wave(
    port: int, http: str, clients: int, base: dict[str, int], stall: float, child: Child | None = None
) -> tuple[float, float, dict[str, int], int]:
    """``clients`` non-readers at once, until the server has let them go, then they vanish:
    seconds to open them, seconds until released, the counts and RSS (KiB) at the peak."""
    t0 = time.monotonic()
    socks: list[socket.socket] = []
    for _ in range(0, clients, 50):  # in waves, so that the listen backlog keeps up
        n = min(50, clients - len(socks))
        socks += await asyncio.gather(*(asyncio.to_thread(nonreader, port) for _ in range(n)))
    opened = time.monotonic() - t0
    for s in socks:  # all at once: the stall bound runs for all of them together
        await asyncio.to_thread(flood, s)
    peak = await asyncio.to_thread(counts, http)
    rss_peak = child.rss_kib() if child is not None else 0
    released = await until_counts(http, base, timeout=stall + 60 + clients / 10)
    for s in socks:  # then they vanish
        s.close()
    await until_counts(http, base, timeout=30)
    return opened, released, peak, rss_peak


def within(fig: dict[str, Any], tolerance: float = 0.10, cpu_floor: float = 1.0) -> bool:
    """Counts at their baseline, RSS within ``tolerance`` of it, idle CPU too (or below
    ``cpu_floor`` percent: a tenth of nothing is noise)."""
    cpu = fig["idle_cpu_pct"]
    return bool(
        fig["after"] == fig["baseline"]
        and fig["rss_after_vs_baseline"] <= 1 + tolerance
        and (cpu["after"] <= cpu["baseline"] * (1 + tolerance) or cpu["after"] < cpu_floor)
    )


def start(stall: float, *extra: str, allocator: str = "malloc") -> Child:
    """`paiju serve` for the run: its stall bound, small buffers, no per-address limit (every
    client comes from 127.0.0.1), a rate the LIST_ROOMS floods stay under, the hosts'
    waiting rooms kept for the whole run, and Python's ``allocator`` (``PYTHONMALLOC``)."""
    opts = ["--stall", f"{stall:g}", "--log-level", "WARNING"]
    opts += ["--sndbuf", "4096", "--send-queue", "64", "--rate", "2000", "--burst", "2000"]
    opts += ["--address-connections", "0", "--max-connections", "20000", "--waiting-expiry", "86400", *extra]
    return serve(*opts, env={"PYTHONMALLOC": allocator})


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--clients", type=positive_int, default=1000, help="clients that never read (default 1000)")
    p.add_argument(
        "--stall",
        type=positive_float,
        default=30.0,
        help="the server's bound: seconds a connection may leave frames unread (default 30, the server's)",
    )
    p.add_argument("--settle", type=positive_float, default=5.0, help="seconds idle CPU is measured over (5)")
    p.add_argument(
        "--warmup", type=nonnegative_int, default=0, help="clients of a first wave, before the baseline (default 0)"
    )
    p.add_argument(
        "--allocator",
        choices=("malloc", "pymalloc"),
        default="malloc",
        help="the server's PYTHONMALLOC (default malloc: as deploy/ runs the server; pymalloc: "
        "Python's own, whose arenas stay mapped after a wave)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # a socket each (the server inherits it)
    child = start(args.stall, allocator=args.allocator)
    try:
        fig = asyncio.run(bench(child, args.clients, args.stall, args.settle, warmup=args.warmup))
    finally:
        child.stop()
    fig["allocator"] = args.allocator
    fig["ok"] = within(fig)
    print(json.dumps(fig) if args.json else "\n".join(f"{k}: {v}" for k, v in fig.items()))
    return 0 if fig["ok"] else 1
