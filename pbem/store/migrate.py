"""Alembic, configured in code so `pbem init` needs no alembic.ini."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine

import pbem.migrations


def alembic_config(engine: Engine) -> Config:
    config = Config()
    config.set_main_option("script_location", str(Path(pbem.migrations.__file__).parent))
    config.attributes["engine"] = engine
    return config


def upgrade(engine: Engine, revision: str = "heads") -> None:
    """Every branch to its head: features add their revisions on branches from 0001, and a
    merge revision joins them when they land together."""
    command.upgrade(alembic_config(engine), revision)


def downgrade(engine: Engine, revision: str) -> None:
    command.downgrade(alembic_config(engine), revision)


def pending_revisions(engine: Engine) -> set[str]:
    """The heads of the migrations not yet applied to the database (all of them when it is
    empty); an empty set when it is up to date."""
    script = ScriptDirectory.from_config(alembic_config(engine))
    with engine.connect() as connection:
        applied = set(MigrationContext.configure(connection).get_current_heads())
    heads = set(script.get_heads())
    if applied == heads:
        return set()
    done = {rev.revision for rev in script.iterate_revisions(tuple(applied), "base")}
    return {head for head in heads if head not in done}
