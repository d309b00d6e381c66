"""Bot accounts (``server.bots``): users.is_bot and the bot's author, variants, line,
whether it plays other bots and its last connection; bot_tokens (hashes of the bots' API
tokens); seats.bot_account (a seat kept for an online bot).

Revision ID: 0017_bot_accounts
Revises: 0016_puzzles
"""

import sqlalchemy as sa
from alembic import op

revision = "0017_bot_accounts"
down_revision = "0016_puzzles"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("users", sa.Column("is_bot", sa.Boolean(), nullable=False,
                                     server_default=sa.false()))
    op.add_column("users", sa.Column("bot_author_id", sa.Integer(), nullable=True))
    op.add_column("users", sa.Column("bot_variants", sa.JSON(), nullable=True))
    op.add_column("users", sa.Column("bot_about", sa.String(200), nullable=True))
    op.add_column("users", sa.Column("bot_allows_bots", sa.Boolean(), nullable=False,
                                     server_default=sa.false()))
    op.add_column("users", sa.Column("bot_seen_at", sa.DateTime(timezone=True), nullable=True))
    op.create_index("ix_users_bot_author_id", "users", ["bot_author_id"])
    op.create_table(
        "bot_tokens",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("token_hash", sa.String(128), nullable=False, unique=True),
        sa.Column("label", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_used", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_bot_tokens_user_id", "bot_tokens", ["user_id"])
    op.add_column("seats", sa.Column("bot_account", sa.Boolean(), nullable=False,
                                     server_default=sa.false()))


def downgrade() -> None:
    op.drop_column("seats", "bot_account")
    op.drop_index("ix_bot_tokens_user_id", "bot_tokens")
    op.drop_table("bot_tokens")
    op.drop_index("ix_users_bot_author_id", "users")
    for column in ("bot_seen_at", "bot_allows_bots", "bot_about", "bot_variants",
                   "bot_author_id", "is_bot"):
        op.drop_column("users", column)
