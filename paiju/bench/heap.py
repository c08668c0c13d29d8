"""What a full collection of the garbage collector costs a server process:
``python -m paiju.bench.heap [--deals 20]`` (docs/performance.md, "What the server does
to get there"; :mod:`paiju.cli.heap` is what `paiju serve` does about it)."""

from __future__ import annotations

import argparse
import gc
import statistics
import time

from paiju.cli.heap import settle


def full_collection_ms(runs: int = 3) -> float:
    """The CPU time of one full collection of this process now, the median of ``runs``."""
    times = []
    for _ in range(runs):
        start = time.thread_time()
        gc.collect()
        times.append((time.thread_time() - start) * 1000)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> None:
    """What a full collection costs a server process: after start-up's imports, after the
    robots' memos have filled, and after :func:`settle`."""
    ap = argparse.ArgumentParser(prog="python -m paiju.bench.heap", description=main.__doc__)
    ap.add_argument("--deals", type=int, default=20, help="mahjong deals the robots play first (default 20)")
    args = ap.parse_args(argv)
    import paiju.bots.registry
    import paiju.server.app  # noqa: F401
    from paiju.bots.arena import play

    def line(what: str) -> None:
        ms = full_collection_ms()
        print(f"{what:<44} {len(gc.get_objects()):>8,} tracked objects, full collection {ms:6.1f} ms CPU")

    line("after start-up's imports")
    play("mahjong", ["bdi-hudist", "ukeire", "bdi-hudist", "ukeire"], args.deals, 1, "championship")
    line(f"after {args.deals} deals of the mahjong robots")
    settle()
    line("after settle() (frozen)")


if __name__ == "__main__":
    main()
