"""outbox: notices that go stale (expires_at, topic) and the rows dropped for it (dropped_at)

Revision ID: 0006_outbox_stale
Revises: 0005_merge_features
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_outbox_stale"
down_revision = "0005_merge_features"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.add_column(sa.Column("expires_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(
            sa.Column("topic", sa.String(length=200), nullable=False, server_default="")
        )
        batch.add_column(sa.Column("dropped_at", sa.DateTime(timezone=True), nullable=True))
        batch.create_index("ix_outbox_topic", ["topic"])


def downgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.drop_index("ix_outbox_topic")
        batch.drop_column("dropped_at")
        batch.drop_column("topic")
        batch.drop_column("expires_at")
