"""The outbox's waiting rows indexed in the order a drain sends them (priority, id), on
PostgreSQL: every ten mails it sent, a drain read all the rows not sent and sorted them

Revision ID: 0012_outbox_waiting
Revises: 0011_password_check
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012_outbox_waiting"
down_revision = "0011_password_check"
branch_labels = None
depends_on = None

WAITING = "sent_at IS NULL AND bounced_at IS NULL AND dropped_at IS NULL"


def upgrade() -> None:
    # SQLite's planner reads the waiting rows by ix_outbox_sent_at and leaves this one unused.
    if op.get_bind().dialect.name == "postgresql":
        op.create_index(
            "ix_outbox_waiting", "outbox", ["priority", "id"], postgresql_where=sa.text(WAITING)
        )


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.drop_index("ix_outbox_waiting", table_name="outbox")
