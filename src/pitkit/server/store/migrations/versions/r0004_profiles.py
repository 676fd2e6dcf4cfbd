"""Players' profiles: devices, one-time codes, passkeys, and the seats they hold
(docs/profiles.md).

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "profiles",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("skeleton", sa.String(320), nullable=False),
        sa.Column("colour", sa.String(7), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("ix_profiles_skeleton", "profiles", ["skeleton"], unique=True)
    op.create_table(
        "profile_devices",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("id", sa.String(16), nullable=False),
        sa.Column("profile_id", sa.String(16), sa.ForeignKey("profiles.id"), nullable=False),
        sa.Column("how", sa.String(16), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("ix_profile_devices_id", "profile_devices", ["id"], unique=True)
    op.create_index("ix_profile_devices_profile", "profile_devices", ["profile_id"])
    op.create_table(
        "profile_codes",
        sa.Column("code_hash", sa.String(64), primary_key=True),
        sa.Column("profile_id", sa.String(16), sa.ForeignKey("profiles.id"), nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_index("ix_profile_codes_profile", "profile_codes", ["profile_id"])
    op.create_table(
        "profile_passkeys",
        sa.Column("credential_id", sa.String(1400), primary_key=True),
        sa.Column("profile_id", sa.String(16), sa.ForeignKey("profiles.id"), nullable=False),
        sa.Column("public_key", sa.Text, nullable=False),
        sa.Column("sign_count", sa.BigInteger, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("ix_profile_passkeys_profile", "profile_passkeys", ["profile_id"])
    op.create_table(
        "profile_challenges",
        sa.Column("challenge", sa.String(128), primary_key=True),
        sa.Column("purpose", sa.String(16), nullable=False),
        sa.Column("profile_id", sa.String(16), nullable=True),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_table(
        "profile_seats",
        sa.Column("table_id", sa.String(24), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("profile_id", sa.String(16), sa.ForeignKey("profiles.id"), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.PrimaryKeyConstraint("table_id", "token_hash"),
    )
    op.create_index("ix_profile_seats_profile", "profile_seats", ["profile_id"])


def downgrade() -> None:
    op.drop_table("profile_seats")
    op.drop_table("profile_challenges")
    op.drop_table("profile_passkeys")
    op.drop_table("profile_codes")
    op.drop_table("profile_devices")
    op.drop_table("profiles")
