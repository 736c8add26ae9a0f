"""The first turn a seat's present player gives orders for (seat.player_from): a new player
given the seat by a referee is never played with a former player's orders as standing orders
(pbem.clock.nmr)

Revision ID: 0017_seat_player_from
Revises: 0016_confirm_misses
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017_seat_player_from"
down_revision = "0016_confirm_misses"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seat") as batch:
        batch.add_column(sa.Column("player_from", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("seat") as batch:
        batch.drop_column("player_from")
