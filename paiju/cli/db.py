"""`paiju db`: the records database (accounts, match history, ratings).

``paiju db upgrade`` migrates it to the newest schema (``paiju serve`` does the same at
start-up); ``paiju db current`` prints its revision and where it is. The database is
``--database URL``, else env PAIJU_DATABASE, else a SQLite file under the user's data
directory: ``sqlite:///PATH`` or ``postgresql://USER:PASSWORD@HOST/NAME``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys


def add_database_argument(
    p: argparse.ArgumentParser | argparse._MutuallyExclusiveGroup,
    without: str | None = None,
) -> None:
    """``--database URL`` (shared with `paiju serve` and `paiju bench db`). By default env
    PAIJU_DATABASE, else the user's SQLite file; ``without`` says what happens without the
    option instead (the environment is then not read)."""
    default = without or "env PAIJU_DATABASE, else paiju.sqlite3 in the user's data directory"
    p.add_argument(
        "--database",
        default=None if without else (os.environ.get("PAIJU_DATABASE") or None),
        metavar="URL",
        help=f"sqlite:///PATH or postgresql://USER:PASSWORD@HOST/NAME (default: {default})",
    )


def add_arguments(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="db_command", metavar="ACTION", required=True)
    up = sub.add_parser("upgrade", help="migrate the database to the newest schema (creates it if needed)")
    up.add_argument("--revision", default="head", help="the revision to reach (default %(default)s)")
    add_database_argument(up)
    cur = sub.add_parser("current", help="print the database's URL (no password) and schema revision")
    add_database_argument(cur)


def open_database(url: str | None, command: str) -> object:
    """The Database for ``url``, or None after one line on stderr saying why not."""
    from paiju.records import Database

    try:
        return Database(url)
    except ValueError as e:
        print(f"{command}: {e}", file=sys.stderr)
        return None


async def _run(args: argparse.Namespace) -> int:
    from paiju.records import Database
    from paiju.records.database import redacted

    db = open_database(args.database, "paiju db")
    if not isinstance(db, Database):
        return 2
    try:
        if args.db_command == "upgrade":
            before, after = await db.upgrade(args.revision)
            print(f"{redacted(db.url)}: revision {before or '(empty)'} -> {after}")
        else:
            rev = await db.revision()
            head = Database.head()
            state = "up to date" if rev == head else f"behind {head}: run `paiju db upgrade`"
            print(f"{redacted(db.url)}: revision {rev or '(empty)'} ({state})")
    except (OSError, ConnectionError) as e:
        print(f"paiju db: cannot reach {redacted(db.url)}: {e}", file=sys.stderr)
        return 1
    except Exception as e:  # the driver's own errors (authentication, missing database, ...)
        if type(e).__module__.split(".")[0] not in ("sqlalchemy", "asyncpg", "sqlite3", "alembic"):
            raise
        print(f"paiju db: {redacted(db.url)}: {type(e).__name__}: {e}", file=sys.stderr)
        return 1
    finally:
        await db.close()
    return 0


def run(args: argparse.Namespace) -> int:
    return asyncio.run(_run(args))
