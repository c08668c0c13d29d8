"""Ratings: one openskill rating per account and game, and each seat's rating before and after.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("game", sa.String(16), primary_key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("ordinal", sa.Float(), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False),
        sa.Column("updated", sa.Float(), nullable=False),
    )
    op.create_index("ix_ratings_game_ordinal", "ratings", ["game", "ordinal"])
    with op.batch_alter_table("match_seats") as batch:
        batch.add_column(sa.Column("rating_before", sa.Float(), nullable=True))
        batch.add_column(sa.Column("rating_after", sa.Float(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("match_seats") as batch:
        batch.drop_column("rating_after")
        batch.drop_column("rating_before")
    op.drop_index("ix_ratings_game_ordinal", "ratings")
    op.drop_table("ratings")
