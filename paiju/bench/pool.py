"""`paiju bench pool`: what a robot's decision costs the serving process when it is made in
another process: ``concurrent.futures.ProcessPoolExecutor`` against :class:`paiju.bots.pool.DecisionPool`.

The requests are real: every decision ``--robot`` made while it played ``--deals`` hands of
``--game`` in all seats (``paiju.bots.arena.play_out``, in a process of its own, so that no robot
measured here has memos of them), encoded as the bus carries them.
Each way then decides all of them again, ``--concurrency`` at a time from one event loop
(as a worker answers its rooms), after a warm-up on other hands that starts the processes:

- **inline**: the robot in the event loop's own thread (what the worker does for robots not
  marked ``cpu_heavy``);
- **executor**: ``run_in_executor`` on a spawned ``ProcessPoolExecutor`` of ``--workers``;
- **pipes**: :class:`paiju.bots.pool.DecisionPool` of ``--workers`` (what the worker uses).

For each: decisions per second (wall clock), and CPU microseconds a decision in this process
(its every thread: the executor's queue threads count) and in the pool's processes.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import json
import multiprocessing
import os
import time
from collections.abc import Awaitable, Callable
from typing import Any

from paiju.cli.args import positive_int
from paiju.testing.launch import cpu_of


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", default="mahjong", help="the game (default %(default)s)")
    parser.add_argument("--robot", default="bdi-hudist", help="the robot deciding (default %(default)s)")
    parser.add_argument(
        "--deals", type=positive_int, default=40, help="hands whose decisions are replayed (default %(default)s)"
    )
    parser.add_argument("--workers", type=positive_int, default=2, help="processes of each pool (default %(default)s)")
    parser.add_argument(
        "--concurrency",
        type=positive_int,
        default=8,
        help="decisions asked at once, as 8 rooms would (default %(default)s)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    from paiju.bots import registry

    try:
        registry.get(args.game, args.robot)
    except (KeyError, ValueError) as e:
        raise SystemExit(f"paiju bench pool: {e.args[0] if e.args else e}") from None
    out = asyncio.run(_main(args))
    if args.json:
        print(json.dumps(out))
    else:
        print(
            f"paiju bench pool: {out['decisions']} decisions of {args.game}/{args.robot} "
            f"({args.deals} deals), {args.concurrency} at a time, pools of {args.workers} processes"
        )
        print(f"  {'way':10} {'decisions/s':>12} {'this process µs':>16} {'pool processes µs':>18}")
        for way, r in out["ways"].items():
            print(f"  {way:10} {r['per_second']:12,.0f} {r['own_cpu_us']:16,.1f} {r['pool_cpu_us']:18,.1f}")
    return 0


def _requests(game: str, robot: str, deals: range) -> list[tuple[type[Any], bytes]]:
    """Every decision ``robot`` makes in the hands ``deals`` in all seats, encoded."""
    import itertools

    from paiju import games
    from paiju.bots import registry
    from paiju.bots.arena import play_out
    from paiju.protocol import encode

    made: list[tuple[type[Any], bytes]] = []
    cls = type(registry.get(game, robot))
    for deal in deals:
        g = games.create(game, 1, None, hand=deal)
        robots = [registry.get(game, robot) for _ in range(g.num_seats)]
        play_out(
            g,
            robots,
            f"bench-{deal}",
            itertools.count(1),
            decided=lambda r, a: made.append((cls, encode(r))),
        )
    return made


def _decide_encoded(cls: type[Any], data: bytes) -> tuple[int, bytes]:
    """In an executor's process: what a pool process of :class:`paiju.bots.pool.DecisionPool` does."""
    from paiju.protocol import decode

    action = cls().decide(decode(data))
    return action.code, action.cards


async def _main(args: argparse.Namespace) -> dict[str, Any]:
    from paiju.bots.pool import DecisionPool
    from paiju.protocol import decode

    def process_pool(workers: int = 1) -> concurrent.futures.ProcessPoolExecutor:
        return concurrent.futures.ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))

    # The requests are made by playing the hands in another process, and the warm-up decides
    # other hands: no way's robots may have memos of the measured decisions.
    with process_pool() as maker:
        requests = maker.submit(_requests, args.game, args.robot, range(args.deals)).result()
        warm = maker.submit(_requests, args.game, args.robot, range(10_000, 10_000 + max(1, args.deals // 4))).result()
    loop = asyncio.get_running_loop()
    ways: dict[str, dict[str, float]] = {}

    async def inline(cls: type[Any], data: bytes) -> Any:
        return cls().decide(decode(data))

    ways["inline"] = await _timed(warm, requests, args.concurrency, inline)
    executor = process_pool(args.workers)
    try:

        async def executed(cls: type[Any], data: bytes) -> Any:
            return await loop.run_in_executor(executor, _decide_encoded, cls, data)

        ways["executor"] = await _timed(warm, requests, args.concurrency, executed)
    finally:
        executor.shutdown(wait=True)
    pool = DecisionPool(args.workers)
    try:
        ways["pipes"] = await _timed(warm, requests, args.concurrency, pool.decide)
    finally:
        pool.close()
    return {"game": args.game, "robot": args.robot, "decisions": len(requests), "workers": args.workers, "ways": ways}


async def _timed(
    warm: list[tuple[type[Any], bytes]],
    requests: list[tuple[type[Any], bytes]],
    concurrency: int,
    decide: Callable[[type[Any], bytes], Awaitable[Any]],
) -> dict[str, float]:
    """Decide ``warm`` (the processes start), then ``requests``, ``concurrency`` at a time:
    the second's rate and CPU a decision."""

    async def share(batch: list[tuple[type[Any], bytes]], i: int) -> None:
        for cls, data in batch[i::concurrency]:
            await decide(cls, data)

    await asyncio.gather(*(share(warm, i) for i in range(concurrency)))
    me = os.getpid()
    # this process's CPU to the microsecond; the children's from /proc, in clock ticks
    own, kids, wall = time.process_time(), cpu_of(me, children=True) - cpu_of(me), time.perf_counter()
    await asyncio.gather(*(share(requests, i) for i in range(concurrency)))
    wall = time.perf_counter() - wall
    own_cpu = time.process_time() - own
    pool_cpu = cpu_of(me, children=True) - cpu_of(me) - kids
    n = len(requests)
    return {"per_second": n / wall, "own_cpu_us": own_cpu / n * 1e6, "pool_cpu_us": max(0.0, pool_cpu) / n * 1e6}
