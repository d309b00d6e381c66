"""password_resets: one-time password-reset links (``scopa admin reset-password``).

Revision ID: 0007_password_resets
Revises: 0006_account_addresses
"""

import sqlalchemy as sa
from alembic import op

revision = "0007_password_resets"
down_revision = "0006_account_addresses"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "password_resets",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_password_resets_user_id", "password_resets", ["user_id"])


def downgrade() -> None:
    op.drop_table("password_resets")
