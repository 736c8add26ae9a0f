"""clocks: game deadline options, pause, seat misses and absences, turn NMR, reminders

Revision ID: 0003_clocks
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_clocks"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # batch mode: SQLite changes a column's length and drops columns only by a table copy.
    # Server defaults fill the rows that exist; new rows get their values from the models.
    with op.batch_alter_table("game") as batch:
        batch.alter_column(
            "deadline_policy",
            existing_type=sa.String(length=64),
            type_=sa.String(length=128),
            existing_nullable=False,
        )
        batch.add_column(
            sa.Column("timezone", sa.String(length=64), nullable=False, server_default="UTC")
        )
        batch.add_column(
            sa.Column("grace_seconds", sa.Integer(), nullable=False, server_default="0")
        )
        batch.add_column(
            sa.Column("reminders", sa.String(length=256), nullable=False, server_default="")
        )
        batch.add_column(
            sa.Column("nmr", sa.String(length=16), nullable=False, server_default="no-orders")
        )
        batch.add_column(
            sa.Column("abandon_after", sa.Integer(), nullable=False, server_default="0")
        )
        batch.add_column(
            sa.Column("wait_for_absent", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch.add_column(sa.Column("paused_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("paused_left", sa.Integer(), nullable=True))
    with op.batch_alter_table("seat") as batch:
        batch.add_column(sa.Column("missed", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("absent_until", sa.Date(), nullable=True))
    with op.batch_alter_table("turn") as batch:
        batch.add_column(sa.Column("opened_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("nmr", sa.Text(), nullable=False, server_default="{}"))
    op.create_table(
        "clock_reminder",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(length=64), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("seat", sa.String(length=64), nullable=False),
        sa.Column("before_seconds", sa.Integer(), nullable=False),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "turn", "seat", "before_seconds"),
    )


def downgrade() -> None:
    op.drop_table("clock_reminder")
    with op.batch_alter_table("turn") as batch:
        batch.drop_column("nmr")
        batch.drop_column("opened_at")
    with op.batch_alter_table("seat") as batch:
        batch.drop_column("absent_until")
        batch.drop_column("missed")
    with op.batch_alter_table("game") as batch:
        batch.drop_column("paused_left")
        batch.drop_column("paused_at")
        batch.drop_column("wait_for_absent")
        batch.drop_column("abandon_after")
        batch.drop_column("nmr")
        batch.drop_column("reminders")
        batch.drop_column("grace_seconds")
        batch.drop_column("timezone")
        batch.alter_column(
            "deadline_policy",
            existing_type=sa.String(length=128),
            type_=sa.String(length=64),
            existing_nullable=False,
        )
