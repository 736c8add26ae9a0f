"""What every pipeline step needs besides a session and the time: the database and settings."""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import Engine

from pbem.config import Settings
from pbem.passwords import PasswordMemory
from pbem.store import make_engine


@dataclass(frozen=True)
class Service:
    db: Engine
    settings: Settings
    # The seats (game and seat) whose password intake's look-ahead found proved, and with
    # which password: their next mails are not looked up (pbem.intake.intake._look_ahead).
    proved_seats: PasswordMemory = field(default_factory=PasswordMemory, compare=False, repr=False)
    # PostgreSQL: the engine of intake's mail transactions, whose commits do not wait for the
    # disk (make_engine's `deferred`). A wave's COMMIT waited about a millisecond for it, the
    # longest round trip of a mail; take_in makes a batch durable at once before it marks the
    # mails done (pbem.intake.poll). None: intake commits on `db`, as SQLite does.
    deferred: Engine | None = field(default=None, compare=False, repr=False)

    @classmethod
    def from_settings(cls, settings: Settings) -> Service:
        database = settings.database
        db = make_engine(database.url, busy_seconds=database.busy_seconds)
        deferred = make_engine(database.url, deferred=True) if db.dialect.name != "sqlite" else None
        return cls(db, settings, deferred=deferred)

    @property
    def intake_db(self) -> Engine:
        """The engine of intake's mail transactions: `deferred` if there is one."""
        return self.deferred or self.db

    def dispose(self) -> None:
        """Close every pooled connection (before a fork: none may cross it)."""
        self.db.dispose()
        if self.deferred is not None:
            self.deferred.dispose()
