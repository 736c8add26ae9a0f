"""The site's keys (table site_key): secrets of the site's own, read the same by every
process on the database. The migration that made the table made the STOP tokens' key; a
database whose tables were emptied (the tests') gets it again at its first use."""

from __future__ import annotations

import secrets

from sqlalchemy import Engine
from sqlalchemy.dialects import postgresql, sqlite
from sqlmodel import Session, select

from pbem.store.models import SiteKey

_KEYS: dict[tuple[str, str], bytes] = {}  # by database and name: a key never changes once made


def site_key(session: Session, name: str) -> bytes:
    """The key `name`, remembered once read."""
    where = (_database(session), name)
    if where not in _KEYS:
        stored = session.exec(select(SiteKey.value).where(SiteKey.name == name)).first()
        if stored is None:
            return _make_key(session, name)
        _KEYS[where] = bytes.fromhex(stored)
    return _KEYS[where]


def remembered(engine: Engine, name: str) -> bytes | None:
    """The key `name` of the engine's database, if read once already."""
    return _KEYS.get((engine.url.render_as_string(hide_password=True), name))


def _database(session: Session) -> str:
    bind = session.get_bind()
    engine = bind if isinstance(bind, Engine) else bind.engine
    return engine.url.render_as_string(hide_password=True)


def _make_key(session: Session, name: str) -> bytes:
    """A key the database has not: made in the caller's transaction and not remembered, so
    that if that is rolled back the next one makes it again; two transactions making it at
    once agree on the one stored first."""
    insert = postgresql.insert if session.get_bind().dialect.name == "postgresql" else sqlite.insert
    made = secrets.token_hex(32)
    statement = insert(SiteKey).values(name=name, value=made).on_conflict_do_nothing()
    session.exec(statement)
    value = session.exec(select(SiteKey.value).where(SiteKey.name == name)).one()
    return bytes.fromhex(value)
