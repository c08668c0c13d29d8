"""`paiju bench loop`: the event loop's lag with every core busy, robot processes at the serving
process's priority ("before") against below it ("after", as `paiju serve` runs them), interleaved
in one run.

Each phase starts a `paiju serve` of its own (``PAIJU_WORKER_NICE=0`` before, the default 10
after), one CPU hog per core beside it (busy loops at the server's priority), and ``--rooms``
robot-only rooms that play at full speed (``--robot-pace 0``, no pause between hands) with the
game's default robot (bridge's hybrid: its card play runs in the decision pool's processes,
which then want every core too). A probe connection sends PING every ``--interval-ms`` and
times each PONG: the round trip over loopback is the loop's lag (its queueing, a blocked loop,
a loop that waits for a CPU). Each phase reports the probes' p50, p99 and max and how many were
over 50 ms. Targets: p99 within 20 ms, no stall over 50 ms.

Example (docs/performance.md quotes it; on a quiet machine, nothing else running)::

    paiju bench loop --seconds 30 --rounds 2
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import os
import statistics
import time
from dataclasses import dataclass, field

from tqdm import tqdm

from paiju import games
from paiju.cli.args import positive_float, positive_int
from paiju.client import Client
from paiju.protocol import Ping, Pong
from paiju.testing.launch import Child, serve

STALL_MS = 50.0
PHASES = (("before", "0"), ("after", "10"))  # (name, PAIJU_WORKER_NICE)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--seconds", type=positive_float, default=20.0, help="measured seconds a phase (%(default)s)")
    p.add_argument("--rounds", type=positive_int, default=2, help="before/after pairs, interleaved (%(default)s)")
    p.add_argument("--rooms", type=positive_int, default=4, help="robot-only rooms playing (%(default)s)")
    p.add_argument("--game", choices=games.names(), default="bridge", help="the rooms' game (%(default)s)")
    p.add_argument("--hogs", type=int, default=0, help="CPU hogs beside the server (default 0: one per core)")
    p.add_argument("--interval-ms", type=positive_float, default=10.0, help="between two probes (%(default)s)")
    p.add_argument("--warmup", type=positive_float, default=3.0, help="seconds of play before measuring (%(default)s)")


@dataclass
class Phase:
    name: str
    nice: str
    lags_ms: list[float] = field(default_factory=list)
    moves: int = 0  # robot decisions the rooms saw (their progress under load)

    def row(self) -> str:
        lags = sorted(self.lags_ms)
        if not lags:
            return f"| {self.name} | {self.nice} | 0 | - | - | - | - | {self.moves} |"
        p50 = statistics.median(lags)
        p99 = lags[min(len(lags) - 1, int(len(lags) * 0.99))]
        over = sum(1 for x in lags if x > STALL_MS)
        return (
            f"| {self.name} | {self.nice} | {len(lags)} | {p50:.1f} | {p99:.1f} | {lags[-1]:.1f} | {over} | "
            f"{self.moves} |"
        )


def _hog(until: float) -> None:
    """A busy loop until ``until`` (time.monotonic), at the priority it was started with."""
    x = 0
    while time.monotonic() < until:
        x += 1


async def _probe(url: str, seconds: float, interval: float) -> list[float]:
    """PING every ``interval`` s for ``seconds``: each PONG's round trip, in ms."""
    c = await Client.connect(url, "probe")
    lags: list[float] = []
    try:
        end = time.monotonic() + seconds
        nonce = 0
        while time.monotonic() < end:
            nonce += 1
            sent = time.perf_counter()
            await c.request(Ping(nonce), lambda f, n=nonce: isinstance(f, Pong) and f.nonce == n, timeout=30)  # type: ignore[misc]
            lags.append((time.perf_counter() - sent) * 1000)
            await asyncio.sleep(max(0.0, interval - (time.perf_counter() - sent)))
    finally:
        await c.close()
    return lags


async def _phase(ph: Phase, args: argparse.Namespace) -> None:
    server: Child = serve(
        *("--robot-pace", "0", "--hand-pause", "0", "--address-rooms", "0", "--address-rooms-per-minute", "0"),
        env={"PAIJU_WORKER_NICE": ph.nice},
        timeout=120,
    )
    hogs: list[multiprocessing.process.BaseProcess] = []
    watchers: list[Client] = []
    try:
        n = games.shape(args.game)[0]
        for i in range(args.rooms):  # each room's creator watches its robots play
            w = await Client.connect(server.url, f"watcher{i}")
            await w.create(args.game, bots=list(range(n)), hands=64, seed=1000 + i)
            watchers.append(w)
        until = time.monotonic() + args.warmup + args.seconds + 5
        ctx = multiprocessing.get_context("spawn")
        for _ in range(args.hogs or os.cpu_count() or 1):
            hogs.append(ctx.Process(target=_hog, args=(until,), daemon=True))
            hogs[-1].start()
        await asyncio.sleep(args.warmup)
        seen = sum(w.seq for w in watchers)
        ph.lags_ms += await _probe(server.url, args.seconds, args.interval_ms / 1000)
        ph.moves += sum(w.seq for w in watchers) - seen
    finally:
        for w in watchers:
            with contextlib.suppress(Exception):
                await w.close()
        for hog in hogs:
            hog.kill()
            hog.join(5)
        server.stop()


def run(args: argparse.Namespace) -> int:
    phases = {name: Phase(name, nice) for name, nice in PHASES}
    steps = [name for _ in range(args.rounds) for name, _ in PHASES]
    for name in tqdm(steps, desc="phases", unit="phase"):
        asyncio.run(_phase(phases[name], args))
    print(
        f"\nevent loop lag (PING round trip over loopback, every {args.interval_ms:g} ms), {args.rooms} robot-only "
        f"{args.game} rooms at full speed, {args.hogs or os.cpu_count()} CPU hogs, {args.rounds} x {args.seconds:g} s "
        "a phase, interleaved\n"
    )
    print("| robots | nice | probes | p50 ms | p99 ms | max ms | over 50 ms | room events |")
    print("|---|---|---|---|---|---|---|---|")
    for ph in phases.values():
        print(ph.row())
    return 0
