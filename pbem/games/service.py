"""What every pipeline step needs besides a session and the time: the database and settings."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Engine

from pbem.config import Settings
from pbem.store import make_engine


@dataclass(frozen=True)
class Service:
    db: Engine
    settings: Settings

    @classmethod
    def from_settings(cls, settings: Settings) -> Service:
        database = settings.database
        return cls(make_engine(database.url, busy_seconds=database.busy_seconds), settings)
