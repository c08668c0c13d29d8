"""A bounded memo for the robots' hot analyses, cheap for the garbage collector.

``functools.lru_cache`` keeps its entries on a linked list that CPython's cyclic collector
walks, entry by entry, in every full collection: with the mahjong robot's caches full
(some 200,000 entries) a full collection of the server took 30-45 ms of CPU, and every
room of the process waited for it (docs/performance.md). :func:`bounded` keeps a plain
dict instead -- a dict whose keys and values are tuples of ints and bytes is not tracked
by the collector at all once a full collection has looked at it -- and when it is full,
it starts again empty: no order to keep, nothing for the collector to walk, memory
bounded. The price is a cold cache after each clearing, a small one at these sizes.

>>> calls = []
>>> @bounded(2)
... def square(x: int) -> int:
...     calls.append(x)
...     return x * x
>>> square(3), square(3), square(4), calls
(9, 9, 16, [3, 4])
>>> square(5), len(square.memo), calls  # full: cleared, then 5 kept
(25, 1, [3, 4, 5])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")


class Bounded(Generic[P, R]):
    """``fn`` memoised on its positional arguments, at most ``maxsize`` results kept."""

    def __init__(self, fn: Callable[P, R], maxsize: int) -> None:
        self.fn = fn
        self.maxsize = maxsize
        self.memo: dict[tuple[Any, ...], R] = {}
        self.__doc__ = fn.__doc__
        self.__name__ = fn.__name__
        self.__wrapped__ = fn

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        assert not kwargs, "bounded memos key on positional arguments only"
        try:
            return self.memo[args]
        except KeyError:
            pass
        result = self.fn(*args, **kwargs)
        if len(self.memo) >= self.maxsize:
            self.memo.clear()
        self.memo[args] = result
        return result

    def __repr__(self) -> str:
        return f"<bounded memo of {self.__name__}: {len(self.memo)} of {self.maxsize}>"


def bounded(maxsize: int) -> Callable[[Callable[P, R]], Bounded[P, R]]:
    """Memoise a function of hashable positional arguments, keeping at most ``maxsize`` results."""

    def wrap(fn: Callable[P, R]) -> Bounded[P, R]:
        return Bounded(fn, maxsize)

    return wrap
