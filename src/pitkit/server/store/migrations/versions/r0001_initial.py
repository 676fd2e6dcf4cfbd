"""The first schema: tables, seats, matches and their steps.

Revision ID: 0001
Revises:
Create Date: 2025-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "tables",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("rules", sa.Text, nullable=False),
        sa.Column("settings", sa.Text, nullable=False),
        sa.Column("host_hash", sa.String(64), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("match_no", sa.Integer, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_index("ix_tables_status", "tables", ["status"])
    op.create_table(
        "seats",
        sa.Column("table_id", sa.String(24), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("bot", sa.String(40), nullable=True),
        sa.Column("name", sa.String(80), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.PrimaryKeyConstraint("table_id", "seat"),
    )
    op.create_table(
        "matches",
        sa.Column("table_id", sa.String(24), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("outcome", sa.Text, nullable=True),
        sa.Column("started", sa.Float, nullable=False),
        sa.Column("ended", sa.Float, nullable=True),
        sa.PrimaryKeyConstraint("table_id", "number"),
    )
    op.create_table(
        "steps",
        sa.Column("table_id", sa.String(24), nullable=False),
        sa.Column("match_no", sa.Integer, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("action", sa.Text, nullable=True),
        sa.Column("events", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.PrimaryKeyConstraint("table_id", "match_no", "version"),
        sa.ForeignKeyConstraint(["table_id", "match_no"], ["matches.table_id", "matches.number"]),
    )


def downgrade() -> None:
    op.drop_table("steps")
    op.drop_table("matches")
    op.drop_table("seats")
    op.drop_index("ix_tables_status", "tables")
    op.drop_table("tables")
