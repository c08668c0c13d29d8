"""`paiju bench fuzz`: malformed frames against a live `paiju serve`; every one must be answered.

Starts ``paiju serve`` as a child process (no rate limit), opens ``--connections`` protocol
clients and sends ``--frames`` frames made by mutating valid PINGs (a byte changed, inserted or
deleted) or made of random bytes, kept only when they do not decode as a valid PING. Each must be
answered on its own connection: an ERROR (the codec refused it) or a PONG (the mutation left a
valid frame of another shape, which the server answers as one). The command prints how many were
sent and answered, the rate, the server's CPU time, and whether the server's log holds a
traceback; it exits non-zero when a frame goes unanswered, a connection is closed, or the server
crashed or logged a traceback.

    paiju bench fuzz --frames 1000000
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import time

from tqdm import tqdm

from paiju.bench.server import SERVE_OPTIONS
from paiju.cli.args import positive_int
from paiju.client import Client
from paiju.protocol import Error, Ping, Pong, ProtocolError, decode, encode
from paiju.testing.launch import cpu_of, serve


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--frames", type=positive_int, default=100_000, help="malformed frames to send (default %(default)s)"
    )
    p.add_argument("--connections", type=positive_int, default=4, help="connections they are spread over (default 4)")
    p.add_argument("--window", type=positive_int, default=128, help="frames in flight per connection (default 128)")
    p.add_argument("--seed", type=int, default=13, help="the seed of the mutations (default 13)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")


def malformed(rng: random.Random) -> bytes:
    """One frame that is not a valid PING: random bytes, or a PING with bytes changed."""
    if rng.random() < 0.3:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40)))
    b = bytearray(encode(Ping(rng.randrange(1 << 32))))
    for _ in range(rng.randrange(1, 4)):
        op = rng.randrange(3)
        if op == 0 and b:
            b[rng.randrange(len(b))] = rng.randrange(256)
        elif op == 1:
            b.insert(rng.randrange(len(b) + 1), rng.randrange(256))
        elif b:
            del b[rng.randrange(len(b))]
    data = bytes(b)
    try:
        if isinstance(decode(data), Ping):
            return malformed(rng)
    except ProtocolError:
        pass
    return data


async def _fuzz(url: str, args: argparse.Namespace) -> dict[str, int]:
    rng = random.Random(args.seed)
    counts = {"sent": 0, "error": 0, "pong": 0}
    bar = tqdm(total=args.frames, unit="frame", disable=args.no_progress, file=sys.stderr)
    conns = [await Client.connect(url, f"fuzz{i}") for i in range(args.connections)]

    async def one(c: Client, n: int) -> None:
        window = asyncio.Semaphore(args.window)  # bounded in flight: the server's send queue never overflows

        async def reader() -> None:
            for _ in range(n):
                while True:
                    f = await c.recv(timeout=60)
                    if isinstance(f, Error | Pong):
                        break
                counts["error" if isinstance(f, Error) else "pong"] += 1
                bar.update()
                window.release()

        task = asyncio.create_task(reader())
        for _ in range(n):
            await window.acquire()
            await c.send_raw(malformed(rng))
            counts["sent"] += 1
        await task

    share = [args.frames // len(conns) + (i < args.frames % len(conns)) for i in range(len(conns))]
    try:
        await asyncio.gather(*(one(c, n) for c, n in zip(conns, share, strict=True)))
    finally:
        bar.close()
        for c in conns:
            await c.close()
    return counts


def run(args: argparse.Namespace) -> int:
    server = serve(*SERVE_OPTIONS)
    ok = False
    try:
        cpu0, t0 = cpu_of(server.proc.pid), time.perf_counter()
        try:
            counts = asyncio.run(_fuzz(server.url, args))
        except Exception as e:  # a closed connection or a silent server is the finding, not a crash of ours
            print(f"paiju bench fuzz: stopped: {type(e).__name__}: {e}", file=sys.stderr)
            counts = {"sent": -1, "error": 0, "pong": 0}
        dt, cpu = time.perf_counter() - t0, cpu_of(server.proc.pid) - cpu0
        alive = server.proc.poll() is None
    finally:
        log = server.stop(timeout=30)
    answered = counts["error"] + counts["pong"]
    traceback = "Traceback" in log
    print(
        f"fuzz: {counts['sent']:,} malformed frames sent over {args.connections} connections, "
        f"{counts['error']:,} ERROR + {counts['pong']:,} PONG = {answered:,} answered in {dt:.1f} s "
        f"({answered / dt:,.0f} frames/s); server CPU {cpu:.2f} s; server alive: {alive}; "
        f"traceback in the server log: {traceback}"
    )
    ok = answered == counts["sent"] == args.frames and alive and not traceback
    return 0 if ok else 1
