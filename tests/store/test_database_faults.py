"""A mail that meets a fault of the database (issue 18) is not quarantined: nothing of it is
kept, receive raises, the daemon's pass fails and backs off, and the mail, still in the inbox,
is answered once the database is back. Real faults: a SQLite database locked by another
connection; PostgreSQL cut off by a proxy that is stopped and started again."""

from __future__ import annotations

import sqlite3
import subprocess
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest
from sqlalchemy import Engine, event
from sqlalchemy.exc import DataError, IntegrityError, OperationalError

from pbem.config import Settings
from pbem.games.service import Service
from pbem.intake.intake import receive
from pbem.store import db as store_db
from pbem.store import make_engine, transient
from tests.support.databases import migrated_engine, postgres_database
from tests.support.games import inbound, new_game, quarantined
from tests.support.mails import order_mail
from tests.support.proxy import Proxy

MAIL = order_mail("g1", "alice", "pw-alice", "ADD 2", message_id="fault@example.org")


def test_a_locked_sqlite_database_leaves_the_mail_for_later(
    tmp_path: Path, settings: Settings, now: datetime
) -> None:
    path = tmp_path / "pbem.db"
    migrated_engine(f"sqlite:///{path}").dispose()
    service = Service(make_engine(f"sqlite:///{path}", busy_seconds=0.2), settings)
    new_game(service, now)
    other = sqlite3.connect(path)
    other.execute("BEGIN EXCLUSIVE")  # another process holds the write lock
    with pytest.raises(OperationalError, match="database is locked") as fault:
        receive(service, MAIL, now=now)
    assert transient(fault.value)
    other.rollback()
    other.close()
    assert inbound(service) == [] and quarantined(service) == []
    assert receive(service, MAIL, now=now).status == "accepted"  # taken in again: answered
    assert receive(service, MAIL, now=now).status == "duplicate"  # and once only


@pytest.fixture
def behind_a_proxy() -> Iterator[tuple[str, Proxy]]:
    with postgres_database() as url:
        migrated_engine(url).dispose()
        proxy = Proxy(5432)
        proxy.start()
        try:
            yield url.replace("127.0.0.1:5432", f"127.0.0.1:{proxy.port}"), proxy
        finally:
            proxy.stop()


def test_an_unreachable_postgresql_leaves_the_mail_for_later(
    behind_a_proxy: tuple[str, Proxy], settings: Settings, now: datetime
) -> None:
    url, proxy = behind_a_proxy
    engine = make_engine(url)
    service = Service(engine, settings)
    new_game(service, now)
    proxy.stop()  # the network to the database goes away
    with pytest.raises(OperationalError) as fault:
        receive(service, MAIL, now=now)
    assert transient(fault.value)
    proxy.start()  # and comes back
    assert receive(service, MAIL, now=now).status == "accepted"
    assert [row.status for row in inbound(service)] == ["accepted"]
    assert quarantined(service) == []
    engine.dispose()


def test_a_connection_lost_mid_mail_is_no_fault_of_the_mail(
    behind_a_proxy: tuple[str, Proxy], settings: Settings, now: datetime
) -> None:
    # The connection drops while the mail is being recorded and is back at once: the write
    # that would quarantine the mail would succeed, so it must not be tried. (Before, it was:
    # the mail went to the quarantine as a crash and its sender never heard back.)
    url, proxy = behind_a_proxy
    engine = make_engine(url)
    service = Service(engine, settings)
    new_game(service, now)
    cut = []

    def drop_the_line(_conn: object, _cursor: object, statement: str, *_: object) -> None:
        if not cut and statement.startswith("INSERT INTO inbound_message"):
            cut.append(statement)
            proxy.stop()
            proxy.start()

    event.listen(engine, "before_cursor_execute", drop_the_line)
    with pytest.raises(OperationalError) as fault:
        receive(service, MAIL, now=now)
    assert cut and transient(fault.value)
    assert inbound(service) == [] and quarantined(service) == []
    assert receive(service, MAIL, now=now).status == "accepted"  # the next pass answers it
    engine.dispose()


def test_only_the_databases_state_is_transient() -> None:
    # A value the database refuses, or a broken constraint, is the mail's (or a bug's): it is
    # quarantined as before, not tried again for ever.
    cause = Exception("cause")
    assert transient(OperationalError("SELECT 1", None, cause))
    assert not transient(DataError("INSERT", None, cause))
    assert not transient(IntegrityError("INSERT", None, cause))
    assert not transient(ValueError("a bug"))


def test_a_sqlite_file_that_cannot_be_written_is_not_opened_read_only(
    tmp_path: Path, settings: Settings, now: datetime
) -> None:
    """SQLite opens a file it may not write read-only, without a word; such a connection,
    kept in the pool, failed every write long after the file could be written again."""
    path = tmp_path / "pbem.db"
    migrated_engine(f"sqlite:///{path}").dispose()
    service = Service(make_engine(f"sqlite:///{path}", busy_seconds=0.2), settings)
    subprocess.run(["chattr", "+i", str(path)], check=True)  # holds for root too (ext4)
    try:
        refused = "unable to open database file to write"
        with pytest.raises(OperationalError, match=refused) as fault:
            receive(service, MAIL, now=now)
        assert transient(fault.value)
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)
    new_game(service, now)  # the same engine writes at once, now that it can
    assert receive(service, MAIL, now=now).status == "accepted"
    assert [row.status for row in inbound(service)] == ["accepted"]


def test_a_connection_ended_while_idle_in_the_pool_is_replaced_and_a_busy_one_not_pinged(
    settings: Settings, now: datetime, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pooled connection is pinged only after IDLE_PING_SECONDS in the pool (a ping at
    every use was a round trip a mail): one the server ended meanwhile is replaced."""
    with postgres_database() as url:
        migrated_engine(url).dispose()
        engine = make_engine(url)
        try:
            _idle_connection_replaced(engine, settings, now, monkeypatch)
        finally:
            engine.dispose()


def _idle_connection_replaced(
    engine: Engine, settings: Settings, now: datetime, monkeypatch: pytest.MonkeyPatch
) -> None:
    pings: list[object] = []
    real_ping = engine.dialect.do_ping

    def ping(dbapi_connection: object) -> bool:
        pings.append(dbapi_connection)
        return bool(real_ping(dbapi_connection))

    monkeypatch.setattr(engine.dialect, "do_ping", ping)
    service = Service(engine, settings)
    new_game(service, now)
    assert receive(service, MAIL, now=now).status == "accepted"
    assert pings == []  # its connections were busy all along
    with engine.connect() as connection:
        pids = {connection.exec_driver_sql("SELECT pg_backend_pid()").scalar_one()}
    killer = make_engine(engine.url.render_as_string(hide_password=False))
    with killer.connect() as other:  # the server ends it (a restart, a timeout)
        for pid in pids:
            other.exec_driver_sql(f"SELECT pg_terminate_backend({pid})")
    killer.dispose()
    monkeypatch.setattr(store_db, "IDLE_PING_SECONDS", 0.0)  # as if it sat idle that long
    again = order_mail("g1", "bob", "pw-bob", "ADD 3", message_id="idle@example.org")
    assert receive(service, again, now=now).status == "accepted"
    assert pings
    assert [row.status for row in inbound(service)] == ["accepted", "accepted"]
