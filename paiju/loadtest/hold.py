"""Idle connections held by a process of their own, reporting once a second.

One process may hold only as many sockets as its file limit allows (``ulimit -n``, whose
hard limit only a privileged process may raise), so ``paiju bench server --idle N`` spreads
large counts over several of these. Each opens its share (HELLO said, a ping every
``--ping-interval`` seconds, like a browser tab left open) and prints one JSON line a
second, ``{"connections": ..., "disconnects": ..., "connect_failures": ...}`` (the counts
so far, disconnects being the closes the server or the network made); it stops after
``--for`` seconds, or at once on SIGTERM, closing its connections.

``python -m paiju.loadtest.hold ws://127.0.0.1:8765/ws --idle 10000 --ramp 60 --for 300``
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import signal
import sys

from paiju.loadtest.run import Options, run
from paiju.loadtest.stats import Stats, Tick


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m paiju.loadtest.hold", description=__doc__.splitlines()[0])
    p.add_argument("url")
    p.add_argument("--idle", type=int, required=True, help="connections to hold")
    p.add_argument("--ramp", type=float, default=10.0, help="seconds over which they open")
    p.add_argument("--for", dest="seconds", type=float, default=120.0, help="seconds to hold them at most")
    p.add_argument("--ping-interval", type=float, default=20.0)
    p.add_argument("--uvloop", action="store_true")
    args = p.parse_args(argv)
    options = Options(
        args.url,
        rooms=0,
        idle=args.idle,
        ramp=args.ramp,
        duration=args.seconds,
        ping_interval=args.ping_interval,
        metrics="",
    )
    # the run's counts restart at 0 when its window opens: what came before is kept here
    before, last = [0], [0]

    def report(_: Tick, s: Stats) -> None:
        if s.disconnects < last[0]:
            before[0] += last[0]
        last[0] = s.disconnects
        line = {"connections": s.connections, "disconnects": before[0] + s.disconnects}
        line["connect_failures"] = s.connect_failures
        print(json.dumps(line), flush=True)

    async def hold() -> None:
        task = asyncio.current_task()
        assert task is not None
        with contextlib.suppress(NotImplementedError):
            asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, task.cancel)
        with contextlib.suppress(asyncio.CancelledError):
            await run(options, on_tick=report)

    if args.uvloop:
        import uvloop

        uvloop.run(hold())
    else:
        asyncio.run(hold())
    return 0


if __name__ == "__main__":
    sys.exit(main())
