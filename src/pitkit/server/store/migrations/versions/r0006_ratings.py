"""Ratings: each profile's openskill rating per game, and its rated matches
(docs/ratings.md).

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("profile_id", sa.String(16), sa.ForeignKey("profiles.id"), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("matches", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
        sa.PrimaryKeyConstraint("profile_id", "game"),
    )
    op.create_index("ix_ratings_game", "ratings", ["game"])
    op.create_table(
        "rated_matches",
        sa.Column("table_id", sa.String(24), nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("profile_id", sa.String(16), sa.ForeignKey("profiles.id"), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("mu_before", sa.Float, nullable=False),
        sa.Column("sigma_before", sa.Float, nullable=False),
        sa.Column("mu_after", sa.Float, nullable=False),
        sa.Column("sigma_after", sa.Float, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.PrimaryKeyConstraint("table_id", "number", "profile_id"),
        sa.ForeignKeyConstraint(["table_id", "number"], ["matches.table_id", "matches.number"]),
    )
    op.create_index("ix_rated_matches_profile", "rated_matches", ["profile_id", "at"])


def downgrade() -> None:
    op.drop_table("rated_matches")
    op.drop_index("ix_ratings_game", "ratings")
    op.drop_table("ratings")
