"""account_addresses: the addresses accounts were used from and sign-ups tried from
(the sign-up throttle, and no rating between accounts sharing an address).

Revision ID: 0006_account_addresses
Revises: 0005_name_skeleton
"""

import sqlalchemy as sa
from alembic import op

revision = "0006_account_addresses"
down_revision = "0005_name_skeleton"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "account_addresses",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=True),
        sa.Column("address", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_account_addresses_user_id", "account_addresses", ["user_id"])
    op.create_index("ix_account_addresses_address", "account_addresses", ["address"])
    op.create_index("ix_account_addresses_at", "account_addresses", ["at"])


def downgrade() -> None:
    op.drop_table("account_addresses")
