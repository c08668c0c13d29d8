"""Real databases for the records' tests: a SQLite file, and a throwaway PostgreSQL cluster
(paiju.testing.pgcluster: initdb + pg_ctl on a free loopback port; Debian's `postgresql`, which
./dev.sh test installs). Where PostgreSQL cannot run its tests are skipped, with the reason in
pytest's summary."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from sqlalchemy import text

from paiju.records import Database
from paiju.records.models import Base
from paiju.testing.pgcluster import Cluster, Unavailable


class Postgres:
    """The session's cluster, and its one migrated database that tests empty and reuse
    (quicker than a database per test)."""

    def __init__(self, cluster: Cluster) -> None:
        self.cluster = cluster
        self.migrated: str | None = None

    async def emptied(self) -> Database:
        if self.migrated is None:
            url = await self.cluster.create("migrated")
            d = Database(url)
            await d.upgrade()
            self.migrated = url
        else:
            d = Database(self.migrated)
        tables = ", ".join(t.name for t in Base.metadata.sorted_tables)
        async with d.engine.begin() as conn:
            await conn.execute(text(f"TRUNCATE {tables} RESTART IDENTITY CASCADE"))
        return d


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    try:
        cluster = Cluster.start()
    except Unavailable as e:
        pytest.skip(str(e))
    try:
        yield Postgres(cluster)
    finally:
        cluster.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
async def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The URL of an empty database of each kind."""
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'paiju.sqlite3'}"
    pg: Postgres = request.getfixturevalue("postgres")
    return await pg.cluster.create()


@pytest.fixture(params=["sqlite", "postgresql"])
async def db(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Database]:
    """A migrated database of each kind, with no rows."""
    if request.param == "sqlite":
        d = Database(f"sqlite+aiosqlite:///{tmp_path / 'paiju.sqlite3'}")
        await d.upgrade()
    else:
        pg: Postgres = request.getfixturevalue("postgres")
        d = await pg.emptied()
    try:
        yield d
    finally:
        await d.close()
