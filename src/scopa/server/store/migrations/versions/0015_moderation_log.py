"""moderation_actions, player_reports.handled_at, chat_reports.handled_at: one log of the
operator's acts (a mute or suspension set or lifted, a report closed) where the users'
columns kept only the one in force, and reports that can be closed
(``players.moderation``).

Revision ID: 0015_moderation_log
Revises: 0014_match_reviews
"""

import sqlalchemy as sa
from alembic import op

revision = "0015_moderation_log"
down_revision = "0014_match_reviews"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "moderation_actions",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("action", sa.String(24), nullable=False),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=True),
        sa.Column("report_id", sa.Integer(), nullable=True),
        sa.Column("until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("note", sa.String(200), nullable=True),
        sa.Column("by", sa.String(64), nullable=False),
    )
    op.create_index("ix_moderation_actions_at", "moderation_actions", ["at"])
    op.create_index("ix_moderation_actions_user_id", "moderation_actions", ["user_id"])
    op.add_column("player_reports",
                  sa.Column("handled_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("chat_reports",
                  sa.Column("handled_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    op.drop_column("chat_reports", "handled_at")
    op.drop_column("player_reports", "handled_at")
    op.drop_index("ix_moderation_actions_user_id", "moderation_actions")
    op.drop_index("ix_moderation_actions_at", "moderation_actions")
    op.drop_table("moderation_actions")
