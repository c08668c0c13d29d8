"""The tables. Times are unix seconds (floats), as everywhere else in paiju.

The migrations in ``paiju/records/migrations/versions`` create exactly these tables; a test compares
the two (``tests/records/test_migrations.py``), so a change here needs a new revision there.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import JSON, BigInteger, Boolean, Float, ForeignKey, Index, Integer, String, false
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

NAME_LEN = 64
USER, GUEST, ROBOT = "user", "guest", "robot"  # kinds of seat holders (guests have no account row)
PLAYING, OVER, ABANDONED = "playing", "over", "abandoned"  # a match's status


class Base(DeclarativeBase):
    pass


class Account(Base):
    """A registered player (``user``, with an argon2 password hash) or a robot (``robot``,
    one per robot name and version, no password). ``name_key`` is the case-folded name: no
    two accounts share a name, whatever its case."""

    __tablename__ = "accounts"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(NAME_LEN))
    name_key: Mapped[str] = mapped_column(String(NAME_LEN), unique=True)
    kind: Mapped[str] = mapped_column(String(8))
    password_hash: Mapped[str | None] = mapped_column(String(255))
    created: Mapped[float] = mapped_column(Float)


class Session(Base):
    """A login: only the SHA-256 of the token is kept, so a stolen database opens no session."""

    __tablename__ = "sessions"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created: Mapped[float] = mapped_column(Float)
    expires: Mapped[float] = mapped_column(Float)


class Match(Base):
    """One room's match: created with its first finished hand (status ``playing``), closed in
    one transaction when it ends (``over``, or ``abandoned`` when the room closed early)."""

    __tablename__ = "matches"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[str] = mapped_column(String(NAME_LEN), index=True)
    game: Mapped[str] = mapped_column(String(16))
    ruleset: Mapped[str] = mapped_column(String(NAME_LEN))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)  # rules options beyond the named ruleset
    seed: Mapped[int] = mapped_column(BigInteger)  # served once the match is over (SPEC.md §10.2)
    salt: Mapped[str | None] = mapped_column(String(32))  # hex; with the seed, what the commitment hashes
    commitment: Mapped[str | None] = mapped_column(String(64))  # hex SHA-256(salt || seed), told before the first deal
    hands_planned: Mapped[int] = mapped_column(Integer)
    hands_played: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(10))
    rated: Mapped[bool] = mapped_column(Boolean)
    started: Mapped[float] = mapped_column(Float)
    ended: Mapped[float | None] = mapped_column(Float)
    totals: Mapped[list[int] | None] = mapped_column(JSON)
    __table_args__ = (Index("ix_matches_game_id", "game", "id"),)


class MatchSeat(Base):
    """Who held a seat (at the end of the match, or when its first hand ended while in play)."""

    __tablename__ = "match_seats"
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id", ondelete="SET NULL"))
    name: Mapped[str] = mapped_column(String(NAME_LEN))
    kind: Mapped[str] = mapped_column(String(8))
    total: Mapped[int | None] = mapped_column(BigInteger)
    rank: Mapped[int | None] = mapped_column(Integer)  # 1 = best (a team shares its rank)
    rating_before: Mapped[float | None] = mapped_column(Float)  # the ordinal (mu - 3 sigma)
    rating_after: Mapped[float | None] = mapped_column(Float)
    # a player's history: newest first, by account (a guest's: by name)
    __table_args__ = (
        Index("ix_match_seats_account_match", "account_id", "match_id"),
        Index("ix_match_seats_name_match", "name", "match_id"),
    )


class Hand(Base):
    """A finished hand: the action log (``[[seat, code, hex bytes], ...]``) that replays it from
    ``(game, seed, rules, hand)``, its scores, every seat's hand as RESULT revealed it and the game's detail."""

    __tablename__ = "hands"
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    hand: Mapped[int] = mapped_column(Integer, primary_key=True)
    actions: Mapped[list[list[Any]]] = mapped_column(JSON)
    scores: Mapped[list[int]] = mapped_column(JSON)
    revealed: Mapped[list[str]] = mapped_column(JSON)  # hex card bytes per seat, as RESULT.hands
    detail: Mapped[dict[str, Any]] = mapped_column(JSON)
    ended: Mapped[float] = mapped_column(Float)
    # its analysis (bridge's par, the trick game's solved values) is still to be added to
    # ``detail``: a server that restarts finishes it (paiju/server/analyses.py)
    analysis_pending: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false(), index=True)


class Rating(Base):
    """An account's openskill rating in one game; leaderboards sort by ``ordinal``."""

    __tablename__ = "ratings"
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    game: Mapped[str] = mapped_column(String(16), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    ordinal: Mapped[float] = mapped_column(Float)
    matches: Mapped[int] = mapped_column(Integer)
    updated: Mapped[float] = mapped_column(Float)
    __table_args__ = (Index("ix_ratings_game_ordinal", "game", "ordinal"),)
