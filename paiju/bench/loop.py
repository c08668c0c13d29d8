"""`paiju bench loop`: the event loop's lag with every core busy, robot processes at the serving
process's priority ("before") against below it ("after", as `paiju serve` runs them), interleaved
in one run.

Each phase starts a `paiju serve` of its own (``PAIJU_WORKER_NICE=0`` before, the default 10
after), one CPU hog per core beside it (busy loops at the server's priority), and ``--rooms``
robot-only rooms that play at full speed (``--robot-pace 0``, no pause between hands) with the
game's default robot (bridge's hybrid: its card play runs in the decision pool's processes,
which then want every core too); the hogs start once every room plays. A probe connection
sends PING every ``--interval-ms`` and times each PONG: the round trip over loopback is the
loop's lag (its queueing, a blocked loop, a loop that waits for a CPU). Each phase reports
the probes' p50, p99 and max, how many were over 50 ms and whether it met the targets: p99
within 20 ms, no stall over 50 ms. The defaults take about two and a half minutes (four phases
of 20 s measured, each with its server's start and 3 s of warm-up); ``--json`` prints one JSON
object instead of the table.

Example (docs/performance.md quotes it; on a quiet machine, nothing else running)::

    paiju bench loop
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import time
from dataclasses import dataclass, field
from typing import Any

from tqdm import tqdm

from paiju import games
from paiju.cli.args import positive_float, positive_int
from paiju.client import Client
from paiju.loadtest.stats import percentile
from paiju.protocol import Ping, Pong
from paiju.testing.launch import Child, serve

STALL_MS = 50.0  # a stall: no probe may wait longer (the target)
P99_MS = 20.0  # the target for the probes' p99
PHASES = (("before", "0"), ("after", "10"))  # (name, PAIJU_WORKER_NICE)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--seconds", type=positive_float, default=20.0, help="measured seconds a phase (%(default)s)")
    p.add_argument("--rounds", type=positive_int, default=2, help="before/after pairs, interleaved (%(default)s)")
    p.add_argument("--rooms", type=positive_int, default=4, help="robot-only rooms playing (%(default)s)")
    p.add_argument("--game", choices=games.names(), default="bridge", help="the rooms' game (%(default)s)")
    p.add_argument("--hogs", type=int, default=0, help="CPU hogs beside the server (default 0: one per core)")
    p.add_argument("--interval-ms", type=positive_float, default=10.0, help="between two probes (%(default)s)")
    p.add_argument("--warmup", type=positive_float, default=3.0, help="seconds of play before measuring (%(default)s)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of the table")


@dataclass
class Phase:
    name: str
    nice: str
    lags_ms: list[float] = field(default_factory=list)
    moves: int = 0  # robot decisions the rooms saw (their progress under load)

    def figures(self) -> dict[str, Any]:
        """The phase's probes: ``n``, ``p50_ms``, ``p99_ms``, ``max_ms``, ``over_50_ms``, ``ok``
        (both targets met), ``room_events`` (the rooms' progress meanwhile).

        >>> Phase("after", "10", [1.0, 2.0, 3.0, 60.0], 9).figures()["over_50_ms"]
        1
        """
        lags = sorted(self.lags_ms)
        p99 = percentile(lags, 99) if lags else None
        top = lags[-1] if lags else None
        return {
            "robots": self.name,
            "nice": int(self.nice),
            "n": len(lags),
            "p50_ms": percentile(lags, 50) if lags else None,
            "p99_ms": p99,
            "max_ms": top,
            "over_50_ms": sum(1 for x in lags if x > STALL_MS),
            "ok": p99 is not None and top is not None and p99 <= P99_MS and top <= STALL_MS,
            "room_events": self.moves,
        }

    def row(self) -> str:
        f = self.figures()

        def ms(key: str) -> str:
            return "-" if f[key] is None else f"{f[key]:.1f}"

        met = "yes" if f["ok"] else "no"
        return (
            f"| {self.name} | {self.nice} | {f['n']} | {ms('p50_ms')} | {ms('p99_ms')} | {ms('max_ms')} | "
            f"{f['over_50_ms']} | {met} | {self.moves} |"
        )


def _hog(until: float) -> None:
    """A busy loop until ``until`` (time.monotonic), at the priority it was started with."""
    x = 0
    while time.monotonic() < until:
        x += 1


async def _probe(url: str, seconds: float, interval: float, bar: tqdm[Any]) -> list[float]:
    """PING every ``interval`` s for ``seconds``: each PONG's round trip, in ms (``bar`` moves
    by the seconds measured)."""
    c = await Client.connect(url, "probe")
    lags: list[float] = []
    try:
        start = time.monotonic()
        end = start + seconds
        nonce = 0
        shown = 0
        while time.monotonic() < end:
            done = int(time.monotonic() - start)
            if done > shown:
                bar.update(done - shown)
                shown = done
            nonce += 1
            sent = time.perf_counter()
            await c.request(Ping(nonce), lambda f, n=nonce: isinstance(f, Pong) and f.nonce == n, timeout=30)  # type: ignore[misc]
            lags.append((time.perf_counter() - sent) * 1000)
            await asyncio.sleep(max(0.0, interval - (time.perf_counter() - sent)))
    finally:
        await c.close()
        bar.update(max(0, round(seconds) - shown))
    return lags


async def _playing(watchers: list[Client], moves: int = 8, timeout: float = 120.0) -> None:
    """Wait until every room has seen ``moves`` events (its robots play), at most ``timeout`` s."""
    seen = [w.seq for w in watchers]
    end = time.monotonic() + timeout
    while time.monotonic() < end and any(w.seq < s + moves for w, s in zip(watchers, seen, strict=True)):
        await asyncio.sleep(0.1)


async def _phase(ph: Phase, args: argparse.Namespace, bar: tqdm[Any]) -> None:
    server: Child = serve(
        *("--robot-pace", "0", "--hand-pause", "0", "--address-rooms", "0", "--address-rooms-per-minute", "0"),
        *("--rate", "1000", "--burst", "1000"),  # the probe pings every --interval-ms: above a player's rate
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
        await _playing(watchers)  # the robots' processes started (imports, the pool) before the hogs
        until = time.monotonic() + args.warmup + args.seconds + 5
        ctx = multiprocessing.get_context("spawn")
        for _ in range(args.hogs or os.cpu_count() or 1):
            hogs.append(ctx.Process(target=_hog, args=(until,), daemon=True))
            hogs[-1].start()
        await asyncio.sleep(args.warmup)
        seen = sum(w.seq for w in watchers)
        bar.set_postfix_str(f"{ph.name} (robots at nice {ph.nice})")
        ph.lags_ms += await _probe(server.url, args.seconds, args.interval_ms / 1000, bar)
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
    total = round(args.seconds) * len(steps)
    with tqdm(total=total, desc="measured", unit="s", disable=args.json) as bar:
        for name in steps:
            asyncio.run(_phase(phases[name], args, bar))
    hogs = args.hogs or os.cpu_count() or 1
    setup = {
        "game": args.game,
        "rooms": args.rooms,
        "hogs": hogs,
        "rounds": args.rounds,
        "seconds": args.seconds,
        "interval_ms": args.interval_ms,
        "targets": {"p99_ms": P99_MS, "max_ms": STALL_MS},
    }
    if args.json:
        print(json.dumps({**setup, "phases": [ph.figures() for ph in phases.values()]}))
        return 0
    print(
        f"\nevent loop lag (PING round trip over loopback, every {args.interval_ms:g} ms), {args.rooms} robot-only "
        f"{args.game} rooms at full speed, {hogs} CPU hogs, {args.rounds} x {args.seconds:g} s a phase, "
        f"interleaved; targets: p99 within {P99_MS:g} ms, none over {STALL_MS:g} ms\n"
    )
    print("| robots | nice | probes | p50 ms | p99 ms | max ms | over 50 ms | targets met | room events |")
    print("|---|---|---|---|---|---|---|---|---|")
    for ph in phases.values():
        print(ph.row())
    return 0
