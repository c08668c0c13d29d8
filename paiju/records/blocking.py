"""Sessions of a SQLite records file whose calls block, for the records' writer process.

The writer (paiju/records/recorder.py, ``Recorder(writer=...)``) is a process of its own with
nothing else to run: there an async session's every statement is a hop to aiosqlite's thread
and back through SQLAlchemy's greenlet, which cost the writer more than the SQL (and under
load a fifth of the server's CPU: docs/performance.md). :class:`Blocking` opens the same file
with the standard ``sqlite3`` driver and hands the writes (paiju.records.matches, written for
an :class:`~sqlalchemy.ext.asyncio.AsyncSession`) a :class:`BlockingSession`: the same calls,
awaitable as there, each done at once. PostgreSQL keeps its async session (asyncpg).

>>> import asyncio, tempfile
>>> from sqlalchemy import text
>>> from paiju.records.database import Database
>>> db = Database(f"sqlite:///{tempfile.mkdtemp()}/r.sqlite3")
>>> async def one() -> int:
...     async with Blocking(db).begin() as s:
...         return (await s.execute(text("SELECT 1"))).scalar_one()
>>> asyncio.run(one())
1
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any, cast

from sqlalchemy import create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session, SessionTransaction, sessionmaker

from paiju.records.database import Database, sqlite_pragmas


class BlockingSession:
    """The calls of an :class:`AsyncSession` that the records' writes make, on a plain
    :class:`Session`: the awaitable ones return at once; the others are the session's own."""

    def __init__(self, s: Session) -> None:
        self.s = s

    def __repr__(self) -> str:
        return f"BlockingSession({self.s!r})"

    async def execute(self, *args: Any, **kw: Any) -> Any:
        return self.s.execute(*args, **kw)

    async def scalar(self, *args: Any, **kw: Any) -> Any:
        return self.s.scalar(*args, **kw)

    async def scalars(self, *args: Any, **kw: Any) -> Any:
        return self.s.scalars(*args, **kw)

    async def flush(self) -> None:
        self.s.flush()

    @contextlib.asynccontextmanager
    async def begin_nested(self) -> AsyncIterator[SessionTransaction]:
        with self.s.begin_nested() as t:
            yield t

    def __getattr__(self, name: str) -> Any:  # add, add_all, expunge, get_bind
        return getattr(self.s, name)


class Blocking:
    """``Blocking(db)``: transactions on SQLite database ``db`` through a blocking driver;
    ``begin()`` as ``db.session.begin()`` (committed when the block ends without error)."""

    def __init__(self, db: Database) -> None:
        assert db.sqlite, "a blocking session is for SQLite only"
        self.engine = create_engine(make_url(db.url).set(drivername="sqlite"), connect_args={"timeout": 30})
        event.listen(self.engine, "connect", sqlite_pragmas)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)

    def __repr__(self) -> str:
        return f"Blocking({self.engine.url!r})"

    @contextlib.asynccontextmanager
    async def begin(self) -> AsyncIterator[AsyncSession]:
        with self.sessions.begin() as s:
            yield cast(AsyncSession, BlockingSession(s))
