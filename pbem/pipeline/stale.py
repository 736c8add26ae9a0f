"""Notices whose moment passes: a reminder for a deadline that has gone by, a deadline notice
superseded by a newer one. Such a mail, still unsent (the SMTP server was away), is dropped
rather than sent stale: `dropped_at` is set and `last_error` says why, so `pbem outbox list`
shows it. Two ways, both set by whoever queues the notice (pbem.clock.notices):

- `expires_at`: the drain drops the row instead of sending it from this moment on;
- `topic`: queueing a notice drops every unsent older one of the same topic (the same kind of
  notice to the same address about the same game), the newer one saying what is true now.

Replies to players, reports and game-end mails carry neither and are never dropped.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import update
from sqlmodel import Session, col

from pbem.store import Outbox, utc

NEVER_DROPPED = frozenset({"reply", "report", "game-end"})


def check_droppable(kind: str) -> None:
    """Refuse an expiry or topic on a mail that must always be delivered."""
    if kind in NEVER_DROPPED:
        raise ValueError(f"a {kind} mail is never dropped: it takes no expiry and no topic")


def supersede(session: Session, topic: str, by: str, *, now: datetime) -> int:
    """Drop the unsent mail of `topic`: `by` (a Message-ID) replaces it. How many."""
    query = (
        update(Outbox)
        .where(
            col(Outbox.topic) == topic,
            col(Outbox.sent_at).is_(None),
            col(Outbox.bounced_at).is_(None),
            col(Outbox.dropped_at).is_(None),
        )
        .values(
            dropped_at=utc(now),
            next_attempt_at=None,
            last_error=f"superseded by a newer notice {by}",
        )
    )
    return session.execute(query).rowcount  # type: ignore[attr-defined]


def expired(row: Outbox, now: datetime) -> bool:
    return row.expires_at is not None and utc(row.expires_at) <= utc(now)


def drop_expired(row: Outbox, now: datetime) -> None:
    assert row.expires_at is not None
    row.dropped_at = utc(now)
    row.next_attempt_at = None
    moment = utc(row.expires_at).strftime("%Y-%m-%d %H:%M UTC")
    row.last_error = f"stale: its moment passed at {moment}"
