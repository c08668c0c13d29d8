"""The garbage collector of a long-running process: freeze what start-up made, collect the
young less often.

CPython's cyclic collector walks every object it tracks in a full (generation 2)
collection, and while it runs every room of the process waits. Two things made those
pauses the p99 of action -> next prompt under load (docs/performance.md, "What the
server does to get there"):

- a process of paiju imports some 93,000 tracked objects (SQLAlchemy, the Prometheus
  client, the games, the robots) that live as long as it does, and a full collection of
  them alone takes tens of milliseconds (``python -m paiju.bench.heap`` prints how many and how
  long on this machine). :func:`settle` moves them into the permanent generation,
  which collections skip (the frozen objects are still freed by reference counting when
  nothing refers to them);
- with the default threshold (a young collection every 700 new objects) the objects of an
  action that is still being answered survive two young collections and are promoted,
  so the old generation fills with short-lived objects and is walked in full every second
  or so. :data:`YOUNG` young objects between collections lets most of them die young.

>>> import gc
>>> before = gc.get_threshold()
>>> settle()
>>> gc.get_freeze_count() > 0, gc.get_threshold()[0] == YOUNG
(True, True)
>>> gc.unfreeze(); gc.set_threshold(*before)  # as it was, for the rest of this process
"""

from __future__ import annotations

import gc

YOUNG = 10_000  # tracked objects allocated between two young collections (CPython: 700)


def settle() -> None:
    """Collect once, freeze every object still alive and raise the young threshold (call
    when start-up is over)."""
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG, middle, old)
