"""RESIGN, SET ADDRESS and PRESS: what a resignation does (game.resign), an address change
waiting for its confirmation (seat.pending_address, its code's hash and time), the game's press
options, a seat's muted press, and the relayed press mails (press)

Revision ID: 0009_resign_and_address
Revises: 0008_seed_salt
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009_resign_and_address"
down_revision = "0008_seed_salt"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game") as batch:
        batch.add_column(
            sa.Column("resign", sa.String(16), nullable=False, server_default="replace")
        )
        for name, default in (
            ("press", sa.true()),
            ("grey_press", sa.false()),
            ("press_to_referees", sa.false()),
            ("press_after_end", sa.false()),
        ):
            batch.add_column(sa.Column(name, sa.Boolean(), nullable=False, server_default=default))
    with op.batch_alter_table("seat") as batch:
        batch.add_column(
            sa.Column("pending_address", sa.String(320), nullable=False, server_default="")
        )
        batch.add_column(
            sa.Column("pending_code", sa.String(64), nullable=False, server_default="")
        )
        batch.add_column(sa.Column("pending_since", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(
            sa.Column("press_muted", sa.String(512), nullable=False, server_default="")
        )
    op.create_table(
        "press",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.String(64), sa.ForeignKey("game.id"), nullable=False),
        sa.Column("message_id", sa.String(998), nullable=False, unique=True),
        sa.Column("sender", sa.String(64), nullable=False),
        sa.Column("recipient", sa.String(64), nullable=False),
        sa.Column("anonymous", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_press_game_id", "press", ["game_id"])


def downgrade() -> None:
    op.drop_index("ix_press_game_id", "press")
    op.drop_table("press")
    with op.batch_alter_table("seat") as batch:
        batch.drop_column("press_muted")
        batch.drop_column("pending_since")
        batch.drop_column("pending_code")
        batch.drop_column("pending_address")
    with op.batch_alter_table("game") as batch:
        for name in ("press_after_end", "press_to_referees", "grey_press", "press", "resign"):
            batch.drop_column(name)
