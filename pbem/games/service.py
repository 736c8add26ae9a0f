"""What every pipeline step needs besides a session and the time: the database and settings."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import Engine

from pbem.config import Settings
from pbem.passwords import PasswordMemory
from pbem.store.db import make_engines


@dataclass
class NextTime:
    """When a piece of housekeeping is next due; None: now. In memory: a process just started
    (`serve --once` from cron each time) does it at its first chance."""

    at: datetime | None = None

    def due(self, now: datetime) -> bool:
        return self.at is None or now >= self.at


@dataclass(frozen=True)
class Service:
    db: Engine
    settings: Settings
    # The seats (game and seat) whose password intake's look-ahead found proved, and with
    # which password: their next mails are not looked up (pbem.intake.intake._look_ahead).
    proved_seats: PasswordMemory = field(default_factory=PasswordMemory, compare=False, repr=False)
    # PostgreSQL: an engine whose commits do not wait for the disk (make_engine's `deferred`),
    # for work that a crash of the database server may take back safely: intake's mails
    # (take_in makes a batch durable before it marks the mails done) and the courier's
    # records of mail sent (a lost one sends the mail again, under its Message-ID). In a
    # wave a COMMIT waited about a millisecond for the disk, the longest round trip of each.
    # None: those commits wait too, as SQLite's are.
    deferred: Engine | None = field(default=None, compare=False, repr=False)
    # When the clocks' pass next prunes the sent mail's bytes (pbem.games.outbox_prune).
    prune: NextTime = field(default_factory=NextTime, compare=False, repr=False)

    @classmethod
    def from_settings(cls, settings: Settings) -> Service:
        database = settings.database
        db, deferred = make_engines(database.url, busy_seconds=database.busy_seconds)
        return cls(db, settings, deferred=deferred)

    @property
    def deferred_db(self) -> Engine:
        """The engine for the commits that need not wait for the disk: `deferred` if any."""
        return self.deferred or self.db

    def dispose(self) -> None:
        """Close every pooled connection (before a fork: none may cross it)."""
        self.db.dispose()
        if self.deferred is not None:
            self.deferred.dispose()
