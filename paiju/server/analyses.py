"""The analyses a stopped server left pending, finished by the next one.

A hand is recorded when it ends (before its RESULT is sent, paiju/server/room.py), whether or
not its analysis (bridge's par, the trick game's solved values: the server's ``extras``) is
worked out yet; a hand recorded without it is marked ``analysis_pending`` and the analysis is
added when it comes. A server killed meanwhile leaves such hands behind: at start the server
deals each of them again from its match's seed (``games.create(game, seed, rules, hand=h)``),
hands the deal to the same ``extras`` (in their processes, off the event loop) and adds what
comes back to the hand's record, as its room would have (:func:`finish`).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from paiju import games
from paiju.records import Database, matches
from paiju.records.recorder import Recorder
from paiju.server.room import Extras

log = logging.getLogger("paiju.records")


async def finish(db: Database, recorder: Recorder, extras: Extras) -> int:
    """Work out and record every pending analysis in ``db``; how many were finished."""
    try:
        pending = await matches.pending_analyses(db, limit=100_000)
    except Exception as e:  # the records are not the game: the server goes on
        log.error("pending analyses not read: %s: %s", type(e).__name__, e)
        return 0
    if not pending:
        return 0
    log.info("%d hands recorded before their analysis was worked out: finishing it", len(pending))
    work = [_start(row, extras) for row in pending]
    done = 0
    for row, fut in zip(pending, work, strict=True):
        detail: dict[str, Any] = {}
        if fut is not None:
            try:
                detail = await fut
            except Exception as e:  # as a room records a failed analysis: without it, no longer pending
                log.error(
                    "match %d hand %d: analysis failed: %s: %s", row["match_id"], row["hand"], type(e).__name__, e
                )
        recorder.analysed(None, row["hand"], detail, match_id=row["match_id"])
        done += 1
    await recorder.flush()
    log.info("%d pending analyses finished", done)
    return done


def _start(row: dict[str, Any], extras: Extras) -> asyncio.Future[dict[str, Any]] | None:
    """The analysis of a pending hand, started (None: none for its game, or its deal failed)."""
    try:
        game = games.create(row["game"], row["seed"], matches.rules_of(row), hand=row["hand"])
        return extras(game, row["hands"])
    except Exception as e:
        log.error("match %d hand %d: analysis not started: %s: %s", row["match_id"], row["hand"], type(e).__name__, e)
        return None
