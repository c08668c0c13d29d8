"""The one way the asyncio shells run a sans-I/O core (the lobby, a room's table): feed it an
input at the event loop's time, hand its outputs to the shell, and keep a timer set for the
core's next deadline, at which it is fed its tick.

The timer is set again after each input, with one economy: a timer already set to ring earlier
is kept (it rings, finds nothing due, and sets itself again), because nearly every move puts a
room's deadline later, and a timer cancelled and made again each move costs more than one ring
a clock's length. A ring feeds the tick at the deadline at the earliest (the loop may run a
timer a hair before its time).

>>> class Counter:  # a core: one deadline, 50 ms after each input
...     def __init__(self):
...         self.due = None
...     def handle(self, msg, now):
...         self.due = None if msg == "tick" else now + 0.05
...         return [(msg, now)]
...     def next_deadline(self):
...         return self.due
>>> async def main():
...     seen = []
...     runner = Runner(Counter(), "tick", lambda msg, outs: seen.extend(outs))
...     runner.feed("hello", now=asyncio.get_running_loop().time())
...     await asyncio.sleep(0.2)
...     return [m for m, _ in seen]
>>> asyncio.run(main())
['hello', 'tick']
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Generic, Protocol, TypeVar

In = TypeVar("In")
Out = TypeVar("Out")
Done = TypeVar("Done")
In_contra = TypeVar("In_contra", contravariant=True)


class Core(Protocol[In_contra, Out]):
    """A sans-I/O core: its outputs for one input at time ``now``, and when it wants its tick."""

    def handle(self, msg: In_contra, now: float) -> list[Out]: ...

    def next_deadline(self) -> float | None: ...


def loop_time() -> float:
    """The event loop's clock (the cores' ``now``), or the monotonic clock it reads when no loop
    runs (asyncio's loop.time())."""
    try:
        return asyncio.get_running_loop().time()
    except RuntimeError:
        return time.monotonic()


class Runner(Generic[In, Out, Done]):
    """``Runner(core, tick, carry)``: feeds ``core`` on the event loop (see the module's
    docstring); ``carry(input, outputs)`` carries the outputs out and its answer is
    :meth:`feed`'s.
    ``stopped()`` true: no timer is set (a closed room)."""

    def __init__(
        self,
        core: Core[In, Out],
        tick: In,
        carry: Callable[[In, list[Out]], Done],
        stopped: Callable[[], bool] = lambda: False,
    ) -> None:
        self.core = core
        self.tick = tick
        self.carry = carry
        self.stopped = stopped
        self._timer: asyncio.TimerHandle | None = None
        self._when: float | None = None
        # the loop that runs the core, kept: asyncio.get_running_loop() makes a system call
        # (getpid: a forked child must not find its parent's loop) at every call
        self._loop: asyncio.AbstractEventLoop | None = None

    def feed(self, msg: In, now: float | None = None) -> Done:
        """Hand ``msg`` to the core at ``now`` (default: the loop's time), carry out what it
        says, and set the timer for its next deadline."""
        done = self.carry(msg, self.core.handle(msg, self._now() if now is None else now))
        self.schedule()
        return done

    def _now(self) -> float:
        """The running loop's time (as :func:`loop_time`), the loop kept while it runs."""
        loop = self._loop
        if loop is None or not loop.is_running():
            try:
                loop = self._loop = asyncio.get_running_loop()
            except RuntimeError:
                return time.monotonic()
        return loop.time()

    def schedule(self) -> None:
        """Have the timer ring by the core's next deadline (an earlier timer is kept)."""
        when = None if self.stopped() else self.core.next_deadline()
        if when == self._when or (when is not None and self._when is not None and when > self._when):
            return
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._when = when
        if when is not None:
            loop = self._loop
            if loop is None or not loop.is_running():
                loop = self._loop = asyncio.get_running_loop()
            self._timer = loop.call_at(when, self._ring, when)

    def stop(self) -> None:
        """No more rings."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._when = None

    def _ring(self, when: float) -> None:
        self._timer, self._when = None, None
        self.feed(self.tick, max(self._now(), when))
