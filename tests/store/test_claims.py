"""Claims (pbem.store.claims): on PostgreSQL a key one daemon holds is refused to another
until let go; closing lets go of every claim, even on a connection that goes back to the
pool; on SQLite every claim is granted."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine, event, text

from pbem.store.claims import Claims


def test_a_key_claimed_by_one_is_refused_to_another_until_let_go(db: Engine) -> None:
    with Claims(db) as first, Claims(db) as second:
        assert first.take("1:7")
        assert first.take("1:7")  # ours already
        refused = second.take("1:7")
        assert second.take("1:8")
        first.release("1:7")
        assert second.take("1:7")
    # SQLite has one daemon (pbem.store.daemon_lock): nothing to share, every claim granted.
    assert refused is (db.dialect.name == "sqlite")


def test_a_block_of_keys_is_claimed_in_one_statement_but_the_ones_another_holds(
    db: Engine,
) -> None:
    statements: list[str] = []

    def count(*args: Any) -> None:
        statements.append(args[2])

    with Claims(db) as first, Claims(db) as second:
        assert first.take("1:8")
        event.listen(db, "before_cursor_execute", count)
        try:
            taken = second.take_all(["1:7", "1:8", "1:9"])
            assert second.take_all(["1:7", "1:9"]) == {"1:7", "1:9"}  # ours already: no statement
        finally:
            event.remove(db, "before_cursor_execute", count)
    shared = db.dialect.name == "postgresql"
    assert taken == ({"1:7", "1:9"} if shared else {"1:7", "1:8", "1:9"})
    assert len(statements) == (1 if shared else 0)


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
