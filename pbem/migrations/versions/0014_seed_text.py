"""the game's seed as its decimal text: a new game's seed has 128 bits, more than BIGINT holds

Revision ID: 0014_seed_text
Revises: 0013_outbox_pruned
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014_seed_text"
down_revision = "0013_outbox_pruned"
branch_labels = None
depends_on = None

BIGINT = 2**63  # BIGINT holds -BIGINT .. BIGINT - 1


def upgrade() -> None:
    # Every seed stored so far (below 2**31) becomes the same number's decimal text, the text
    # its dice and commitment were always made from: old games replay as they were.
    _retype("VARCHAR(40)", "TEXT", "seed::varchar(40)")


def downgrade() -> None:
    # Refused, not cut short: a 128-bit seed put into BIGINT would be another game's dice.
    for game_id, seed in op.get_bind().execute(sa.text("SELECT id, seed FROM game")):
        if not -BIGINT <= int(seed) < BIGINT:
            raise RuntimeError(
                f"game {game_id} has a 128-bit seed, which the schema before 0014 cannot hold: "
                "it stays at this version"
            )
    _retype("BIGINT", "INTEGER", "seed::bigint")


def _retype(sql_type: str, sqlite_cast: str, postgresql_using: str) -> None:
    if op.get_bind().dialect.name != "sqlite":
        op.execute(f"ALTER TABLE game ALTER COLUMN seed TYPE {sql_type} USING {postgresql_using}")
        return
    # SQLite changes a column's type only with a new column: batch mode's copy of the table
    # would drop `game`, which every seat, turn and mail refers to (foreign keys refuse it,
    # and cannot be turned off inside the migration's transaction). A column added, filled,
    # the old one dropped and the new one renamed (SQLite 3.35) touches no other table.
    op.execute(f"ALTER TABLE game ADD COLUMN seed_new {sql_type} NOT NULL DEFAULT 0")
    op.execute(f"UPDATE game SET seed_new = CAST(seed AS {sqlite_cast})")
    op.execute("ALTER TABLE game DROP COLUMN seed")
    op.execute("ALTER TABLE game RENAME COLUMN seed_new TO seed")
