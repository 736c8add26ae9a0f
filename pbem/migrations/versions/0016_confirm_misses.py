"""The wrong CONFIRM codes sent for a waiting JOIN (join_request.misses) and a waiting address
change (seat.pending_misses): a few void the request (pbem.intake.codes)

Revision ID: 0016_confirm_misses
Revises: 0015_join_and_stop
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016_confirm_misses"
down_revision = "0015_join_and_stop"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("join_request") as batch:
        batch.add_column(sa.Column("misses", sa.Integer(), nullable=False, server_default="0"))
    with op.batch_alter_table("seat") as batch:
        batch.add_column(
            sa.Column("pending_misses", sa.Integer(), nullable=False, server_default="0")
        )


def downgrade() -> None:
    with op.batch_alter_table("seat") as batch:
        batch.drop_column("pending_misses")
    with op.batch_alter_table("join_request") as batch:
        batch.drop_column("misses")
