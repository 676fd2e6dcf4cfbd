"""Events: tournaments run from the server (docs/tournaments.md).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "events",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("name", sa.String(120), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "event_links",
        sa.Column("event_id", sa.String(24), sa.ForeignKey("events.id"), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("name", sa.String(80), nullable=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("revoked", sa.Float, nullable=True),
        sa.PrimaryKeyConstraint("event_id", "token_hash"),
    )
    op.create_table(
        "event_entries",
        sa.Column("event_id", sa.String(24), sa.ForeignKey("events.id"), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("author", sa.String(80), nullable=True),
        sa.Column("type", sa.String(32), nullable=False),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("corrects", sa.Integer, nullable=True),
        sa.PrimaryKeyConstraint("event_id", "seq"),
    )


def downgrade() -> None:
    op.drop_table("event_entries")
    op.drop_table("event_links")
    op.drop_table("events")
