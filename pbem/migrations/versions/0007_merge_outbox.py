"""join the outbox priority (issue 14) and stale-notice (issue 20) branches

Revision ID: 0007_merge_outbox
Revises: 0006_outbox_priority, 0006_outbox_stale
"""

from __future__ import annotations

revision = "0007_merge_outbox"
down_revision = ("0006_outbox_priority", "0006_outbox_stale")
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Nothing to change: the two branches add separate columns to the outbox."""


def downgrade() -> None:
    """Nothing to change."""
