"""join the outbox retries, clocks and referee branches

Revision ID: 0005_merge_features
Revises: 0002_outbox_retries, 0003_clocks, 0004_referee
"""

from __future__ import annotations

revision = "0005_merge_features"
down_revision = ("0002_outbox_retries", "0003_clocks", "0004_referee")
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Nothing to change: the three branches touch separate tables and columns."""


def downgrade() -> None:
    """Nothing to change."""
