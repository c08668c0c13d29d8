"""The database: its URL, the async engine, and the Alembic migrations.

>>> normalize_url("postgresql://u:p@db/paiju")
'postgresql+asyncpg://u:p@db/paiju'
>>> normalize_url("sqlite:///tmp/x.db")
'sqlite+aiosqlite:///tmp/x.db'
>>> normalize_url("mysql://x")
Traceback (most recent call last):
...
ValueError: database URL 'mysql://x': paiju speaks SQLite (sqlite:///PATH) and PostgreSQL (postgresql://...)
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy import Connection, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine

if TYPE_CHECKING:
    from alembic.config import Config

# Alembic is imported by the functions that migrate, not here: a process that only reads and
# writes the records (the server's records writer, started with every `paiju serve`) would
# import it for nothing (a third of a second of CPU)
MIGRATIONS = Path(__file__).parent / "migrations"
ENV = "PAIJU_DATABASE"
T = TypeVar("T")


def default_url() -> str:
    """Env PAIJU_DATABASE, else a SQLite file under the user's data directory (created)."""
    if os.environ.get(ENV):
        return normalize_url(os.environ[ENV])
    from platformdirs import user_data_path

    folder = user_data_path("paiju", appauthor=False, ensure_exists=True)
    return f"sqlite+aiosqlite:///{folder / 'paiju.sqlite3'}"


def normalize_url(url: str) -> str:
    """The URL with the async driver paiju uses (aiosqlite, asyncpg); ValueError if unusable."""
    why = "paiju speaks SQLite (sqlite:///PATH) and PostgreSQL (postgresql://...)"
    try:
        u = make_url(url)
    except ArgumentError:
        raise ValueError(f"database URL {url!r}: {why}") from None
    backend = u.get_backend_name()
    if backend == "sqlite":
        u = u.set(drivername="sqlite+aiosqlite")
    elif backend in ("postgresql", "postgres"):
        u = u.set(drivername="postgresql+asyncpg")
    else:
        raise ValueError(f"database URL {url!r}: {why}")
    return u.render_as_string(hide_password=False)


def redacted(url: str) -> str:
    """The URL without its password (for logs and error messages)."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return "<malformed URL>"


def alembic_config() -> Config:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    return cfg


class Database:
    """``Database(url)``: the engine and the session factory; :meth:`upgrade` migrates."""

    def __init__(self, url: str | None = None, *, pool_size: int = 5) -> None:
        self.url = normalize_url(url) if url else default_url()
        u = make_url(self.url)
        self.sqlite = u.get_backend_name() == "sqlite"
        kwargs: dict[str, Any] = {}
        if self.sqlite:
            if u.database and u.database != ":memory:":
                Path(u.database).parent.mkdir(parents=True, exist_ok=True)
            kwargs["connect_args"] = {"timeout": 30}
        else:
            kwargs |= {"pool_size": pool_size, "max_overflow": pool_size, "pool_pre_ping": True}
        self.engine: AsyncEngine = create_async_engine(self.url, **kwargs)
        if self.sqlite:
            event.listen(self.engine.sync_engine, "connect", sqlite_pragmas)
        self.session: async_sessionmaker[AsyncSession] = async_sessionmaker(self.engine, expire_on_commit=False)

    def __repr__(self) -> str:
        return f"Database({redacted(self.url)!r})"

    async def upgrade(self, revision: str = "head") -> tuple[str | None, str | None]:
        """Migrate to ``revision`` (several servers starting at once take turns); the revisions
        before and after, read under the same lock (another server may have migrated first)."""

        from alembic import command
        from alembic.runtime.migration import MigrationContext

        def go(conn: Connection) -> tuple[str | None, str | None]:
            before = MigrationContext.configure(conn).get_current_revision()
            command.upgrade(_config(conn), revision)
            return before, MigrationContext.configure(conn).get_current_revision()

        return await self._run(go)

    async def downgrade(self, revision: str) -> None:
        from alembic import command

        await self._run(lambda conn: command.downgrade(_config(conn), revision))

    async def revision(self) -> str | None:
        """The database's current revision (None: empty)."""
        from alembic.runtime.migration import MigrationContext

        return await self._run(lambda conn: MigrationContext.configure(conn).get_current_revision())

    @staticmethod
    def head() -> str:
        from alembic.script import ScriptDirectory

        head = ScriptDirectory.from_config(alembic_config()).get_current_head()
        assert head is not None
        return head

    async def close(self) -> None:
        await self.engine.dispose()

    async def _run(self, fn: Callable[[Connection], T]) -> T:
        with self._file_lock():
            async with self.engine.begin() as conn:
                if not self.sqlite:
                    await conn.execute(text("SELECT pg_advisory_xact_lock(7105)"))  # 7105: paiju's migrations
                return await conn.run_sync(fn)

    @contextlib.contextmanager
    def _file_lock(self) -> Iterator[None]:
        """SQLite: servers started at once on one file take turns (DDL does not lock it)."""
        path = make_url(self.url).database
        if not self.sqlite or not path or path == ":memory:":
            yield
            return
        with open(f"{path}.migrating", "a") as f:
            fcntl.flock(f, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(f, fcntl.LOCK_UN)


def _config(conn: Connection) -> Config:
    cfg = alembic_config()
    cfg.attributes["connection"] = conn
    return cfg


def sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    # WAL: readers (the API) never wait for the writer; foreign keys are off by default in SQLite
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=30000")
    cur.close()
