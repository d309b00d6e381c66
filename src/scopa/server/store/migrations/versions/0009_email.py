"""users.email and users.email_verified; password_resets.purpose and .email: an optional,
checked e-mail address on the account, and password resets by e-mail.

Revision ID: 0009_email
Revises: 0008_moderation
"""

import sqlalchemy as sa
from alembic import op

revision = "0009_email"
down_revision = "0008_moderation"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("email", sa.String(254), nullable=True))
        batch.add_column(sa.Column("email_verified", sa.Boolean(), nullable=False,
                                   server_default=sa.false()))
    with op.batch_alter_table("password_resets") as batch:
        batch.add_column(sa.Column("purpose", sa.String(16), nullable=False,
                                   server_default="password"))
        batch.add_column(sa.Column("email", sa.String(254), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("password_resets") as batch:
        batch.drop_column("email")
        batch.drop_column("purpose")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("email_verified")
        batch.drop_column("email")
