"""RESIGN and SET ADDRESS: what a resignation does (game.resign) and an address change waiting
for its confirmation from the new address (seat.pending_address, its code's hash and time)

Revision ID: 0009_resign_and_address
Revises: 0008_seed_salt
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009_resign_and_address"
down_revision = "0008_seed_salt"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game") as batch:
        batch.add_column(
            sa.Column("resign", sa.String(16), nullable=False, server_default="replace")
        )
    with op.batch_alter_table("seat") as batch:
        batch.add_column(
            sa.Column("pending_address", sa.String(320), nullable=False, server_default="")
        )
        batch.add_column(
            sa.Column("pending_code", sa.String(64), nullable=False, server_default="")
        )
        batch.add_column(sa.Column("pending_since", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seat") as batch:
        batch.drop_column("pending_since")
        batch.drop_column("pending_code")
        batch.drop_column("pending_address")
    with op.batch_alter_table("game") as batch:
        batch.drop_column("resign")
