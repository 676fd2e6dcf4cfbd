"""Each table's chat (issue 20).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "chat",
        sa.Column("table_id", sa.String(24), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.PrimaryKeyConstraint("table_id", "seq"),
    )


def downgrade() -> None:
    op.drop_table("chat")
