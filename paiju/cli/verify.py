"""`paiju verify MATCH`: check that a finished match's deals were fixed before its first card.

The match's seed and salt, revealed at its end, must hash to the commitment every seat and
spectator got in ROOM_STATE before the first deal (SHA-256(salt || seed)), and every recorded
hand must be what ``games.create(game, seed, rules, hand=h)`` deals, its recorded actions
replayed on it (each legal) to the hands and scores recorded (paiju/records/verify.py).
Exit 0 when every check passes, 1 when one fails (a tampered record) or the match is not
there or still in play, 2 for a bad argument.

The record comes from a server's records API (``--url http://HOST:PORT``: what any player
can check from outside) or from the records database (``--database``, the default).
``--commitment HEX`` also checks the record's commitment against the one you saw at the table.

    paiju verify 12 --url http://127.0.0.1:8765
    paiju verify 12 --database sqlite:///paiju.sqlite3 --commitment 3fa2...
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
import urllib.error
import urllib.request
from typing import Any

from paiju.cli.db import add_database_argument, open_database


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.description = __doc__.split("\n\n")[1].replace("\n", " ") if __doc__ else None
    p.add_argument("match", type=int, metavar="MATCH", help="the match's id (GET /api/matches/ID, the match page)")
    src = p.add_mutually_exclusive_group()
    src.add_argument("--url", metavar="URL", help="read the match from this server's records API (http://HOST:PORT)")
    add_database_argument(src)
    p.add_argument(
        "--commitment",
        metavar="HEX",
        help="the commitment you saw at the table (ROOM_STATE): the record's must equal it",
    )
    p.add_argument("--json", action="store_true", help="print the report as JSON")


def run(args: argparse.Namespace) -> int:
    if args.commitment is not None and not re.fullmatch(r"[0-9a-fA-F]{64}", args.commitment):
        print("paiju verify: --commitment must be 64 hex digits (a SHA-256)", file=sys.stderr)
        return 2
    record = _from_api(args.url, args.match) if args.url else asyncio.run(_from_database(args.database, args.match))
    if isinstance(record, str):
        print(f"paiju verify: {record}", file=sys.stderr)
        return 1
    from paiju.records.verify import check

    report = check(record, args.commitment)
    if args.json:
        print(json.dumps(report.json(), indent=1))
    else:
        print(f"match {report.match} ({record['game']}, {record['ruleset']}, {record['status']}):")
        for line in report.lines:
            print("  " + line)
        if report.ok:
            print(f"match {report.match}: ok: every deal ({report.deals} hands) comes from the committed seed")
        else:
            n = len(report.problems)
            print(
                f"match {report.match}: FAILED: {n} check{'s' * (n != 1)} failed: the record is not what was promised"
            )
    return 0 if report.ok else 1


def _from_api(url: str, match: int) -> dict[str, Any] | str:
    """The match's JSON from the records API at ``url``, or why not."""
    address = f"{url.rstrip('/')}/api/matches/{match}"
    try:
        with urllib.request.urlopen(address, timeout=30) as r:
            got: dict[str, Any] = json.loads(r.read())
            return got
    except urllib.error.HTTPError as e:
        try:
            return f"{address}: {e.code}: {json.loads(e.read())['error']['message']}"
        except (ValueError, KeyError, TypeError):
            return f"{address}: HTTP {e.code}"
    except (urllib.error.URLError, OSError, ValueError) as e:
        return f"{address}: {getattr(e, 'reason', e)}"


async def _from_database(url: str | None, match: int) -> dict[str, Any] | str:
    """The match from the records database at ``url``, or why not."""
    from paiju.records import Database, matches
    from paiju.records.api import public
    from paiju.records.database import redacted

    db = open_database(url, "paiju verify")
    if not isinstance(db, Database):
        return "no database"
    try:
        return public(await matches.match(db, match))
    except matches.NotFound as e:
        return f"{redacted(db.url)}: {e}"
    except Exception as e:  # the driver's own errors (no such file, authentication...)
        return f"{redacted(db.url)}: {type(e).__name__}: {e}"
    finally:
        await db.close()
