"""Where a held idle connection's memory goes: ``python -m paiju.bench.connmem [--idle 5000]``.

Two fresh ``paiju serve`` processes of this checkout, side by side, each sent ``--idle`` connections by
one holding process (paiju.loadtest.hold: HELLO said, then a ping now and then, like a browser tab
left open), held until every one is open and a keepalive round has passed:

- the first runs as it does in production: its RSS before and with the connections gives
  the KiB each costs (what ``paiju bench server --idle N`` measures, with one holder);
- the second runs under tracemalloc, started once start-up and a first small wave of
  connections are over (so that one-time caches are not counted), and the two snapshots
  give the bytes each held connection keeps, by owner (websockets' objects, the handshake's
  headers, tasks and coroutines, asyncio's transport, paiju's own, the keepalive).

What the RSS figure has on top of the traced one is the allocators' share: size classes,
free space in pymalloc's arenas and glibc's heap. (tracemalloc's own bookkeeping inflates
the second process's RSS: that is why the RSS comes from the first.)

The connections open over ``--ramp`` seconds: under tracemalloc a server takes a HELLO
several times slower, and a burst would time out in its database pool.
"""

from __future__ import annotations

import argparse
import collections
import concurrent.futures
import gc
import json
import os
import resource
import select
import signal
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from paiju.bench.server import FILE_RESERVE, SERVE_OPTIONS
from paiju.testing.launch import ROOT, SERVING, Child, end

WARM_UP = 300  # connections opened and closed before the first snapshot
SETTLE = 25.0  # seconds held once all are open: a keepalive round (20 s) passes

# owner of a traced block, from the frames of its traceback (most recent last): the first
# rule that matches any frame of the traceback, else the first matching the allocating frame.
# A few name lines of websockets 17.4 (its tasks' and coroutines' calls): with another
# version those blocks count as websockets' objects.
_ANY_FRAME: list[tuple[str, tuple[str, ...]]] = [
    ("keepalive (pings awaiting their pong)", ("paiju/server/keepalive.py",)),
    (
        "handshake request and response (headers)",
        ("websockets/http11.py", "websockets/datastructures.py", "email/utils.py", "websockets/utils.py"),
    ),
]
_TOP_FRAME: list[tuple[str, tuple[str, ...]]] = [
    (
        "tasks, coroutine frames, their futures",
        (
            "_weakrefset.py",
            "asyncio/base_events.py:436",
            "asyncio/base_events.py:537",
            "asyncio/tasks.py",
            "websockets/asyncio/server.py:226",
            "websockets/asyncio/server.py:76",
            "websockets/asyncio/connection.py:238",
            "websockets/asyncio/connection.py:299",
            "websockets/asyncio/messages.py:52",
            "websockets/asyncio/messages.py:160",
        ),
    ),
    (
        "paiju's own (Connection, Player, the lobby's tables, the handler's calls)",
        ("/server/", "/protocol/", "msgpack", "secrets.py"),
    ),
    (
        "asyncio transport, socket, selector key",
        ("selector_events.py", "socket.py", "selectors.py", "weakref.py", "transports.py", "<string>"),
    ),
    ("websockets' connection and protocol objects", ("websockets/", "uuid.py", "asyncio/base_events.py", "logging/")),
]


def owner(frames: list[str]) -> str:
    """The owner of a block allocated by ``frames`` ("file:line", the allocating one last).

    >>> owner(["x/websockets/asyncio/server.py:160", "x/websockets/datastructures.py:138"])
    'handshake request and response (headers)'
    >>> owner(["x/paiju/server/app.py:356"])
    "paiju's own (Connection, Player, the lobby's tables, the handler's calls)"
    """
    for name, marks in _ANY_FRAME:
        if any(m in f for f in frames for m in marks):
            return name
    for name, marks in _TOP_FRAME:
        if any(m in frames[-1] for m in marks):
            return name
    return "other"


def breakdown(before: tracemalloc.Snapshot, after: tracemalloc.Snapshot) -> dict[str, int]:
    """Bytes allocated between the snapshots and still alive, by owner."""
    out: collections.Counter[str] = collections.Counter()
    for s in after.compare_to(before, "traceback"):
        out[owner([f"{f.filename}:{f.lineno}" for f in s.traceback])] += s.size_diff
    return dict(out)


def child(directory: str, serve_args: list[str]) -> int:
    """``paiju serve`` with two signals: SIGUSR1 starts tracemalloc, SIGUSR2 writes a
    snapshot (DIRECTORY/snapshot-N, renamed there once complete)."""
    taken = [0]

    def start(*_: object) -> None:
        gc.collect()
        tracemalloc.start(int(os.environ.get("CONNMEM_DEPTH", "8")))

    def dump(*_: object) -> None:
        gc.collect()
        path = Path(directory) / f"snapshot-{taken[0]}"
        tracemalloc.take_snapshot().dump(str(path) + ".part")
        os.rename(str(path) + ".part", path)
        taken[0] += 1

    signal.signal(signal.SIGUSR1, start)
    signal.signal(signal.SIGUSR2, dump)
    from paiju.cli import main as cli

    return cli(["serve", *serve_args])


def hold(url: str, n: int, ramp: float) -> subprocess.Popen[str]:
    """A paiju.loadtest.hold process with ``n`` connections open (returned once they are)."""
    cmd = [sys.executable, "-m", "paiju.loadtest.hold", url, "--idle", str(n), "--ramp", f"{ramp:g}", "--for", "3600"]
    h = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, text=True, bufsize=1)
    assert h.stdout is not None
    deadline = time.monotonic() + 3 * ramp + 120
    seen = {"connections": 0}
    while seen["connections"] < n:
        if time.monotonic() > deadline or h.poll() is not None:
            h.kill()
            raise RuntimeError(f"{seen['connections']} of {n} connections opened")
        if select.select([h.stdout], [], [], 1.0)[0]:
            seen = json.loads(h.stdout.readline() or '{"connections": 0}')
    return h


def measure(n: int, ramp: float, traced: bool, settle: float = SETTLE) -> tuple[int, int, dict[str, int]]:
    """RSS before and with ``n`` connections (KiB), and the traced breakdown (bytes) when ``traced``."""
    with tempfile.TemporaryDirectory(prefix="paiju-connmem-") as scratch:
        cmd = [sys.executable, "-m", "paiju.bench.connmem", "--child", scratch, "--", "--port", "0", *SERVE_OPTIONS]
        cmd += ["--max-connections", str(n + 1000), "--address-connections", "0"]
        cmd += ["--log-level", "WARNING", "--database", f"sqlite:///{scratch}/serve.sqlite3"]
        serve = Child(cmd, SERVING)
        url = serve.url
        try:
            end(hold(url, WARM_UP, 2.0), 30)
            time.sleep(2.0)  # the warm-up's connections closed and collected
            snapshots: list[tracemalloc.Snapshot] = []

            def snap() -> None:
                serve.proc.send_signal(signal.SIGUSR2)
                path = Path(scratch) / f"snapshot-{len(snapshots)}"
                deadline = time.monotonic() + 300
                while not path.exists():
                    if time.monotonic() > deadline:
                        raise RuntimeError("no snapshot from the server")
                    time.sleep(0.5)
                snapshots.append(tracemalloc.Snapshot.load(str(path)))

            if traced:
                serve.proc.send_signal(signal.SIGUSR1)
                time.sleep(1.0)
                snap()
            before = serve.rss_kib()
            h = hold(url, n, ramp)
            try:
                time.sleep(settle)
                with_them = serve.rss_kib()
                if traced:
                    snap()
            finally:
                end(h, 30)
        finally:
            serve.stop()
    return before, with_them, breakdown(*snapshots) if traced else {}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--child"]:
        return child(argv[1], argv[3:])
    ap = argparse.ArgumentParser(prog="python -m paiju.bench.connmem", description=__doc__.splitlines()[0])
    ap.add_argument("--idle", type=int, default=5000, help="connections to hold (default %(default)s)")
    ap.add_argument("--ramp", type=float, default=70.0, help="seconds over which they open (default %(default)s)")
    ap.add_argument(
        "--settle",
        type=float,
        default=SETTLE,
        help="seconds they are held once open before the RSS and the snapshot are read "
        "(default %(default)s: a keepalive round passes)",
    )
    args = ap.parse_args(argv)
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # the children inherit it
    n = min(args.idle, hard - FILE_RESERVE)
    # the two servers run side by side: what they measure is memory, which the other's CPU
    # does not change (each has its own holders), and the run takes half the time
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        plain = pool.submit(measure, n, args.ramp, traced=False, settle=args.settle)
        traced = pool.submit(measure, n, args.ramp, traced=True, settle=args.settle)
        before, held, _ = plain.result()
        _, _, owners = traced.result()
    rss = (held - before) / n
    print(f"{n:,} idle connections held by one process: RSS {before:,} -> {held:,} KiB, {rss:.2f} KiB a connection")
    total = sum(owners.values()) / n / 1024
    print(
        f"  traced (tracemalloc): {total:.2f} KiB a connection; the allocators' share of the RSS {rss - total:.2f} KiB"
    )
    for name, size in sorted(owners.items(), key=lambda x: -x[1]):
        if size / n >= 8:
            print(f"  {size / n / 1024:6.2f} KiB  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
