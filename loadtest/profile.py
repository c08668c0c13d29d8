"""Summarise a py-spy profile: the functions that take the most samples, inclusive and self.

``py-spy record -f raw -o prof.txt -- python -m paiju serve ...`` writes collapsed stacks
(``frame;frame;... count`` a line); ``python -m loadtest.profile prof.txt [--top 25]``
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
from collections.abc import Iterable
from pathlib import Path

_LINE = re.compile(r":\d+\)$")


def summarise(lines: Iterable[str]) -> list[tuple[str, float, float]]:
    """``[(function, inclusive %, self %)]``, most inclusive first."""
    inclusive: Counter[str] = Counter()
    own: Counter[str] = Counter()
    total = 0
    for line in lines:
        stack, _, count = line.rstrip().rpartition(" ")
        if not stack or not count.isdigit():
            continue
        n = int(count)
        total += n
        frames = [_LINE.sub(")", f) for f in stack.split(";")]
        for f in set(frames):
            inclusive[f] += n
        own[frames[-1]] += n
    if not total:
        return []
    return sorted(
        ((f, round(100 * c / total, 1), round(100 * own[f] / total, 1)) for f, c in inclusive.items()),
        key=lambda x: (-x[1], -x[2], x[0]),
    )


def main() -> None:
    p = argparse.ArgumentParser(prog="python -m loadtest.profile", description=__doc__.splitlines()[0])
    p.add_argument("file", type=Path, help="py-spy record -f raw output")
    p.add_argument("--top", type=int, default=25)
    p.add_argument("--self", dest="by_self", action="store_true", help="order by self share")
    p.add_argument("--match", default="", help="only functions whose name contains this")
    a = p.parse_args()
    rows = [r for r in summarise(a.file.read_text().splitlines()) if a.match in r[0]]
    if a.by_self:
        rows.sort(key=lambda x: -x[2])
    print(f"{'inclusive %':>11} {'self %':>7}  function")
    for f, inc, own in rows[: a.top]:
        print(f"{inc:>11.1f} {own:>7.1f}  {f}")


if __name__ == "__main__":
    main()
