"""Storage: SQLModel tables, the database engine and sessions, and schema migrations."""

from pbem.store.db import (
    dumps,
    flushed_id,
    loads,
    make_engine,
    transaction,
    transient,
    utc,
    utcnow,
)
from pbem.store.migrate import upgrade
from pbem.store.models import (
    ArchivedOrderSet,
    ArchivedTurn,
    AuditLog,
    Game,
    InboundMessage,
    OrderSet,
    Outbox,
    Press,
    Quarantine,
    Referee,
    RefereeNote,
    Seat,
    Turn,
)

__all__ = [
    "ArchivedOrderSet",
    "ArchivedTurn",
    "AuditLog",
    "Game",
    "InboundMessage",
    "OrderSet",
    "Outbox",
    "Press",
    "Quarantine",
    "Referee",
    "RefereeNote",
    "Seat",
    "Turn",
    "dumps",
    "flushed_id",
    "loads",
    "make_engine",
    "transaction",
    "transient",
    "upgrade",
    "utc",
    "utcnow",
]
