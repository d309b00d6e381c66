"""Table chat (messages and reports) and the teach-me table setting.

Revision ID: 0003_chat
Revises: 0002_players
"""

import sqlalchemy as sa
from alembic import op

revision = "0003_chat"
down_revision = "0002_players"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("teach", sa.Boolean(), nullable=False,
                                   server_default=sa.true()))
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("channel", sa.String(16), nullable=False),
        sa.Column("author", sa.String(16), nullable=False),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("text", sa.String(1000), nullable=True),
        sa.Column("phrase", sa.String(64), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_chat_messages_table_id", "chat_messages", ["table_id"])
    op.create_table(
        "chat_reports",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("message_id", sa.Integer(), sa.ForeignKey("chat_messages.id"),
                  nullable=False),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("reporter", sa.String(16), nullable=False),
        sa.Column("reporter_name", sa.String(64), nullable=True),
        sa.Column("reason", sa.String(200), nullable=True),
        sa.Column("context", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("message_id", "reporter"),
    )
    op.create_index("ix_chat_reports_message_id", "chat_reports", ["message_id"])
    op.create_index("ix_chat_reports_created_at", "chat_reports", ["created_at"])


def downgrade() -> None:
    op.drop_table("chat_reports")
    op.drop_table("chat_messages")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("teach")
