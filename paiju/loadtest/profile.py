"""Summarise a py-spy profile: the functions that take the most samples, inclusive and self.

``py-spy record -f raw -o prof.txt -- python -m paiju serve ...`` writes collapsed stacks
(``frame;frame;... count`` a line); ``python -m paiju.loadtest.profile prof.txt [--top 25]``
prints, per function (``name (file)``, line numbers dropped), the share of samples in
which it is on the stack (inclusive) and at its top (self). The event loop's idle wait
(``select``/``epoll``) shows as its own line, so the busy share is 100 % minus it.

>>> summarise(["a (x.py:1);b (y.py:2) 3", "a (x.py:1);c (y.py:9) 1"])[:2]
[('a (x.py)', 100.0, 0.0), ('b (y.py)', 75.0, 75.0)]
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

_LINE = re.compile(r":\d+\)$")
_MYPYC = re.compile(r"^CPy(?:Def|Py)_(\w+) \((.*)\)$")


def frame_name(f: str) -> str:
    """A frame's name, its line number dropped; a function compiled by mypyc (``py-spy
    --native``) named as in Python, its class and method (its C file in brackets), so that
    the pure and the compiled builds' profiles read alike.

    >>> frame_name("CPyDef_room___Room____carry_out (__native_paiju___server___room.c)")
    'Room._carry_out (__native_paiju___server___room.c)'
    >>> frame_name("encode (paiju/protocol/frames.py:120)")
    'encode (paiju/protocol/frames.py)'
    """
    m = _MYPYC.match(f)
    if m is None:
        return _LINE.sub(")", f)
    parts = m.group(1).split("___")
    return f"{'.'.join(parts[-2:])} ({m.group(2)})"


def stacks(lines: Iterable[str]) -> Iterator[tuple[list[str], int]]:
    """``(frames, samples)`` of each collapsed stack, outermost frame first, lines dropped;
    with ``py-spy --native``, the C wrapper of a compiled function and the function itself
    are one frame."""
    for line in lines:
        stack, _, count = line.rstrip().rpartition(" ")
        if stack and count.isdigit():
            frames: list[str] = []
            for f in stack.split(";"):
                name = frame_name(f)
                if not frames or frames[-1] != name:
                    frames.append(name)
            yield frames, int(count)


def summarise(lines: Iterable[str]) -> list[tuple[str, float, float]]:
    """``[(function, inclusive %, self %)]``, most inclusive first."""
    inclusive: Counter[str] = Counter()
    own: Counter[str] = Counter()
    total = 0
    for frames, n in stacks(lines):
        total += n
        for f in set(frames):
            inclusive[f] += n
        own[frames[-1]] += n
    if not total:
        return []
    return sorted(
        ((f, round(100 * c / total, 1), round(100 * own[f] / total, 1)) for f, c in inclusive.items()),
        key=lambda x: (-x[1], -x[2], x[0]),
    )


# Where a server's main thread spends its samples (``--groups``): the first group whose test
# matches a stack takes it. The event loop's own thread only: the database driver's worker
# threads show in py-spy as busy while they wait on their queue.
GROUPS: tuple[tuple[str, Callable[[list[str]], bool]], ...] = (
    ("idle (waiting in epoll)", lambda f: f[-1].startswith(("EpollSelector.select", "select (", "epoll_pwait ("))),
    (
        "robot decisions (the robots' own code)",
        lambda f: any(x.startswith(("RandomRobot.", "BDIRobot.", "PerfectRobot.")) for x in f),
    ),
    ("the game (apply, legal, view)", lambda f: any(re.match(r"(Mahjong|Tricks|Bridge|Niujiu|Game)\.", x) for x in f)),
    # (on uvloop the transport's write is C code, whose time py-spy counts to its Python
    # caller; with --native, the system call is libc's ``write``)
    (
        "socket writes (the system call)",
        lambda f: (
            f[-1].startswith(("_SelectorSocketTransport.write", "Connection._flush"))
            or (f[-1].startswith("write (") and any(x.startswith("Connection._flush") for x in f))
        ),
    ),
    ("encoding frames", lambda f: any(x.startswith("encode (") for x in f)),
    ("records (the recorder's SQL)", lambda f: any(x.startswith("Recorder._run") for x in f)),
    (
        "other processes' pipes (records writer, analyses, robots' pool)",
        lambda f: any(x.startswith(("CallPool.", "_ConnectionBase.")) for x in f),
    ),
    ("HELLO's account check", lambda f: any(x.startswith("check_hello") for x in f)),
    ("room and table (the rest)", lambda f: any(x.startswith(("Room.feed", "Room._carry")) for x in f)),
    (
        "framing and queueing out (the rest)",
        lambda f: any(x.startswith(("Connection._flush", "_Lingering.")) for x in f),
    ),
    (
        "bus and robot worker (the rest)",
        lambda f: any(x.startswith(("Worker.", "MemoryBus.", "RoomHost.route_decisions")) for x in f),
    ),
    (
        "reading, handshakes, lobby (the rest)",
        lambda f: any(
            x.startswith(
                (
                    "_SelectorSocketTransport._read",
                    "serve.<locals>",
                    "Gate.handler",
                    "Reader.data_received",
                    "BaseSelectorEventLoop._accept",
                )
            )
            for x in f
        ),
    ),
)


def groups(lines: Iterable[str]) -> list[tuple[str, float]]:
    """``[(group, % of the main thread's samples)]``, largest first (see GROUPS).

    >>> top = "_run_module_as_main (runpy.py:1);"
    >>> groups([top + "Room.feed (room.py:2) 3", top + "encode (frames.py:9) 1"])
    [('room and table (the rest)', 75.0), ('encoding frames', 25.0)]
    """
    counts: Counter[str] = Counter()
    total = 0
    for frames, n in stacks(lines):
        # (with --native, C frames of libc come before the interpreter's first)
        if not any(f.startswith(("_run_module_as_main", "<module> (paiju")) for f in frames[:3]):  # another thread
            continue
        total += n
        counts[next((g for g, test in GROUPS if test(frames)), "other")] += n
    return [(g, round(100 * c / total, 1)) for g, c in counts.most_common()] if total else []


def main() -> None:
    p = argparse.ArgumentParser(prog="python -m paiju.loadtest.profile", description=__doc__.splitlines()[0])
    p.add_argument("file", type=Path, help="py-spy record -f raw output")
    p.add_argument("--top", type=int, default=25)
    p.add_argument("--self", dest="by_self", action="store_true", help="order by self share")
    p.add_argument("--match", default="", help="only functions whose name contains this")
    p.add_argument("--groups", action="store_true", help="the main thread's samples by kind of work")
    a = p.parse_args()
    if a.groups:
        for g, share in groups(a.file.read_text().splitlines()):
            print(f"{share:>6.1f} %  {g}")
        return
    rows = [r for r in summarise(a.file.read_text().splitlines()) if a.match in r[0]]
    if a.by_self:
        rows.sort(key=lambda x: -x[2])
    print(f"{'inclusive %':>11} {'self %':>7}  function")
    for f, inc, own in rows[: a.top]:
        print(f"{inc:>11.1f} {own:>7.1f}  {f}")


if __name__ == "__main__":
    main()
