"""Which outbox rows a drain pass sends, and in what order: the rows waiting and due now, and
after an outage, the deferred rows a success makes due again at once (a flush, as Postfix
flushes a destination's queue once it takes mail again)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Protocol

from sqlalchemy import func, or_
from sqlmodel import Session, col, select

from pbem.mail.delivery import RetryPolicy
from pbem.store import Outbox, utc

REPLY, BULK = 0, 1  # Outbox.priority: replies to a person who just wrote go out first


def waiting() -> tuple[Any, ...]:
    """Not sent, bounced or dropped."""
    return (
        col(Outbox.sent_at).is_(None),
        col(Outbox.bounced_at).is_(None),
        col(Outbox.dropped_at).is_(None),
    )


class RowState(Protocol):
    """What is_waiting and is_due read of a row: an Outbox, or its columns alone (a drain
    reads them so, not the whole entity, for each mail it sends)."""

    @property
    def sent_at(self) -> datetime | None: ...
    @property
    def bounced_at(self) -> datetime | None: ...
    @property
    def dropped_at(self) -> datetime | None: ...
    @property
    def next_attempt_at(self) -> datetime | None: ...


def is_waiting(row: RowState) -> bool:
    return row.sent_at is None and row.bounced_at is None and row.dropped_at is None


def is_due(row: RowState, now: datetime) -> bool:
    if not is_waiting(row):
        return False  # another drain got here first
    return row.next_attempt_at is None or utc(row.next_attempt_at) <= utc(now)


def next_rows(
    session: Session,
    now: datetime,
    limit: int,
    *,
    skip: frozenset[int],
    replies_only: bool = False,
) -> list[int]:
    """The ids of up to `limit` rows to try next, in the order to try them, leaving out the
    ids in `skip` (tried already in this pass), and bulk mail with `replies_only`. Replies
    to a person who just wrote first (Outbox.priority), then bulk; each first in, first out:
    this is the one place that chooses the order."""
    retry_due = or_(col(Outbox.next_attempt_at).is_(None), col(Outbox.next_attempt_at) <= utc(now))
    order = (col(Outbox.priority), col(Outbox.id))
    query = select(Outbox.id).where(*waiting(), retry_due).order_by(*order)
    if skip:
        query = query.where(col(Outbox.id).not_in(skip))
    if replies_only:
        query = query.where(col(Outbox.priority) == REPLY)
    return [row_id for row_id in session.exec(query.limit(limit)) if row_id is not None]


def reply_due(session: Session, now: datetime) -> bool:
    """Is a reply to a person who just wrote waiting and due? (It may use the part of the
    rate limit bulk mail leaves free.)"""
    retry_due = or_(col(Outbox.next_attempt_at).is_(None), col(Outbox.next_attempt_at) <= utc(now))
    query = select(Outbox.id).where(*waiting(), retry_due, col(Outbox.priority) == REPLY)
    return session.exec(query.limit(1)).first() is not None


def last_sent_before(session: Session, now: datetime) -> datetime | None:
    """When the server last took a mail before `now` (None: never)."""
    found = session.exec(
        select(func.max(Outbox.sent_at)).where(col(Outbox.sent_at) < utc(now))
    ).one()
    return utc(found) if found is not None else None


def deferred_at(retry: RetryPolicy, row: Outbox) -> datetime:
    """When a deferred row was last deferred (its retry time less the delay it was given)."""
    assert row.next_attempt_at is not None
    return utc(row.next_attempt_at) - retry.delay(row.attempts)


def flush_deferred(
    session: Session, retry: RetryPolicy, now: datetime, *, since: datetime | None
) -> int:
    """Make due now every row deferred after `since` (the last success before this one): the
    server failed it while it failed mail as a whole, and has just taken a mail again. A row
    deferred while the server took other mail (greylisting, a full mailbox) keeps its delay.
    How many."""
    query = select(Outbox).where(*waiting(), col(Outbox.next_attempt_at) > utc(now))
    flushed = 0
    for row in session.exec(query):
        moment = deferred_at(retry, row)
        # Not one deferred in this very pass (at `now`): it failed while the server worked.
        if (since is None or moment > since) and moment < utc(now):
            row.next_attempt_at = None
            session.add(row)
            flushed += 1
    return flushed


def next_send_time(session: Session) -> datetime | None:
    """When the next waiting mail is due (a time in the past: now), or None if none waits."""
    due = func.min(func.coalesce(Outbox.next_attempt_at, Outbox.created_at))
    found = session.exec(select(due).where(*waiting())).one()
    return utc(found) if found is not None else None


def queued_since(session: Session, after: int | None) -> tuple[int, set[str]]:
    """The newest row's id (0 if none), and the games of the bulk rows queued after `after`
    (none when `after` is None: the first look only learns where the queue stands). A reply
    answers a mail, and the intake that took the mail in woke the clocks itself if it made
    work due: its game is left out."""
    newest = session.exec(select(func.max(Outbox.id))).one() or 0
    if after is None or newest <= after:
        return newest, set()
    rows = select(Outbox.game_id).where(
        col(Outbox.id) > after, col(Outbox.game_id).is_not(None), col(Outbox.priority) != REPLY
    )
    return newest, {game for game in session.exec(rows.distinct()) if game is not None}
