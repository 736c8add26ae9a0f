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

    @classmethod
    def from_settings(cls, settings: Settings) -> Service:
        database = settings.database
        return cls(make_engine(database.url, busy_seconds=database.busy_seconds), settings)
