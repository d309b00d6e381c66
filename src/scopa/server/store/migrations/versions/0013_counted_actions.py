"""counted_actions: actions counted against limits in the database (mail per account, per
recipient and per client address; password-reset requests; reports), so a limit holds
across workers and under requests at once (``players.limits``).

Revision ID: 0013_counted_actions
Revises: 0012_ids_never_reused
"""

import sqlalchemy as sa
from alembic import op

revision = "0013_counted_actions"
down_revision = "0012_ids_never_reused"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "counted_actions",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("key", sa.String(200), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_counted_actions_key", "counted_actions", ["key"])
    op.create_index("ix_counted_actions_at", "counted_actions", ["at"])


def downgrade() -> None:
    op.drop_index("ix_counted_actions_at", "counted_actions")
    op.drop_index("ix_counted_actions_key", "counted_actions")
    op.drop_table("counted_actions")
