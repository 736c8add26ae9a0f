"""Each seat's password check, made under the operator's check key (pbem.games.seat_passwords)

Revision ID: 0011_password_check
Revises: 0010_report_attachments
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011_password_check"
down_revision = "0010_report_attachments"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seat") as batch:
        batch.add_column(
            sa.Column("password_check", sa.String(length=64), nullable=False, server_default="")
        )


def downgrade() -> None:
    with op.batch_alter_table("seat") as batch:
        batch.drop_column("password_check")
