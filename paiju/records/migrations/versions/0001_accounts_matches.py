"""Accounts, sessions, matches, their seats and their hands.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("name_key", sa.String(64), nullable=False, unique=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("password_hash", sa.String(255), nullable=True),
        sa.Column("created", sa.Float(), nullable=False),
    )
    op.create_table(
        "sessions",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("created", sa.Float(), nullable=False),
        sa.Column("expires", sa.Float(), nullable=False),
    )
    op.create_index("ix_sessions_account_id", "sessions", ["account_id"])
    op.create_table(
        "matches",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("room_id", sa.String(64), nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("ruleset", sa.String(64), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("hands_planned", sa.Integer(), nullable=False),
        sa.Column("hands_played", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("started", sa.Float(), nullable=False),
        sa.Column("ended", sa.Float(), nullable=True),
        sa.Column("totals", sa.JSON(), nullable=True),
    )
    op.create_index("ix_matches_room_id", "matches", ["room_id"])
    op.create_index("ix_matches_game_id", "matches", ["game", "id"])
    op.create_table(
        "match_seats",
        sa.Column("match_id", sa.Integer(), sa.ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("total", sa.BigInteger(), nullable=True),
        sa.Column("rank", sa.Integer(), nullable=True),
    )
    op.create_index("ix_match_seats_account_match", "match_seats", ["account_id", "match_id"])
    op.create_table(
        "hands",
        sa.Column("match_id", sa.Integer(), sa.ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("hand", sa.Integer(), primary_key=True),
        sa.Column("actions", sa.JSON(), nullable=False),
        sa.Column("scores", sa.JSON(), nullable=False),
        sa.Column("revealed", sa.JSON(), nullable=False),
        sa.Column("detail", sa.JSON(), nullable=False),
        sa.Column("ended", sa.Float(), nullable=False),
    )


def downgrade() -> None:
    for table in ("hands", "match_seats", "matches", "sessions", "accounts"):
        op.drop_table(table)
