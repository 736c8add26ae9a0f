"""The test harness itself: what `make test` leans on to run the tests on several
pytest-xdist workers at once, and to run them quickly."""

from __future__ import annotations

import os
from datetime import datetime

from sqlalchemy import Engine, text
from sqlmodel import SQLModel

from pbem.games.service import Service
from tests import conftest
from tests.support.databases import empty_all_tables
from tests.support.games import new_game

TABLES = [table.name for table in SQLModel.metadata.sorted_tables]


def test_the_web_archive_of_the_command_line_goes_to_this_process_own_folder() -> None:
    """A worker inherits the environment of the pytest that started it, web folder included:
    the worker's tests must write their archive into the folder this process made."""
    assert os.environ["PBEM_WEB__FOLDER"] == str(conftest._WEB / "web")
    assert os.environ["PBEM_WEB__SECRET_FILE"] == str(conftest._WEB / "web-secret")


def _rows(engine: Engine) -> dict[str, int]:
    with engine.connect() as connection:
        count = "SELECT count(*) FROM "
        return {name: connection.execute(text(f'{count}"{name}"')).scalar_one() for name in TABLES}


def _files(engine: Engine) -> dict[str, int]:
    """Each table's file on the server: TRUNCATE gives a table a new one."""
    with engine.connect() as connection:
        files = "SELECT pg_relation_filenode(:name)"
        return {
            name: connection.execute(text(files), {"name": name}).scalar_one() for name in TABLES
        }


def test_a_postgresql_database_is_emptied_as_migrated_and_its_empty_tables_left_alone(
    postgres_engine: Engine, now: datetime
) -> None:
    service = Service(postgres_engine, conftest.quick_settings())
    empty_all_tables(postgres_engine)
    new_game(service, now)
    held = {name for name, rows in _rows(postgres_engine).items() if rows}
    assert held and held != set(TABLES)
    files = _files(postgres_engine)
    empty_all_tables(postgres_engine)
    assert set(_rows(postgres_engine).values()) == {0}
    after = _files(postgres_engine)
    assert {name: after[name] for name in TABLES if name not in held} == {
        name: files[name] for name in TABLES if name not in held
    }
    new_game(service, now)  # every id counts from 1 again
    with postgres_engine.connect() as connection:
        assert connection.execute(text('SELECT min(id) FROM "turn"')).scalar_one() == 1
        assert connection.execute(text('SELECT min(id) FROM "seat"')).scalar_one() == 1
