"""Alembic, configured in code so `pbem init` needs no alembic.ini."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine
from sqlalchemy.engine import make_url
from sqlalchemy.exc import OperationalError

from pbem.errors import DatabaseNotReady

_MIGRATIONS = Path(__file__).parent.parent / "migrations"

IncludeObject = Callable[[Any, Any, Any, Any, Any], bool]


def alembic_config(engine: Engine) -> Config:
    config = Config()
    # The folder, not the package: alembic runs env.py and versions/ from it, and they import
    # the store, which therefore imports no migration (pyproject.toml's foundation layers).
    config.set_main_option("script_location", str(_MIGRATIONS))
    config.attributes["engine"] = engine
    return config


def on_this_database(dialect: str) -> IncludeObject:
    """Alembic's include_object for `dialect`: a model's object made on one kind of database
    only (`info={"only": ...}`, with its `ddl_if`) is left out of the comparison on others."""

    def include(item: Any, _name: Any, _type: Any, _reflected: Any, _compare_to: Any) -> bool:
        only = getattr(item, "info", {}).get("only")
        return only is None or only == dialect

    return include


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


def check_present(url: str) -> None:
    """DatabaseNotReady unless the database at `url` is there. The rule of every command but
    `pbem init`, `pbem serve` included: none makes a SQLite file that is not there, so that a
    mistyped path (or a start in the wrong folder) leaves no empty database behind."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return
    if not Path(parsed.database).exists():
        raise DatabaseNotReady(
            f"there is no database at {parsed.database}: run `pbem init` there first, or give "
            "the right one (--config, --db or [database] url)"
        )


def why_unreachable(engine: Engine) -> str:
    """Why the database does not answer (the driver's first line), or '' when it does."""
    try:
        with engine.connect():
            return ""
    except OperationalError as error:
        reason = str(error.orig or error).strip()
        return reason.splitlines()[0] if reason else type(error).__name__


def check_reachable(engine: Engine) -> None:
    """DatabaseNotReady, one line, unless the database answers: a server down or not
    listening, a database name it does not have, a login it refuses."""
    reason = why_unreachable(engine)
    if reason:
        shown = engine.url.render_as_string(hide_password=True)
        raise DatabaseNotReady(
            f"the database {shown} does not answer ({reason}): start its server, create the "
            "database (`createdb`) or give the right one (--config, --db or [database] url)"
        )


def not_ready(url: str, pending: set[str], engine: Engine | None = None) -> DatabaseNotReady:
    """What a database behind the code is told (every command but `pbem init` and, unless
    [database] migrate = "refuse", `pbem serve`); given its `engine`, an empty one is told
    so, and one behind how many migrations it lacks."""
    shown = make_url(url).render_as_string(hide_password=True)
    what = f"migrations to apply: {', '.join(sorted(pending))}"
    if engine is not None:
        applied, missing = _progress(engine)
        what = (
            f"it has no tables of pbem's yet: {missing} migrations to apply"
            if not applied
            else f"{missing} migrations to apply, up to {', '.join(sorted(pending))}"
        )
    return DatabaseNotReady(
        f"the database {shown} is not ready ({what}): run `pbem init` (or `pbem serve`, which "
        'applies them at start unless [database] migrate = "refuse")'
    )


def _progress(engine: Engine) -> tuple[set[str], int]:
    """The heads applied to the database, and how many revisions it still lacks."""
    script = ScriptDirectory.from_config(alembic_config(engine))
    with engine.connect() as connection:
        applied = set(MigrationContext.configure(connection).get_current_heads())
    done = {rev.revision for rev in script.iterate_revisions(tuple(applied), "base")}
    every = {rev.revision for rev in script.walk_revisions()}
    return applied, len(every - done)
