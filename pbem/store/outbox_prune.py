"""The outbox's sent mail pruned (the domain's side: pbem.games.outbox_prune): the rows sent
before a moment whose bytes are kept, counted, and their bytes dropped a batch at a time.

A batch is a transaction of its own. On PostgreSQL the rows another daemon is pruning are
skipped, not waited for (FOR UPDATE SKIP LOCKED); on SQLite one daemon writes at a time."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import func, update
from sqlmodel import col, select

from pbem.store.db import reading_rows, utc
from pbem.store.engines import Databases
from pbem.store.models import Outbox


def _kept_before(before: datetime) -> tuple[Any, ...]:
    """Sent before `before`, bytes still kept: the condition of ix_outbox_kept, and a range
    on its column."""
    return (
        col(Outbox.pruned_at).is_(None),
        col(Outbox.sent_at).is_not(None),
        col(Outbox.sent_at) < utc(before),
    )


def kept_before(store: Databases, before: datetime) -> tuple[int, int]:
    """How many mails sent before `before` still have their bytes, and how many bytes."""
    query = select(func.count(), func.coalesce(func.sum(func.length(Outbox.raw)), 0))
    with reading_rows(store.db) as connection:
        mails, size = connection.execute(query.where(*_kept_before(before))).one()
    return mails, size


def any_kept_before(store: Databases, before: datetime) -> bool:
    """Whether any mail is due to be pruned, read without the write lock: most looks find
    none, and on SQLite a writer waits its turn behind every other (in a deadline wave the
    clocks thread waited 7 s there, its turns with it)."""
    with reading_rows(store.db) as connection:
        found = connection.execute(select(Outbox.id).where(*_kept_before(before)).limit(1))
        return found.first() is not None


def drop_oldest(store: Databases, before: datetime, now: datetime, batch: int) -> tuple[int, int]:
    """Drop the bytes of the oldest `batch` mails sent before `before`, recording `now` as
    their prune: (how many, their bytes)."""
    oldest = (
        select(Outbox.id, func.length(Outbox.raw))
        .where(*_kept_before(before))
        .order_by(col(Outbox.sent_at))
        .limit(batch)
        .with_for_update(skip_locked=True)
    )
    with store.db.begin() as connection:
        rows = connection.execute(oldest).all()
        if not rows:
            return 0, 0
        dropped = (
            update(Outbox)
            .where(col(Outbox.id).in_([row_id for row_id, _ in rows]))
            .values(raw=b"", pruned_at=utc(now))
        )
        connection.execute(dropped)
    return len(rows), sum(size or 0 for _, size in rows)
