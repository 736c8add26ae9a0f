"""referee powers: referee notes, archived branches of turns and orders, the opt-out

Revision ID: 0004_referee
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_referee"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game") as batch:
        batch.add_column(
            sa.Column(
                "announce_referee_actions",
                sa.Boolean(),
                nullable=False,
                server_default=sa.true(),  # existing games keep telling their players
            )
        )
    op.create_table(
        "referee_note",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(length=64), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("actor", sa.String(length=320), nullable=False),
        sa.Column("action", sa.String(length=64), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("effect", sa.Text(), nullable=False),
        sa.Column("public", sa.Boolean(), nullable=False),
        sa.Column("edit_path", sa.String(length=256), nullable=False),
        sa.Column("edit_value", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_referee_note_game_id"), "referee_note", ["game_id"], unique=False)
    op.create_table(
        "archived_turn",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(length=64), nullable=False),
        sa.Column("branch", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("state_before", sa.Text(), nullable=False),
        sa.Column("state_after", sa.Text(), nullable=True),
        sa.Column("record", sa.Text(), nullable=True),
        sa.Column("deadline", sa.DateTime(timezone=True), nullable=True),
        sa.Column("resolved_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("archived_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "branch", "number"),
    )
    op.create_index(op.f("ix_archived_turn_game_id"), "archived_turn", ["game_id"], unique=False)
    op.create_table(
        "archived_order_set",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(length=64), nullable=False),
        sa.Column("branch", sa.Integer(), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("seat", sa.String(length=64), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("line_map", sa.Text(), nullable=False),
        sa.Column("message_id", sa.String(length=998), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("received_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "branch", "turn", "seat"),
    )
    op.create_index(
        op.f("ix_archived_order_set_game_id"), "archived_order_set", ["game_id"], unique=False
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_archived_order_set_game_id"), table_name="archived_order_set")
    op.drop_table("archived_order_set")
    op.drop_index(op.f("ix_archived_turn_game_id"), table_name="archived_turn")
    op.drop_table("archived_turn")
    op.drop_index(op.f("ix_referee_note_game_id"), table_name="referee_note")
    op.drop_table("referee_note")
    with op.batch_alter_table("game") as batch:
        batch.drop_column("announce_referee_actions")
