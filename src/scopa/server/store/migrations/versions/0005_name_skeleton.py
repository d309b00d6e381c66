"""users.name_skeleton: the TR39 skeleton of the name (lookalike.py), unique, so no two
accounts have names that look alike. Existing accounts get theirs; where two older names
already look alike, the later account's skeleton is suffixed with its id (both stay, and
no new name like either can be made).

Revision ID: 0005_name_skeleton
Revises: 0004_abandoned
"""

import sqlalchemy as sa
from alembic import op

from scopa.server.common.lookalike import name_skeleton

revision = "0005_name_skeleton"
down_revision = "0004_abandoned"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("name_skeleton", sa.String(96), nullable=True))
    users = sa.table("users", sa.column("id", sa.Integer), sa.column("name", sa.String),
                     sa.column("name_skeleton", sa.String))
    conn = op.get_bind()
    seen: set[str] = set()
    for uid, name in conn.execute(sa.select(users.c.id, users.c.name).order_by(users.c.id)):
        key = name_skeleton(name)[:80]
        if key in seen:
            key = f"{key}#{uid}"
        seen.add(key)
        conn.execute(users.update().where(users.c.id == uid).values(name_skeleton=key))
    op.create_index("ix_users_name_skeleton", "users", ["name_skeleton"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_users_name_skeleton", "users")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("name_skeleton")
