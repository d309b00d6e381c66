"""match_reviews: a finished match's review, asked by a player and judged by the analysis
workers one play at a time, kept with the match once done (``play.reviews``).

Revision ID: 0014_match_reviews
Revises: 0013_counted_actions
"""

import sqlalchemy as sa
from alembic import op

revision = "0014_match_reviews"
down_revision = "0013_counted_actions"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "match_reviews",
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("asker", sa.String(80), nullable=True),
        sa.Column("simulations", sa.Integer(), nullable=False),
        sa.Column("done", sa.Integer(), nullable=False),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.Column("review", sa.JSON(), nullable=True),
        sa.Column("error", sa.String(200), nullable=True),
        sa.Column("asked_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_match_reviews_asker", "match_reviews", ["asker"])


def downgrade() -> None:
    op.drop_index("ix_match_reviews_asker", "match_reviews")
    op.drop_table("match_reviews")
