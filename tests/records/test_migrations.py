"""Alembic's migrations on real SQLite and PostgreSQL: from an empty database to the head, from
the previous revision (with data in it) to the head, and back down."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect, text

from paiju.records import Database
from paiju.records.models import Base


async def test_empty_to_head_matches_the_models(db_url: str) -> None:
    d = Database(db_url)
    try:
        assert await d.revision() is None
        await d.upgrade()
        assert await d.revision() == Database.head()
        async with d.engine.connect() as conn:
            diff = await conn.run_sync(lambda c: compare_metadata(MigrationContext.configure(c), Base.metadata))
        assert diff == [], f"the models and the migrations differ: {diff}"
        await d.upgrade()  # again: nothing to do
        assert await d.revision() == Database.head()
    finally:
        await d.close()


async def test_from_the_previous_revision_keeps_the_data(db_url: str) -> None:
    d = Database(db_url)
    try:
        await d.upgrade("0001")
        async with d.engine.begin() as conn:
            await conn.execute(
                text("INSERT INTO accounts (name, name_key, kind, created) VALUES ('Ann', 'ann', 'user', 1.0)")
            )
            await conn.execute(
                text(
                    "INSERT INTO matches (room_id, game, ruleset, options, seed, hands_planned, hands_played,"
                    " status, rated, started) VALUES ('r1', 'tricks', 'standard', '{}', 5, 1, 1, 'over', false, 1.0)"
                )
            )
            await conn.execute(
                text("INSERT INTO match_seats (match_id, seat, account_id, name, kind) VALUES (1, 0, 1, 'Ann', 'user')")
            )
        await d.upgrade()
        async with d.engine.connect() as conn:
            row = (await conn.execute(text("SELECT name, kind, rating_before FROM match_seats"))).one()
            tables = await conn.run_sync(lambda c: set(inspect(c).get_table_names()))
        assert tuple(row) == ("Ann", "user", None)
        assert "ratings" in tables
        await d.downgrade("0001")
        async with d.engine.connect() as conn:
            tables = await conn.run_sync(lambda c: set(inspect(c).get_table_names()))
            cols = await conn.run_sync(lambda c: {col["name"] for col in inspect(c).get_columns("match_seats")})
        assert "ratings" not in tables and "rating_before" not in cols
        assert (await d.revision()) == "0001"
        await d.downgrade("base")
        async with d.engine.connect() as conn:
            tables = await conn.run_sync(lambda c: set(inspect(c).get_table_names()))
        assert tables <= {"alembic_version"}
    finally:
        await d.close()


def test_paiju_db_upgrade_from_several_processes_at_once(tmp_path: Path) -> None:
    """Servers started together on one database migrate it once, without tripping on each other."""
    url = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    cmd = [sys.executable, "-m", "paiju", "db", "upgrade", "--database", url]
    procs = [subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) for _ in range(3)]
    outs = [p.communicate(timeout=120)[0] for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0], outs
    assert sum(f"revision (empty) -> {Database.head()}" in o for o in outs) == 1, outs
    current = subprocess.run(
        [sys.executable, "-m", "paiju", "db", "current", "--database", url], capture_output=True, text=True, timeout=60
    )
    assert f"revision {Database.head()} (up to date)" in current.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "paiju", "db", "upgrade", "--database", "mysql://x/y"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode == 2 and "paiju speaks SQLite" in bad.stderr
