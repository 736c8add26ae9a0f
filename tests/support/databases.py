"""Test databases: a fresh SQLite file per test, or one PostgreSQL database per test session
(created on the local server, migrated once, emptied before each test, dropped at the end).
With pytest-xdist each worker has a session, so a database, of its own."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import Engine, create_engine, text
from sqlmodel import SQLModel

from pbem.store import make_engine, upgrade

POSTGRES_ADMIN_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


@contextmanager
def postgres_database() -> Iterator[str]:
    """A new, empty database on the local PostgreSQL server; its URL; dropped afterwards."""
    name = f"pbem_test_{uuid.uuid4().hex[:12]}"
    admin = create_engine(POSTGRES_ADMIN_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield POSTGRES_ADMIN_URL.rsplit("/", 1)[0] + f"/{name}"
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def migrated_engine(url: str) -> Engine:
    engine = make_engine(url)
    upgrade(engine)
    return engine


def empty_all_tables(engine: Engine) -> None:
    """Every table of the models empty and every id counting from 1 again, as after the
    migration. DELETE, not TRUNCATE: TRUNCATE writes new files for every table and index,
    full or empty, before each of some 400 tests, where a test leaves a few rows in a few
    tables; DELETE removes just those, and a table with no rows is not touched."""
    tables = SQLModel.metadata.sorted_tables
    probe = " UNION ALL ".join(
        f"SELECT '{table.name}' WHERE EXISTS (SELECT FROM \"{table.name}\")" for table in tables
    )
    with engine.begin() as connection:
        full = set(connection.execute(text(probe)).scalars())
        for table in reversed(tables):  # the rows that refer to others first
            if table.name in full:
                connection.execute(text(f'DELETE FROM "{table.name}"'))
        # A sequence is left as it is by a DELETE, and by a rolled-back insert into an empty
        # table: each one that has handed out a number starts again.
        used = "SELECT format('%I.%I', schemaname, sequencename) FROM pg_sequences"
        for sequence in connection.execute(text(f"{used} WHERE last_value IS NOT NULL")).scalars():
            connection.execute(text("SELECT setval(:sequence, 1, false)"), {"sequence": sequence})
