"""outbox retries: when to try a deferred mail again, and when it bounced

Revision ID: 0002_outbox_retries
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002_outbox_retries"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # batch mode: SQLite cannot drop columns in place (downgrade) without a table copy.
    with op.batch_alter_table("outbox") as batch:
        batch.add_column(sa.Column("next_attempt_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("bounced_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.drop_column("bounced_at")
        batch.drop_column("next_attempt_at")
