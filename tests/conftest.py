"""Fixtures shared by every test: the database (SQLite and PostgreSQL), a Service on it with
settings for tests, a fixed clock, and the counting test ruleset."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import Engine

from pbem.config import SecuritySettings, Settings
from pbem.games.service import Service
from tests.support.databases import empty_all_tables, migrated_engine, postgres_database
from tests.support.ruleset_registration import register_test_rulesets

register_test_rulesets()

# The web archive of games changed by the command line in these tests (pbem.web), written
# into a folder of the run's own, never the working folder; a test that wants it elsewhere
# says so (`--out`, `write_site(..., out)`, or its own environment). Each pytest-xdist worker
# has a folder of its own: a worker inherits the environment of the pytest that started it,
# which has already chosen a folder here, so a folder chosen here is replaced, and only one
# the user set is kept.
_WEB_PREFIX = "pbem-tests-web-"
_WEB = Path(tempfile.mkdtemp(prefix=_WEB_PREFIX))
for _variable, _name in (("PBEM_WEB__FOLDER", "web"), ("PBEM_WEB__SECRET_FILE", "web-secret")):
    _given = os.environ.get(_variable)
    if _given is None or Path(_given).parent.name.startswith(_WEB_PREFIX):
        os.environ[_variable] = str(_WEB / _name)

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


@pytest.fixture(scope="session")
def postgres_engine() -> Iterator[Engine]:
    with postgres_database() as url:
        engine = migrated_engine(url)
        yield engine
        engine.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    """A migrated, empty database of each kind."""
    if request.param == "sqlite":
        engine = migrated_engine(f"sqlite:///{tmp_path / 'pbem.db'}")
        yield engine
        engine.dispose()
    else:
        engine = request.getfixturevalue("postgres_engine")
        empty_all_tables(engine)
        yield engine


def quick_settings() -> Settings:
    # A cheap password hash: the tests hash and check hundreds of passwords.
    return replace(Settings(), security=SecuritySettings(password_cost=4))


@pytest.fixture
def settings() -> Settings:
    return quick_settings()


@pytest.fixture
def service(db: Engine, settings: Settings) -> Service:
    return Service(db, settings)


@pytest.fixture
def now() -> datetime:
    return NOW
