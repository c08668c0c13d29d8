"""Bounded memos for the robots' hot analyses, cheap for the garbage collector.

``functools.lru_cache(maxsize=N)`` keeps its entries on a linked list that CPython's
cyclic collector walks, entry by entry, in every full collection: the mahjong robot's
caches (some 200,000 entries when full) lengthened every full collection of the server,
and every room of the process waited for it (docs/performance.md).
``functools.cache`` keeps a plain dict (no list, the same C speed), and a dict whose keys
and values are tuples of ints and bytes is cheap to walk, or not tracked at all once the
collector has looked at it. What it lacks is a bound: :func:`bounded` registers each memo
with its size, and :func:`trim`, called once a decision by the robots that use them,
empties a memo that has grown past it. The price is a cold memo after each emptying, and
no per-call cost.

>>> calls = []
>>> @bounded(2)
... def square(x: int) -> int:
...     calls.append(x)
...     return x * x
>>> square(3), square(3), square(4), calls
(9, 9, 16, [3, 4])
>>> square(5), [trim() for _ in range(TRIM_EVERY)][-1], square.cache_info().currsize  # past its size: emptied
(25, None, 0)
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

R = TypeVar("R")

_MEMOS: list[tuple[functools._lru_cache_wrapper[Any], int]] = []  # every bounded memo, with its size


def bounded(maxsize: int) -> Callable[[Callable[..., R]], functools._lru_cache_wrapper[R]]:
    """Memoise a function of hashable arguments (``functools.cache``); :func:`trim` keeps
    it to ``maxsize`` results."""

    def wrap(fn: Callable[..., R]) -> functools._lru_cache_wrapper[R]:
        memo = functools.cache(fn)
        _MEMOS.append((memo, maxsize))
        return memo

    return wrap


TRIM_EVERY = 64  # calls of trim() between two looks at the memos' sizes
_calls = [0]


def trim() -> None:
    """Empty every bounded memo that has grown past its size. It looks once every
    :data:`TRIM_EVERY` calls: ``cache_info`` is dear enough to show in a server's profile,
    and a memo outgrows its size by no more than what that many decisions add."""
    _calls[0] += 1
    if _calls[0] % TRIM_EVERY:
        return
    for memo, maxsize in _MEMOS:
        if memo.cache_info().currsize > maxsize:
            memo.cache_clear()
