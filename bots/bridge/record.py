"""The par of a finished board, for the RESULT a player reads: with no other table that played
the same deal, a match's IMPs are scored against the deal's par (the double-dummy result of
the auction both sides bid perfectly), as a "par datum".

Par needs the deal's double-dummy table (DDS, 20 solves: about a second on a busy machine), far
too slow for the room's event loop at the hand's end. So :func:`start_par` (a hand is dealt)
hands the deal to one background process, and :func:`par_record` (the hand ends, usually many
seconds later) only collects the figure. A process, not a thread: the server forks the robots'
worker processes, and a fork while a thread holds the import lock or is inside DDS leaves the
child locked (started by "spawn", the par process is no fork of the server either).
"""

from __future__ import annotations

from collections import OrderedDict
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

from ..pool import process_pool
from .arena import _dd_table as dd_table  # the arena's, cached per deal

_Key = tuple[tuple[bytes, ...], str, int]  # the deal, its vulnerability and dealer
_pool: ProcessPoolExecutor | None = None  # started with the first board: one DDS solve at a time
_STARTED: OrderedDict[_Key, Future[tuple[int, list[list[int]]]]] = OrderedDict()
_KEEP = 512  # boards started and not yet ended (abandoned rooms' ones drop out, oldest first)


def _key(game: Any) -> _Key:
    return (tuple(game.dealt), game.vulnerable, game.dealer)


def start_par(game: Any) -> None:
    """Start solving the deal of ``game`` (a bridge board just dealt) in the background."""
    global _pool
    key = _key(game)
    if key not in _STARTED:
        if _pool is None:
            _pool = process_pool()  # ended with the server, even killed outright
        _STARTED[key] = _pool.submit(dd_table, *key)
        while len(_STARTED) > _KEEP:
            _STARTED.popitem(last=False)


def par_record(game: Any) -> dict[str, Any]:
    """``{"par": p}``: the deal's par score for North-South (waits for :func:`start_par`'s
    solve, or solves now if the board was never started)."""
    start_par(game)
    par_ns, _ = _STARTED.pop(_key(game)).result()
    return {"par": par_ns}
