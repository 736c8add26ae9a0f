"""The service's databases: one engine for everything, and on PostgreSQL a second one whose
commits do not wait for the disk (synchronous_commit off), for work that a crash of the
database server may take back safely: intake's mails, which are marked done in the inbox only
once `settle` has made their commits durable, and the courier's records of mail sent (a lost
record sends the mail again, under its Message-ID). In a deadline wave a COMMIT waited about
a millisecond for the disk, the longest round trip of each. SQLite's commits always wait
(its WAL survives a killed process, pbem.store.db), so there it is one engine.

The domain opens its units of work here, naming no engine: `transaction()` (a batch's:
`transaction(batch=True)`) and `reading()`; it settles a batch with `settle()`. Whether a
batch takes a second engine, and which database needs it, is this module's business."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass

from sqlalchemy import Engine
from sqlmodel import Session

from pbem.errors import DatabaseNotReady
from pbem.store import daemon_lock, migrate
from pbem.store.claims import Claims
from pbem.store.db import make_durable, make_engines, reading, transaction


@dataclass(frozen=True)
class Databases:
    db: Engine
    # PostgreSQL: the engine whose commits do not wait for the disk; None: db's wait.
    deferred: Engine | None = None

    @classmethod
    def open(cls, url: str, *, busy_seconds: float = 30.0) -> Databases:
        db, deferred = make_engines(url, busy_seconds=busy_seconds)
        return cls(db, deferred)

    @contextmanager
    def transaction(self, *, batch: bool = False, keep: bool = True) -> Iterator[Session]:
        """One unit of work, in one transaction: committed if the block ends normally, else
        rolled back; always rolled back with keep=False (`pbem check`: nothing kept).
        `batch`: a batch's work, whose commit need not reach the disk until `settle`."""
        with transaction(self.batch() if batch else self.db, keep=keep) as session:
            yield session

    @contextmanager
    def reading(self) -> Iterator[Session]:
        """A unit of work that only reads: it takes no write lock, nor waits for one."""
        with reading(self.db) as session:
            yield session

    def batch(self) -> Engine:
        """The engine for work whose commits need not reach the disk until `settle`."""
        return self.deferred or self.db

    def settle(self) -> None:
        """Every commit made so far, on either engine, is on disk when this returns."""
        if self.deferred is not None:
            make_durable(self.db)

    def engines(self) -> tuple[Engine, ...]:
        """Every engine a commit may come through (to watch their commits)."""
        return (self.db,) if self.deferred is None else (self.db, self.deferred)

    def claims(self) -> Claims:
        """The inbox's claims between daemons, for one pass (pbem.store.claims)."""
        return Claims(self.db)

    # The database as a whole: whether it answers, its schema (pbem.store.migrate), and the
    # one daemon a SQLite file takes (pbem.store.daemon_lock).

    def why_unreachable(self) -> str:
        return migrate.why_unreachable(self.db)

    def check_reachable(self) -> None:
        migrate.check_reachable(self.db)

    def pending_revisions(self) -> set[str]:
        return migrate.pending_revisions(self.db)

    def not_ready(self, url: str, pending: set[str]) -> DatabaseNotReady:
        return migrate.not_ready(url, pending, self.db)

    def upgrade(self) -> None:
        migrate.upgrade(self.db)

    def only_daemon(self) -> AbstractContextManager[None]:
        return daemon_lock.only_daemon(self.db)

    def dispose(self) -> None:
        """Close every pooled connection (before a fork: none may cross it)."""
        self.db.dispose()
        if self.deferred is not None:
            self.deferred.dispose()
