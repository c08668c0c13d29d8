"""The par of a finished board, for the RESULT a player reads: with no other table that played
the same deal, a match's IMPs are scored against the deal's par (the double-dummy result of
the auction both sides bid perfectly), as a "par datum".

Par needs the deal's double-dummy table (DDS, 20 solves: about a second on a busy machine), far
too slow for the room's event loop. So :func:`par_future` (a hand is dealt) hands the deal to
one background process and returns a future of the figure, which the server adds to the
hand's RESULT (when it comes before the hand ends, usually many seconds later) and to its
record, without ever waiting for it. A process, not a thread: the server forks the robots'
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


def start() -> ProcessPoolExecutor:
    """The solver's process, started (and DDS loaded) ahead of the first board."""
    global _pool
    if _pool is None:
        _pool = process_pool()  # ended with the server, even killed outright
        _pool.submit(_load)
    return _pool


def _load() -> None:
    from . import arena  # noqa: F401 (endplay's DDS with it)


def start_par(game: Any) -> None:
    """Start solving the deal of ``game`` (a bridge board just dealt) in the background."""
    key = _key(game)
    if key not in _STARTED:
        _STARTED[key] = start().submit(dd_table, *key)
        while len(_STARTED) > _KEEP:
            _STARTED.popitem(last=False)


def par_future(game: Any) -> Future[dict[str, Any]]:
    """``{"par": p}`` for the deal of ``game`` (a bridge board just dealt), North-South's par
    score, when its background solve is done: nothing waits for it here."""
    start_par(game)
    solving = _STARTED.pop(_key(game))
    out: Future[dict[str, Any]] = Future()

    def done(f: Future[tuple[int, list[list[int]]]]) -> None:
        try:
            out.set_result({"par": f.result()[0]})
        except BaseException as e:  # the pool broke, or the solve failed: the record goes without par
            out.set_exception(e)

    solving.add_done_callback(done)
    return out
