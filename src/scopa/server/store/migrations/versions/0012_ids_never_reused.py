"""users.id never given twice: SQLite reused the newest id once its row was deleted (a new
account inherited a deleted one's id, and with it an event's organising and its seats'
owner); AUTOINCREMENT keeps the highest id ever given. SQLite can only add it by
rebuilding the table (its data kept; ``migrate.upgrade`` turns the foreign keys off while
it runs and checks them all before committing). PostgreSQL's sequences never reuse an
id: nothing to do there.

Revision ID: 0012_ids_never_reused
Revises: 0011_rating_scale
"""

from alembic import op

revision = "0012_ids_never_reused"
down_revision = "0011_rating_scale"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    with op.batch_alter_table("users", recreate="always",
                              table_kwargs={"sqlite_autoincrement": True}):
        pass


def downgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    with op.batch_alter_table("users", recreate="always",
                              table_kwargs={"sqlite_autoincrement": False}):
        pass
