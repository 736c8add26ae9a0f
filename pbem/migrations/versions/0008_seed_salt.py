"""seed commitment: the secret salt hashed with the game's seed for the start mail

Revision ID: 0008_seed_salt
Revises: 0007_merge_outbox
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008_seed_salt"
down_revision = "0007_merge_outbox"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game") as batch:
        batch.add_column(sa.Column("seed_salt", sa.String(64), nullable=False, server_default=""))


def downgrade() -> None:
    with op.batch_alter_table("game") as batch:
        batch.drop_column("seed_salt")
