"""A sent mail's bytes dropped after [outbox] keep_sent_days: when (outbox.pruned_at), and the
sent rows still kept, indexed for the prune

Revision ID: 0013_outbox_pruned
Revises: 0012_outbox_waiting
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013_outbox_pruned"
down_revision = "0012_outbox_waiting"
branch_labels = None
depends_on = None

KEPT = "pruned_at IS NULL AND sent_at IS NOT NULL"


def upgrade() -> None:
    # A column added, not raw made nullable: on SQLite that would copy the whole outbox
    # table (every mail ever sent) into a new one during the upgrade.
    with op.batch_alter_table("outbox") as batch:
        batch.add_column(sa.Column("pruned_at", sa.DateTime(timezone=True), nullable=True))
    op.create_index(
        "ix_outbox_kept",
        "outbox",
        ["sent_at"],
        postgresql_where=sa.text(KEPT),
        sqlite_where=sa.text(KEPT),
    )


def downgrade() -> None:
    op.drop_index("ix_outbox_kept", table_name="outbox")
    with op.batch_alter_table("outbox") as batch:
        batch.drop_column("pruned_at")
