"""The storage interface is the only way to the database: no module outside pbem/store (and
the migrations, alembic scripts written against the store's tables) builds or runs a query,
takes a row lock, asks which database it runs on (by the dialect's name or by an engine only
PostgreSQL has), or begins, commits or makes durable a transaction by hand. The sources are
read as syntax trees (tests/store/storage_reading.py), not searched for a word."""

from __future__ import annotations

from pathlib import Path

import pytest

import pbem
from tests.store.storage_reading import Kind, read_package, read_source

PACKAGE = Path(pbem.__file__).parent
ALLOWED = ("store", "migrations")


@pytest.mark.parametrize("kind", [Kind.QUERY, Kind.LOCK, Kind.DIALECT, Kind.COMMIT])
def test_no_module_outside_the_store_queries_locks_asks_the_database_or_commits_by_hand(
    kind: Kind,
) -> None:
    found = [str(f) for f in read_package(PACKAGE, ALLOWED) if f.kind == kind]
    assert found == []


def test_no_module_outside_the_store_opens_a_unit_of_work_on_an_engine() -> None:
    naming = [str(f) for f in read_package(PACKAGE, ALLOWED) if f.kind == Kind.ENGINE]
    assert naming == [], "use service.store: transaction(), reading(), claims()"


def test_no_module_outside_the_store_passes_a_session_around() -> None:
    found = [str(f) for f in read_package(PACKAGE, ALLOWED) if f.kind == Kind.SESSION]
    assert found == [], "hand the domain a Work (pbem.store.work)"


@pytest.mark.parametrize(
    ("source", "kind", "what"),
    [
        ("rows = session.exec(select(Game).where(Game.id == 'g'))", Kind.QUERY, "select("),
        ("game = context.session.get(Game, 'g')", Kind.QUERY, "session.get("),
        ("connection.execute(update(Outbox).values(raw=b''))", Kind.QUERY, "update("),
        ("statement = delete(Seat)", Kind.QUERY, "delete("),
        ("q = query.where(x)", Kind.QUERY, ".where("),
        ("q = select(Game).with_for_update()", Kind.LOCK, ".with_for_update"),
        ("q = query.with_for_update(skip_locked=True)", Kind.LOCK, "skip_locked="),
        ("session.refresh(game, with_for_update=True)", Kind.LOCK, "with_for_update="),
        ("if db.dialect.name == 'postgresql': pass", Kind.DIALECT, ".dialect"),
        ("if url.get_backend_name() != 'sqlite': pass", Kind.DIALECT, ".get_backend_name"),
        ("tx = session.begin()", Kind.COMMIT, ".begin("),
        ("tx.commit()", Kind.COMMIT, ".commit("),
        ("with ctx.session.begin_nested(): pass", Kind.COMMIT, ".begin_nested("),
        ("with service.db.begin() as connection: pass", Kind.COMMIT, ".begin("),
        ("c.exec_driver_sql('SET LOCAL synchronous_commit TO on')", Kind.COMMIT, None),
        ("with transaction(service.db) as session: pass", Kind.ENGINE, "transaction("),
        ("with transaction(engine, keep=False) as s: pass", Kind.ENGINE, "transaction("),
        ("with reading(self.service.db) as session: pass", Kind.ENGINE, "reading("),
        ("with reading_rows(db) as connection: pass", Kind.ENGINE, "reading_rows("),
        ("session = Session(service.db)", Kind.ENGINE, "Session("),
        ("session = sqlmodel.Session(bind=engine)", Kind.ENGINE, "Session("),
        ("session = new_session(engine)", Kind.ENGINE, "new_session("),
        ("claims = Claims(service.db)", Kind.ENGINE, "service.db"),
        ("check(self.service.db)", Kind.ENGINE, "service.db"),
        ("def f(session: Session) -> None: pass", Kind.SESSION, "parameter session: Session"),
        ("def f(s: sqlmodel.Session) -> None: pass", Kind.SESSION, "parameter s: Session"),
        ("context.session.add(row)", Kind.SESSION, "session.add("),
        ("session.delete(row)", Kind.SESSION, "session.delete("),
        ("self.session.flush()", Kind.SESSION, "session.flush("),
    ],
)
def test_the_reading_finds_each_kind(source: str, kind: Kind, what: str | None) -> None:
    found = [f for f in read_source(source, "games/x.py") if f.kind == kind]
    assert found, source
    if what is not None:
        assert what in [f.what for f in found]


def test_the_reading_takes_no_word_in_prose_or_another_object_for_one() -> None:
    source = '''
"""On PostgreSQL the dialect's select(...) with_for_update; the session.exec(...)."""
# service.db.dialect; session.begin()
answer.begin(1, "your mail")
settings.update(values)
found = seats.get(name)
with service.store.transaction() as session: pass
with service.store.transaction(keep=False) as session: pass
with service.store.reading() as session: pass
url = args.db
work.games.add(seat)
work.flush()
seen.add(name)
def f(work: Work) -> None: pass
'''
    assert read_source(source, "intake/x.py") == []


def test_the_reading_skips_the_store_and_the_migrations(tmp_path: Path) -> None:
    for folder in ("store", "migrations", "games"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "x.py").write_text("if db.dialect.name == 'sqlite': pass\n")
    assert [f.path for f in read_package(tmp_path, ALLOWED)] == ["games/x.py"]
