"""The par of a finished board, for the RESULT a player reads: with no other table that played
the same deal, a match's IMPs are scored against the deal's par (the double-dummy result of
the auction both sides bid perfectly), as a "par datum".

Par needs the deal's double-dummy table (DDS, 20 solves: about a second on a busy machine), far
too slow for the room's event loop. So :func:`par_future` (a hand is dealt) hands the deal to
a process of its own (:func:`pool`) and returns a future of the figure, which the server adds to the
hand's RESULT (when it comes before the hand ends, usually many seconds later) and to its
record, without ever waiting for it. A process, not a thread: DDS holds the GIL while it solves.
"""

from __future__ import annotations

import asyncio
from typing import Any

from paiju.bots.bridge.arena import dd_table  # the arena's, cached per deal
from paiju.bots.pool import CallPool


def pool() -> CallPool:
    """The solver's process (one DDS solve at a time), started by the first board's par: a
    server that deals no bridge never starts it (a process and DDS's memory spared; the first
    par waits the some half second DDS takes to load, and nothing waits for par)."""
    return CallPool(1, name="paiju-par")


def par_future(pool: CallPool, game: Any) -> asyncio.Future[dict[str, Any]]:
    """``{"par": p}`` for the deal of ``game`` (a bridge board just dealt), North-South's par
    score, when ``pool``'s process has solved it: nothing waits for it here."""
    return pool.submit(_par, tuple(game.dealt), game.vulnerable, game.dealer)


def _par(dealt: tuple[bytes, ...], vulnerable: str, dealer: int) -> dict[str, Any]:
    return {"par": dd_table(dealt, vulnerable, dealer)[0]}
