"""JOINs waiting for their address's CONFIRM (join_request), addresses that asked for no more
mail (mail_stop), and the site's key of their STOP tokens (site_key): issue 42, 4

Revision ID: 0015_join_and_stop
Revises: 0014_seed_text
"""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from alembic import op

revision = "0015_join_and_stop"
down_revision = "0014_seed_text"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "join_request",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.String(length=64), sa.ForeignKey("game.id"), nullable=False),
        sa.Column("seat", sa.String(length=64), nullable=False),
        sa.Column("address", sa.String(length=320), nullable=False),
        sa.Column("password_hash", sa.String(length=256), nullable=False),
        sa.Column("code", sa.String(length=64), nullable=False),
        sa.Column("asked_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("game_id", "address"),
    )
    op.create_index("ix_join_request_game_id", "join_request", ["game_id"])
    op.create_table(
        "mail_stop",
        sa.Column("address", sa.String(length=320), primary_key=True),
        sa.Column("stopped_at", sa.DateTime(timezone=True), nullable=False),
    )
    keys = op.create_table(
        "site_key",
        sa.Column("name", sa.String(length=32), primary_key=True),
        sa.Column("value", sa.String(length=128), nullable=False),
    )
    # The key of the STOP tokens (pbem.games.stops): random, made once for the site.
    op.bulk_insert(keys, [{"name": "stop", "value": secrets.token_hex(32)}])


def downgrade() -> None:
    op.drop_table("site_key")
    op.drop_table("mail_stop")
    op.drop_index("ix_join_request_game_id", table_name="join_request")
    op.drop_table("join_request")
