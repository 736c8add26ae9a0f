"""Database engine, sessions and canonical JSON. SQLite by default; PostgreSQL through a URL."""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, ExceptionContext, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import (
    ArgumentError,
    DBAPIError,
    DisconnectionError,
    InterfaceError,
    OperationalError,
)
from sqlalchemy.exc import TimeoutError as SATimeoutError
from sqlalchemy.orm import SessionTransaction
from sqlmodel import Session

from pbem.errors import DatabaseNotReady
from pbem.files import PRIVATE_FILE, shared
from pbem.store.write_turn import FileTurn

_READING = "pbem_reading"  # the execution option of a `reading` connection
_NEW_FILE = "pbem_new_file"  # in a connection's info: the database file it is about to make


def make_engine(url: str, *, busy_seconds: float = 30.0) -> Engine:
    """An engine for `url`. SQLite waits up to `busy_seconds` for another process's lock."""
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"timeout": busy_seconds})
        event.listen(engine, "do_connect", _open_writable)
        event.listen(engine, "connect", _sqlite_pragmas)
        event.listen(engine, "handle_error", _sqlite_reopen)
        _WriterQueue(busy_seconds, _file_turn(engine, busy_seconds)).watch(engine)
        return engine
    try:
        engine = create_engine(url)
    except ModuleNotFoundError as error:  # the driver is an extra: pbem[postgresql]
        raise DatabaseNotReady(
            f"{url.split(':', 1)[0]} needs its driver ({error.name}): pip install "
            "'pbem[postgresql]' for PostgreSQL"
        ) from None
    _ping_when_idle(engine)
    return engine


# A pooled connection idle this long is pinged before it is used again.
IDLE_PING_SECONDS = 10.0
_IDLE_SINCE = "pbem_idle_since"  # in a pooled connection's info: time.monotonic()


def _ping_when_idle(engine: Engine) -> None:
    """SQLAlchemy's pool_pre_ping, for a connection that sat in the pool IDLE_PING_SECONDS:
    one the server ended meanwhile (restarted, timed out) is replaced before it is used.
    pool_pre_ping pinged at every checkout, a round trip of the eighteen a mail took in a
    deadline wave. A connection that dies while in use fails its statement, which is
    transient (the pass backs off; the pool then opens its connections anew)."""

    def idle_from_now(_dbapi: Any, record: Any, *_: Any) -> None:
        record.info[_IDLE_SINCE] = time.monotonic()

    def ping_if_idle(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        since = record.info.get(_IDLE_SINCE)
        if since is not None and time.monotonic() - since < IDLE_PING_SECONDS:
            return
        try:
            engine.dialect.do_ping(dbapi_connection)
        except Exception as error:  # the pool opens another connection in its place
            raise DisconnectionError(f"the pooled connection is gone: {error}") from error

    event.listen(engine, "connect", idle_from_now)
    event.listen(engine, "checkin", idle_from_now)
    event.listen(engine, "checkout", ping_if_idle)


def _file_turn(engine: Engine, patience: float) -> FileTurn | None:
    """The write turn between processes, for a database file (not one in memory)."""
    database = engine.url.database
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    return FileTurn(database, patience)


def transient(error: BaseException) -> bool:
    """Is `error` the database's state rather than the work's: locked, read-only, full,
    unreachable, the connection lost? Then the same work may well succeed later."""
    if isinstance(error, OperationalError | InterfaceError | SATimeoutError):
        return True
    return isinstance(error, DBAPIError) and bool(error.connection_invalidated)


class _WriterQueue:
    """SQLite's write lock taken at BEGIN, and handed between this process's threads in the
    order they asked for it, then between processes in turn (pbem.store.write_turn).

    Every pipeline transaction writes. Taking the write lock at BEGIN makes a second process
    wait its turn (up to the timeout) instead of failing when its read snapshot turns stale at
    its first write, and serialises intake with turn resolution as FOR UPDATE does on
    PostgreSQL. A `reading` session only reads: it neither waits for the lock nor takes it.

    Between threads, SQLite's own wait is unfair: a waiter sleeps up to 100 ms between tries,
    and a thread that commits and begins again at once takes the lock every time. In a
    deadline wave the turns, back to back, would keep the courier from recording a sent mail
    for seconds, and the check replies would wait behind it. So the threads queue
    here first, first come first served, and the processes on the file take turns (FileTurn).
    A thread that has waited `patience` seconds goes on to SQLite's wait without its place.

    The turn is given back when the connection goes back to the pool, after its COMMIT or
    ROLLBACK, not at SQLAlchemy's commit event, which comes before them: the next thread's
    BEGIN IMMEDIATE then met the lock still held and slept in SQLite's busy handler, which
    cost the courier nearly half of its statement time in a deadline wave."""

    _HOLDS = "pbem_write_turn"  # in a connection's info while its transaction has the turn
    _HOLDS_FILE = "pbem_file_turn"  # ... and the turn between processes

    def __init__(self, patience: float, file_turn: FileTurn | None = None) -> None:
        self.patience = patience
        self._file_turn = file_turn
        self._mutex = threading.Lock()
        self._held = False
        self._waiting: deque[threading.Event] = deque()

    def watch(self, engine: Engine) -> None:
        event.listen(engine, "begin", self._begin)
        event.listen(engine, "checkin", lambda _dbapi, record: self._give_back(record.info))

    def _begin(self, connection: Any) -> None:
        if connection.get_execution_options().get(_READING, False):
            connection.exec_driver_sql("BEGIN")
            return
        # A connection that begins again before it is given back (migrations) has its turn.
        if not connection.info.get(self._HOLDS) and self._take():
            connection.info[self._HOLDS] = True
            if self._file_turn is not None and self._file_turn.take():
                connection.info[self._HOLDS_FILE] = True
        connection.exec_driver_sql("BEGIN IMMEDIATE")

    def _give_back(self, info: dict[str, Any]) -> None:
        if info.pop(self._HOLDS_FILE, False) and self._file_turn is not None:
            self._file_turn.give_back()
        if info.pop(self._HOLDS, False):
            with self._mutex:
                if self._waiting:
                    self._waiting.popleft().set()  # handed on: it stays held
                else:
                    self._held = False

    def _take(self) -> bool:
        with self._mutex:
            if not self._held:
                self._held = True
                return True
            turn = threading.Event()
            self._waiting.append(turn)
        if turn.wait(self.patience):
            return True
        with self._mutex:
            if turn.is_set():  # handed on just as the wait ended
                return True
            self._waiting.remove(turn)
            return False


def _sqlite_pragmas(dbapi_connection: Any, record: Any) -> None:
    made = record.info.pop(_NEW_FILE, None)
    if made is not None and os.path.exists(made):
        # Its user's alone whatever the umask, before SQLite makes its -wal and -shm, which
        # it gives the database's mode: they hold every address, hash and mail too.
        os.chmod(made, PRIVATE_FILE)
    # Hand transaction control to SQLAlchemy (the "begin" listener), not to the driver.
    dbapi_connection.isolation_level = None
    # WAL keeps readers off the writer's back; synchronous=NORMAL under WAL survives a killed
    # process (only a power loss can take the last commits), which is the failure we test.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def _open_writable(_dialect: Any, record: Any, cargs: list[Any], _cparams: Any) -> None:
    """Refuse to open a database file this process may not write. SQLite would open it
    read-only without a word (mode=rw too), and such a connection, kept in the pool, failed
    every write long after the file could be written again. A file not there yet is left
    for SQLite to create (`pbem init`). Asked with access(2), never by opening the file:
    closing a descriptor of it would drop every POSIX lock SQLite holds on it in this
    process (sqlite.org/howtocorrupt.html, 2.2), and the daemon's view of the file would
    freeze."""
    path = cargs[0] if cargs else ""
    if not path or path == ":memory:" or path.startswith("file:"):
        return
    if not os.path.exists(path):
        record.info[_NEW_FILE] = path  # made private once SQLite has made it (_sqlite_pragmas)
        return
    shared(path, "the database")
    if not os.access(path, os.W_OK):
        raise sqlite3.OperationalError("unable to open database file to write")


# SQLite's answers that tell of the file rather than the statement: the file (or its folder)
# read-only, the disk failing a write, the file not to be opened.
_FILE_FAULTS = frozenset({sqlite3.SQLITE_READONLY, sqlite3.SQLITE_IOERR, sqlite3.SQLITE_CANTOPEN})


def _sqlite_reopen(context: ExceptionContext) -> None:
    """Treat a fault of the file as a lost connection, so that the pool opens its connections
    anew, afresh once the fault is over (and not at all meanwhile: _open_writable)."""
    error = context.original_exception
    code = getattr(error, "sqlite_errorcode", None)
    if isinstance(error, sqlite3.Error) and code is not None and code & 0xFF in _FILE_FAULTS:
        context.is_disconnect = True


def new_session(engine: Engine) -> Session:
    """A session that flushes only when told (or at commit): the pipeline flushes where it
    needs ids or must see its own rows, and skipping the flush before every query halves the
    time a mail takes."""
    return Session(engine, expire_on_commit=False, autoflush=False)


@contextmanager
def transaction(engine: Engine, *, keep: bool = True) -> Iterator[Session]:
    """One session in one transaction: committed if the block ends normally, else rolled back.
    With keep=False it is rolled back however the block ends (`pbem check`: nothing kept)."""
    with new_session(engine) as session:
        tx = session.begin()
        try:
            yield session
            if keep:
                tx.commit()
        finally:
            if tx.is_active:
                tx.rollback()


def savepoint(session: Session) -> SessionTransaction:
    """A part of the session's transaction that can fail alone: `with savepoint(session):`
    rolls back what the block did if it raises, and leaves the rest of the transaction."""
    return session.begin_nested()


@contextmanager
def reading(engine: Engine) -> Iterator[Session]:
    """A session that only reads, in a transaction of its own: on SQLite it does not take the
    write lock (nor wait for it), so it may run beside another thread's or process's writes."""
    with _reader(engine) as connection:
        session = Session(connection, expire_on_commit=False, autoflush=False)
        with session, session.begin():
            yield session


@contextmanager
def reading_rows(engine: Engine) -> Iterator[Connection]:
    """As `reading`, for statements that read plain rows (no entities): without a session,
    which costs more than a statement does on a path taken once a mail."""
    with _reader(engine) as connection, connection.begin():
        yield connection


@contextmanager
def _reader(engine: Engine) -> Iterator[Connection]:
    with engine.connect() as connection:
        connection.execution_options(**{_READING: True})
        yield connection


def anchored_url(url: str, folder: Path) -> str:
    """A SQLite URL's relative file made one in `folder`; any other URL as it is."""
    try:
        parsed = make_url(url)
    except ArgumentError:  # not a URL: refused when the database is opened, in its words
        return url
    database = parsed.database
    if parsed.get_backend_name() != "sqlite" or not database or database == ":memory:":
        return url
    if database.startswith("file:") or Path(database).is_absolute():
        return url
    return parsed.set(database=str(folder / database)).render_as_string(hide_password=False)


def dumps(value: Any) -> str:
    """Canonical JSON: the same value always gives the same text."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def loads(text: str) -> Any:
    return json.loads(text)


def utc(moment: datetime) -> datetime:
    """`moment` as an aware UTC time (the tables hold aware times); naive means UTC already."""
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def utcnow() -> datetime:
    return datetime.now(UTC)


def flushed_id(row_id: int | None) -> int:
    """The id of a row that has been flushed (and so has one)."""
    if row_id is None:
        raise ValueError("the row has no id yet: flush the session first")
    return row_id
