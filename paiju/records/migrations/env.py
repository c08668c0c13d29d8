"""Alembic's environment: migrations run on the connection that :meth:`records.Database.upgrade`
passes in ``config.attributes["connection"]`` (there is no alembic.ini: the server and
`paiju db` drive Alembic from Python)."""

from __future__ import annotations

from alembic import context

from paiju.records.models import Base

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run the migrations with `paiju db upgrade` (records.Database.upgrade), not alembic's CLI")
# render_as_batch: SQLite alters a table by copying it, which Alembic's batch mode does for us
context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
