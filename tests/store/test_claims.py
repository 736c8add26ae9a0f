"""Claims (pbem.store.claims): on PostgreSQL a key one daemon holds is refused to another
until let go; closing lets go of every claim, even on a connection that goes back to the
pool; on SQLite every claim is granted."""

from __future__ import annotations

from sqlalchemy import Engine, text

from pbem.store.claims import Claims


def test_a_key_claimed_by_one_is_refused_to_another_until_let_go(db: Engine) -> None:
    with Claims(db) as first, Claims(db) as second:
        assert first.take("1:7")
        assert first.take("1:7")  # ours already
        refused = second.take("1:7")
        assert second.take("1:8")
        first.release("1:7")
        assert second.take("1:7")
    # SQLite has one daemon (pbem.daemon.single): nothing to share, every claim granted.
    assert refused is (db.dialect.name == "sqlite")


def test_closing_lets_go_of_every_claim(db: Engine) -> None:
    claims = Claims(db)
    assert claims.take("1:7") and claims.take("1:8")
    claims.close()
    assert _advisory_locks(db) == 0
    with Claims(db) as other:
        assert other.take("1:7") and other.take("1:8")
        assert _advisory_locks(db) == (2 if db.dialect.name == "postgresql" else 0)


def _advisory_locks(db: Engine) -> int:
    """Advisory locks held on this database, by any session (0 on SQLite, which has none)."""
    if db.dialect.name != "postgresql":
        return 0
    query = text(
        "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted "
        "AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
    )
    with db.connect() as connection:
        return int(connection.execute(query).scalar_one())
