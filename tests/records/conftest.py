"""Real databases for the records' tests: a SQLite file, and a throwaway PostgreSQL cluster
(initdb + pg_ctl on a free loopback port, in a temporary folder; Debian's `postgresql`, which
./dev.sh test installs). Where PostgreSQL is not installed its tests are skipped, with the
reason in pytest's summary."""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path

import asyncpg
import pytest
from sqlalchemy import text

from records import Database
from records.models import Base
from tests.redis.conftest import free_port

_dbs = itertools.count(1)


def pg_bin(tool: str) -> str | None:
    found = shutil.which(tool)
    if found:
        return found
    versions = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{tool}"))
    return versions[-1] if versions else None


@dataclass
class PostgresCluster:
    """A PostgreSQL server of our own: ``url(db)`` for SQLAlchemy, ``create()`` a fresh database."""

    folder: Path
    port: int
    user: str | None  # the OS user that runs it (root may not: then "postgres")

    @property
    def dsn(self) -> str:
        return f"postgresql://paiju@127.0.0.1:{self.port}"

    migrated: bool = False

    async def create(self) -> str:
        """A new, empty database."""
        name = f"t{os.getpid()}_{next(_dbs)}"
        await self._execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    async def emptied(self) -> Database:
        """The one migrated database, its rows deleted (quicker than a new database per test)."""
        if not self.migrated:
            await self._execute('CREATE DATABASE "migrated"')
        d = Database(self.url("migrated"))
        if not self.migrated:
            await d.upgrade()
            self.migrated = True
        tables = ", ".join(t.name for t in Base.metadata.sorted_tables)
        async with d.engine.begin() as conn:
            await conn.execute(text(f"TRUNCATE {tables} RESTART IDENTITY CASCADE"))
        return d

    def url(self, name: str) -> str:
        return f"postgresql+asyncpg://paiju@127.0.0.1:{self.port}/{name}"

    async def _execute(self, sql: str) -> None:
        conn = await asyncpg.connect(f"{self.dsn}/postgres")
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    def run(self, *cmd: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(cmd, user=self.user, capture_output=True, text=True, timeout=60, check=False)


def start_postgres() -> PostgresCluster:
    initdb, pg_ctl = pg_bin("initdb"), pg_bin("pg_ctl")
    if initdb is None or pg_ctl is None:
        pytest.skip("PostgreSQL is not installed (no initdb/pg_ctl): apt-get install postgresql, or ./dev.sh test")
    user = None
    folder = Path(tempfile.mkdtemp(prefix="paiju-pg-"))
    if os.geteuid() == 0:  # initdb refuses to run as root
        try:
            pw = pwd.getpwnam("postgres")
        except KeyError:
            pytest.skip("running as root and there is no 'postgres' user to run PostgreSQL as")
        os.chown(folder, pw.pw_uid, pw.pw_gid)
        user = "postgres"
    cluster = PostgresCluster(folder, free_port(), user)
    data = str(folder / "data")
    r = cluster.run(initdb, "-D", data, "-U", "paiju", "-A", "trust", "-E", "UTF8", "--no-locale", "--no-sync")
    if r.returncode != 0:
        raise RuntimeError(f"initdb failed: {r.stderr}")
    opts = f"-p {cluster.port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off"
    r = cluster.run(pg_ctl, "-D", data, "-o", opts, "-l", str(folder / "log"), "-w", "-t", "60", "start")
    if r.returncode != 0:
        log = (folder / "log").read_text() if (folder / "log").exists() else ""
        raise RuntimeError(f"pg_ctl start failed: {r.stderr}{log}")
    return cluster


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresCluster]:
    cluster = start_postgres()
    try:
        yield cluster
    finally:
        cluster.run(pg_bin("pg_ctl") or "pg_ctl", "-D", str(cluster.folder / "data"), "-m", "immediate", "stop")
        shutil.rmtree(cluster.folder, ignore_errors=True)


@pytest.fixture(params=["sqlite", "postgresql"])
async def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The URL of an empty database of each kind."""
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'paiju.sqlite3'}"
    cluster: PostgresCluster = request.getfixturevalue("postgres")
    return await cluster.create()


@pytest.fixture(params=["sqlite", "postgresql"])
async def db(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Database]:
    """A migrated database of each kind, with no rows."""
    if request.param == "sqlite":
        d = Database(f"sqlite+aiosqlite:///{tmp_path / 'paiju.sqlite3'}")
        await d.upgrade()
    else:
        cluster: PostgresCluster = request.getfixturevalue("postgres")
        d = await cluster.emptied()
    try:
        yield d
    finally:
        await d.close()
