"""Notices whose moment passes: a reminder for a deadline that has gone by, a deadline notice
superseded by a newer one. Such a mail, still unsent (the SMTP server was away), is dropped
rather than sent stale: `dropped_at` is set and `last_error` says why, so `pbem outbox list`
shows it. Two ways, both set by whoever queues the notice (pbem.clock.notices):

- `expires_at`: the drain drops the row instead of sending it from this moment on;
- `topic`: queueing a notice drops every unsent older one of the same topic (the same kind of
  notice to the same address about the same game), the newer one saying what is true now.

Resolving a turn drops the game's unsent reminders and deadline notices too: they were about
that turn (a turn resolved early, its orders all in, before its deadline).

Replies to players, reports and game-end mails carry neither and are never dropped.
"""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from pbem.store import Outbox, OutboxKind, utc
from pbem.store.work import Work

NEVER_DROPPED = frozenset({OutboxKind.REPLY, OutboxKind.REPORT, OutboxKind.GAME_END})
TURN_NOTICES = ("reminder", "deadline-moved")  # about the pending turn only


def check_droppable(kind: OutboxKind) -> None:
    """Refuse an expiry or topic on a mail that must always be delivered."""
    if kind in NEVER_DROPPED:
        raise ValueError(f"a {kind} mail is never dropped: it takes no expiry and no topic")


def topic(kind: str, game_id: str, address: str) -> str:
    """The topic of a notice of `kind` ("reminder", "deadline-moved", "pause") to `address`
    about `game_id`."""
    return f"{kind} {game_id} {address.lower()}"


def supersede(work: Work, topic: str, by: str, *, now: datetime) -> int:
    """Drop the unsent mail of `topic`: `by` (a Message-ID) replaces it. How many."""
    return work.outbox.drop_topic(topic, f"superseded by a newer notice {by}", now)


def drop_turn_notices(work: Work, game_id: str, turn: int, *, now: datetime) -> int:
    """Drop the unsent reminders and deadline notices of `game_id`: its pending turn `turn`
    has just been resolved, so they can only be about that turn (or an older one). How many."""
    starts = [topic(kind, game_id, "") for kind in TURN_NOTICES]
    return work.outbox.drop_topics_starting(starts, f"stale: turn {turn} was resolved", now)


class Expiring(Protocol):
    @property
    def expires_at(self) -> datetime | None: ...


def expired(row: Expiring, now: datetime) -> bool:
    return row.expires_at is not None and utc(row.expires_at) <= utc(now)


def drop_expired(row: Outbox, now: datetime) -> None:
    assert row.expires_at is not None
    row.dropped_at = utc(now)
    row.next_attempt_at = None
    moment = utc(row.expires_at).strftime("%Y-%m-%d %H:%M UTC")
    row.last_error = f"stale: its moment passed at {moment}"
