"""Transactions on a SQLite records file through the ``sqlite3`` driver itself, for the records'
writer process.

The writer (paiju/records/recorder.py, ``Recorder(writer=...)``) is a process of its own with
nothing else to run: there an async session's every statement was a hop to aiosqlite's thread
and back through SQLAlchemy's greenlet, and every statement of a session some 0.2 ms of
SQLAlchemy's own work, most of the writer's CPU (docs/performance.md). :class:`Blocking` keeps
one connection open and hands each transaction :class:`paiju.records.batch.OnSqlite`: the
batch's plain SQL on the driver. PostgreSQL keeps its async session (asyncpg).

Durability: the file is in WAL mode with ``synchronous=NORMAL``
(:func:`paiju.records.database.sqlite_pragmas`): a committed transaction is in the WAL file
before COMMIT returns, so it survives the server or the writer being killed (what a RESULT
promises: docs/operations.md); only a power loss or an operating system crash before the next
checkpoint may roll back the last transactions.

>>> import asyncio, tempfile
>>> from paiju.records.database import Database
>>> db = Database(f"sqlite:///{tempfile.mkdtemp()}/r.sqlite3")
>>> async def one() -> list:
...     async with Blocking(db).begin() as q:
...         return await q.rows("SELECT 1")
>>> asyncio.run(one())
[(1,)]
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import AsyncIterator

from sqlalchemy.engine import make_url

from paiju.records.batch import OnSqlite
from paiju.records.database import Database, sqlite_pragmas


class Blocking:
    """``Blocking(db)``: transactions on SQLite database ``db`` through its blocking driver;
    ``begin()`` gives the transaction's :class:`OnSqlite` (committed when the block ends
    without error, else rolled back)."""

    def __init__(self, db: Database) -> None:
        assert db.sqlite, "a blocking session is for SQLite only"
        self.path = make_url(db.url).database or ":memory:"
        self._conn: sqlite3.Connection | None = None

    def __repr__(self) -> str:
        return f"Blocking({self.path!r})"

    def connection(self) -> sqlite3.Connection:
        if self._conn is None:
            conn = sqlite3.connect(self.path, timeout=30, isolation_level=None)  # transactions: ours
            sqlite_pragmas(conn, None)
            self._conn = conn
        return self._conn

    @contextlib.asynccontextmanager
    async def begin(self) -> AsyncIterator[OnSqlite]:
        conn = self.connection()
        conn.execute("BEGIN IMMEDIATE")  # the write lock now (waiting for it): no upgrade to fail later
        try:
            yield OnSqlite(conn)
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None
