"""The service's databases: one engine for everything, and on PostgreSQL a second one whose
commits do not wait for the disk (synchronous_commit off), for work that a crash of the
database server may take back safely: intake's mails, which are marked done in the inbox only
once `settle` has made their commits durable, and the courier's records of mail sent (a lost
record sends the mail again, under its Message-ID). In a deadline wave a COMMIT waited about
a millisecond for the disk, the longest round trip of each. SQLite's commits always wait
(its WAL survives a killed process, pbem.store.db), so there it is one engine.

The domain asks for the engine of a batch and settles the batch; whether that takes a second
engine, and which database needs it, is this module's business."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Engine

from pbem.store.db import make_durable, make_engines


@dataclass(frozen=True)
class Databases:
    db: Engine
    # PostgreSQL: the engine whose commits do not wait for the disk; None: db's wait.
    deferred: Engine | None = None

    @classmethod
    def open(cls, url: str, *, busy_seconds: float = 30.0) -> Databases:
        db, deferred = make_engines(url, busy_seconds=busy_seconds)
        return cls(db, deferred)

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

    def dispose(self) -> None:
        """Close every pooled connection (before a fork: none may cross it)."""
        self.db.dispose()
        if self.deferred is not None:
            self.deferred.dispose()
