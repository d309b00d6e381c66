"""The abandon mark of a rated match, kept with the seat (it survives a restart).

Revision ID: 0004_abandoned
Revises: 0003_chat
"""

import sqlalchemy as sa
from alembic import op

revision = "0004_abandoned"
down_revision = "0003_chat"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("abandoned_match", sa.String(32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("abandoned_match")
