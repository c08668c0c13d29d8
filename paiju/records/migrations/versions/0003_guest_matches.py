"""A guest's matches by name: an index on the seats' names.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_match_seats_name_match", "match_seats", ["name", "match_id"])


def downgrade() -> None:
    op.drop_index("ix_match_seats_name_match", table_name="match_seats")
