"""puzzles, puzzle_days, puzzle_attempts, puzzle_ratings: "find the play" puzzles made by
``scopa puzzles make`` and checked on load, the puzzle of each day, each account's first
answer, and each account's puzzle rating apart from its game ratings (``server.puzzles``).

Revision ID: 0016_puzzles
Revises: 0015_moderation_log
"""

import sqlalchemy as sa
from alembic import op

revision = "0016_puzzles"
down_revision = "0015_moderation_log"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "puzzles",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("body", sa.JSON(), nullable=False),
        sa.Column("rating", sa.Integer(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("solved", sa.Integer(), nullable=False),
        sa.Column("loaded_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_puzzles_rating", "puzzles", ["rating"])
    op.create_table(
        "puzzle_days",
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("puzzle_id", sa.String(16), sa.ForeignKey("puzzles.id"), nullable=False),
    )
    op.create_table(
        "puzzle_attempts",
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("puzzle_id", sa.String(16), sa.ForeignKey("puzzles.id"), primary_key=True),
        sa.Column("correct", sa.Boolean(), nullable=False),
        sa.Column("move", sa.JSON(), nullable=False),
        sa.Column("rating_before", sa.Integer(), nullable=False),
        sa.Column("rating_after", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "puzzle_ratings",
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("solved", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("puzzle_ratings")
    op.drop_table("puzzle_attempts")
    op.drop_table("puzzle_days")
    op.drop_index("ix_puzzles_rating", "puzzles")
    op.drop_table("puzzles")
