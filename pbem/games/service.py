"""What every pipeline step needs besides a session and the time: the database and settings."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import Engine

from pbem.config import Settings
from pbem.passwords import PasswordMemory
from pbem.store.engines import Databases


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
    # The databases behind `db` (pbem.store.engines): None, `db` alone. Read as `store`.
    databases: Databases | None = field(default=None, compare=False, repr=False)
    # When the clocks' pass next prunes the sent mail's bytes (pbem.games.outbox_prune).
    prune: NextTime = field(default_factory=NextTime, compare=False, repr=False)

    @classmethod
    def from_settings(cls, settings: Settings) -> Service:
        database = settings.database
        databases = Databases.open(database.url, busy_seconds=database.busy_seconds)
        return cls(databases.db, settings, databases=databases)

    @property
    def store(self) -> Databases:
        """The database's units of work, on `db`."""
        return self.databases if self.databases is not None else Databases(self.db)
