"""The alembic migrations build exactly the schema the models describe, on both databases."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, inspect
from sqlmodel import SQLModel

from pbem.store import upgrade
from pbem.store.migrate import alembic_config, downgrade, on_this_database


def test_upgrade_head_matches_the_models(db: Engine) -> None:
    with db.connect() as connection:
        include = on_this_database(connection.dialect.name)
        opts = {"compare_type": True, "include_object": include}
        context = MigrationContext.configure(connection, opts=opts)
        assert compare_metadata(context, SQLModel.metadata) == []


def test_downgrade_to_base_and_back(db: Engine) -> None:
    downgrade(db, "base")
    assert set(inspect(db).get_table_names()) <= {"alembic_version"}
    upgrade(db)
    assert set(SQLModel.metadata.tables) <= set(inspect(db).get_table_names())


def test_upgrade_twice_is_harmless(db: Engine) -> None:
    upgrade(db)
    with db.connect() as connection:
        current = MigrationContext.configure(connection).get_current_heads()
    # Features branch from 0001; every branch's head is applied (see pbem.store.migrate).
    assert set(current) == set(ScriptDirectory.from_config(alembic_config(db)).get_heads())
