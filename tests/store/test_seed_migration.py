"""Migration 0014 (the seed as its decimal text), on SQLite and PostgreSQL: a game stored
with a 31-bit seed before it has, after it, the same seed, so the same dice and commitment;
a 128-bit seed is kept whole; back to 0013 the small seeds return to BIGINT, and a 128-bit
one refuses the downgrade rather than be cut."""

from __future__ import annotations

from datetime import datetime

import pytest
from sqlalchemy import Engine, text

from engine.dice import Dice
from pbem.games.commitment import commitment
from pbem.games.service import Service
from pbem.store import Game, transaction, upgrade
from pbem.store.migrate import downgrade
from tests.conftest import quick_settings
from tests.support.games import new_game

OLD = 2**31 - 2  # the largest seed `secrets.randbelow(2**31)` gave
SALT = "0f" * 16


def _raw_seed(db: Engine, game: str) -> object:
    with db.connect() as connection:
        return connection.execute(
            text("SELECT seed FROM game WHERE id = :id"), {"id": game}
        ).scalar()


def _seed(db: Engine, game: str) -> int:
    with transaction(db) as session:
        row = session.get(Game, game)
        assert row is not None
        return row.seed


def test_an_old_seed_is_the_same_number_after_the_upgrade(db: Engine, now: datetime) -> None:
    downgrade(db, "0013_outbox_pruned")
    with db.begin() as connection:  # stored as 0013 stored it: a BIGINT
        connection.execute(
            text(
                "INSERT INTO game (id, ruleset, options, seed, seed_salt, status, "
                "deadline_policy, early_processing, address_check, signup_seats, turn, result, "
                "created_at, announce_referee_actions) VALUES ('old', 'counting', '{}', :seed, "
                ":salt, 'running', 'interval:48h', true, false, 0, 0, '', :now, true)"
            ),
            {"seed": OLD, "salt": SALT, "now": now},
        )
    assert _raw_seed(db, "old") == OLD  # an integer
    before = Dice(OLD, 4, "ann", "attack:1").roll(8)
    upgrade(db)
    assert _raw_seed(db, "old") == str(OLD)  # its decimal text, the text the dice hash
    seed = _seed(db, "old")
    assert seed == OLD and isinstance(seed, int)
    assert Dice(seed, 4, "ann", "attack:1").roll(8) == before
    assert commitment(seed, SALT) == commitment(OLD, SALT)


def test_back_to_0013_small_seeds_return_and_a_big_one_refuses(db: Engine, now: datetime) -> None:
    service = Service(db, quick_settings())
    new_game(service, now, game="small", seed=41)
    downgrade(db, "0013_outbox_pruned")
    assert _raw_seed(db, "small") == 41
    upgrade(db)
    new_game(service, now, game="big", seed=2**128 - 1)
    assert _seed(db, "big") == 2**128 - 1
    with pytest.raises(RuntimeError, match="game big has a 128-bit seed"):
        downgrade(db, "0013_outbox_pruned")
    assert _seed(db, "big") == 2**128 - 1 and _seed(db, "small") == 41
