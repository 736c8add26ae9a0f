"""outbox priority: replies to a person who just wrote go out before bulk mail

Revision ID: 0006_outbox_priority
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_outbox_priority"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.add_column(
            sa.Column("priority", sa.Integer(), nullable=False, server_default=sa.text("1"))
        )
    # Replies already waiting go first too.
    op.execute("UPDATE outbox SET priority = 0 WHERE kind = 'reply'")


def downgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.drop_column("priority")
