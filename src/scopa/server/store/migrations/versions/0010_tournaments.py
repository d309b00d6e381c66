"""tournaments, tournament_entrants, tournament_tables: online events and club nights
(the tournament model's JSON, its entrants, the server tables of its rounds); tables.seeds
and tables.deals: a table's match of fixed deals (a tournament round's: the same hand
seeds at every table of a duplicate round), kept so a restart deals the same.

Revision ID: 0010_tournaments
Revises: 0009_email
"""

import sqlalchemy as sa
from alembic import op

revision = "0010_tournaments"
down_revision = "0009_email"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("seeds", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("deals", sa.Integer(), nullable=True))
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("organiser_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("event", sa.JSON(), nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("capacity", sa.Integer(), nullable=False),
        sa.Column("mode", sa.String(16), nullable=False),
        sa.Column("auto_next", sa.Boolean(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_tournaments_organiser_id", "tournaments", ["organiser_id"])
    op.create_index("ix_tournaments_status", "tournaments", ["status"])
    op.create_table(
        "tournament_entrants",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("event_id", sa.String(32), sa.ForeignKey("tournaments.id"), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("bot", sa.String(64), nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("event_id", "name"),
        sa.UniqueConstraint("event_id", "user_id"),
    )
    op.create_index("ix_tournament_entrants_event_id", "tournament_entrants", ["event_id"])
    op.create_table(
        "tournament_tables",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("event_id", sa.String(32), sa.ForeignKey("tournaments.id"), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("invite", sa.String(64), nullable=False),
        sa.Column("home_seat", sa.Integer(), nullable=False),
        sa.Column("entered", sa.Boolean(), nullable=False),
        sa.UniqueConstraint("event_id", "round", "number"),
    )
    op.create_index("ix_tournament_tables_event_id", "tournament_tables", ["event_id"])


def downgrade() -> None:
    op.drop_table("tournament_tables")
    op.drop_table("tournament_entrants")
    op.drop_table("tournaments")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("deals")
        batch.drop_column("seeds")
