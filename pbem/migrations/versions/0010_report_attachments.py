"""Report attachments: the game's pictures, report_data and chart_every options, and each
seat's SET PICTURES and SET DATA

Revision ID: 0010_report_attachments
Revises: 0009_resign_and_address
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010_report_attachments"
down_revision = "0009_resign_and_address"
branch_labels = None
depends_on = None

SWITCHES = ("pictures", "report_data")


def _switch(name: str) -> sa.Column[bool]:
    return sa.Column(name, sa.Boolean(), nullable=False, server_default=sa.true())


def upgrade() -> None:
    with op.batch_alter_table("game") as batch:
        for name in SWITCHES:
            batch.add_column(
                sa.Column(name, sa.Boolean(), nullable=False, server_default=sa.true())
            )
        batch.add_column(
            sa.Column("chart_every", sa.Integer(), nullable=False, server_default="10")
        )
    with op.batch_alter_table("seat") as batch:
        for name in SWITCHES:
            batch.add_column(
                sa.Column(name, sa.Boolean(), nullable=False, server_default=sa.true())
            )


def downgrade() -> None:
    with op.batch_alter_table("seat") as batch:
        for name in SWITCHES:
            batch.drop_column(name)
    with op.batch_alter_table("game") as batch:
        batch.drop_column("chart_every")
        for name in SWITCHES:
            batch.drop_column(name)
