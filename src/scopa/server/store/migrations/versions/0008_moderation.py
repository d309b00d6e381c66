"""blocks, player_reports, users.muted_until and users.suspended_until: blocking a
player, reporting one from their profile, and the operator's mute and suspension.

Revision ID: 0008_moderation
Revises: 0007_password_resets
"""

import sqlalchemy as sa
from alembic import op

revision = "0008_moderation"
down_revision = "0007_password_resets"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("muted_until", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("suspended_until", sa.DateTime(timezone=True),
                                   nullable=True))
    op.create_table(
        "blocks",
        sa.Column("blocker_id", sa.Integer(), sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("blocked_id", sa.Integer(), sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_blocks_blocked_id", "blocks", ["blocked_id"])
    op.create_table(
        "player_reports",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("reporter_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("reported_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("reason", sa.String(200), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_player_reports_reporter_id", "player_reports", ["reporter_id"])
    op.create_index("ix_player_reports_reported_id", "player_reports", ["reported_id"])
    op.create_index("ix_player_reports_created_at", "player_reports", ["created_at"])


def downgrade() -> None:
    op.drop_table("player_reports")
    op.drop_table("blocks")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("suspended_until")
        batch.drop_column("muted_until")
