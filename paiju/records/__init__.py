"""paiju's records: accounts, finished hands and matches, and ratings, in a SQL database.

SQLAlchemy 2 (asyncio) over SQLite (aiosqlite, the embedded default: a file under the user's
data directory) or PostgreSQL (asyncpg, in deployment); the schema is Alembic's, migrated at
start-up. One concept per module:

- :mod:`paiju.records.database` -- the URL, the engine, the migrations (:class:`Database`);
- :mod:`paiju.records.models` -- the tables;
- :mod:`paiju.records.accounts` -- names, passwords (argon2), session tokens (stored hashed), robots;
- :mod:`paiju.records.matches` -- writing hands and matches, reading a player's history and a match;
- :mod:`paiju.records.ratings` -- one openskill (Plackett-Luce) rating per account and game;
- :mod:`paiju.records.recorder` -- the queue between the rooms and the database;
- :mod:`paiju.records.api` -- the JSON HTTP API over all of it.

The server never blocks on the database: rooms hand what ended to the recorder, which writes
it in its own task.
"""

from __future__ import annotations

from paiju.records.database import Database, default_url

__all__ = ["Database", "default_url"]
