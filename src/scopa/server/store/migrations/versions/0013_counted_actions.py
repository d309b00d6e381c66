"""counted_actions: actions counted against limits in the database, one row per key (mail
per account, per recipient and per client address; password-reset requests and their one
mail a name; reports), so a limit holds across workers and under requests at once
(``players.limits``).

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
        sa.Column("key", sa.String(200), primary_key=True),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.Column("start", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_counted_actions_start", "counted_actions", ["start"])


def downgrade() -> None:
    op.drop_index("ix_counted_actions_start", "counted_actions")
    op.drop_table("counted_actions")
