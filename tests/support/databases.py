"""Test databases: a fresh SQLite file per test, or one PostgreSQL database per test session
(created on the local server, migrated once, emptied before each test, dropped at the end)."""

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
    tables = ", ".join(f'"{table.name}"' for table in SQLModel.metadata.sorted_tables)
    with engine.begin() as connection:
        connection.execute(text(f"TRUNCATE {tables} RESTART IDENTITY CASCADE"))
