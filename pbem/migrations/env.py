"""Alembic environment: runs on the engine pbem.store.migrate hands over (online mode only)."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Engine
from sqlmodel import SQLModel

import pbem.store.models  # noqa: F401  (registers the tables on SQLModel.metadata)
from pbem.store.migrate import on_this_database

engine: Engine = context.config.attributes["engine"]

with engine.connect() as connection:
    context.configure(
        connection=connection,
        target_metadata=SQLModel.metadata,
        render_as_batch=connection.dialect.name == "sqlite",  # SQLite alters by copying
        include_object=on_this_database(connection.dialect.name),
    )
    with context.begin_transaction():
        context.run_migrations()
    connection.commit()
