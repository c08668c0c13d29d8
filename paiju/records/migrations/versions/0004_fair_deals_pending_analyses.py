"""Provably fair deals and durable hands: a match's salt and commitment, and the hands whose
analysis is still to be added.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("matches") as b:
        b.add_column(sa.Column("salt", sa.String(32), nullable=True))
        b.add_column(sa.Column("commitment", sa.String(64), nullable=True))
    with op.batch_alter_table("hands") as b:
        b.add_column(sa.Column("analysis_pending", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.create_index("ix_hands_analysis_pending", "hands", ["analysis_pending"])


def downgrade() -> None:
    op.drop_index("ix_hands_analysis_pending", table_name="hands")
    with op.batch_alter_table("hands") as b:
        b.drop_column("analysis_pending")
    with op.batch_alter_table("matches") as b:
        b.drop_column("commitment")
        b.drop_column("salt")
