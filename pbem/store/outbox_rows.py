"""The outbox aggregate's rows (the domain's side: pbem.games.outbox): which rows a drain
pass sends, and in what order (the rows waiting and due now, and after an outage, the
deferred rows a success makes due again at once, a flush, as Postfix flushes a
destination's queue once it takes mail again); the counts of the reply limit; the unsent
mail dropped, stale or stopped; the stopped addresses."""

from __future__ import annotations

from collections.abc import Callable, Collection
from datetime import datetime, timedelta
from typing import Any, Protocol, cast

from sqlalchemy import ColumnElement, CursorResult, Update, and_, func, or_, update
from sqlalchemy.orm import defer
from sqlmodel import Session, col, select

from pbem.store.db import utc
from pbem.store.models import MailStop, Outbox
from pbem.store.statuses import OutboxKind

REPLY, BULK = 0, 1  # Outbox.priority: replies to a person who just wrote go out first
# How a reply to a mail that proved its seat begins its Message-ID: the reply limit counts
# those replies apart, so that mail anyone can send under a From does not use them up.
PROVED_ID = "<proved."
# Outbox.last_error of a reply kept unsent, past the reply limit.
RATE_LIMITED = "not sent: reply rate limit reached ([limits] replies_per_sender)"


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


# The delay a row deferred `attempts` times was given (the retry policy's).
Delay = Callable[[int], timedelta]


def deferred_at(delay: Delay, row: Outbox) -> datetime:
    """When a deferred row was last deferred (its retry time less the delay it was given)."""
    assert row.next_attempt_at is not None
    return utc(row.next_attempt_at) - delay(row.attempts)


def flush_deferred(session: Session, delay: Delay, now: datetime, *, since: datetime | None) -> int:
    """Make due now every row deferred after `since` (the last success before this one): the
    server failed it while it failed mail as a whole, and has just taken a mail again. A row
    deferred while the server took other mail (greylisting, a full mailbox) keeps its delay.
    How many."""
    query = select(Outbox).where(*waiting(), col(Outbox.next_attempt_at) > utc(now))
    flushed = 0
    for row in session.exec(query):
        moment = deferred_at(delay, row)
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


def sent(row_id: int, now: datetime) -> Update:
    """The statement that records a row sent at `now`, if it is still waiting."""
    return (
        update(Outbox)
        .where(col(Outbox.id) == row_id, *waiting())
        .values(attempts=col(Outbox.attempts) + 1, sent_at=utc(now), next_attempt_at=None)
    )


def count_to(
    session: Session,
    recipient: str,
    since: datetime,
    limit: int,
    *,
    replies: bool = False,
    proved: bool = False,
) -> int:
    """How many mails (`replies`: replies; `proved`: replies to mail that proved its seat)
    were queued to `recipient` (lower case) after `since`, counted up to `limit`: an address
    may have had thousands. Without either the count reads the (recipient, created_at) index
    alone."""
    where = [col(Outbox.recipient) == recipient, col(Outbox.created_at) > since]
    if replies:
        where.append(col(Outbox.kind) == OutboxKind.REPLY)
    if proved:
        where.append(col(Outbox.message_id).startswith(PROVED_ID, autoescape=True))
    rows = select(Outbox.recipient).where(*where).limit(limit).subquery()
    return session.exec(select(func.count()).select_from(rows)).one()


def room_for_replies(
    address: ColumnElement[str], since: datetime, limit: int
) -> ColumnElement[bool]:
    """SQL, true when `address` (a column of the query's own rows, an ASCII address) has had
    fewer than `limit` mails queued after `since`: count_to's, read with the row that holds
    the address. It stops at the limit too: is there a limit-th row?"""
    recent = (col(Outbox.recipient) == func.lower(address), col(Outbox.created_at) > since)
    nth = select(Outbox.id).where(*recent).offset(limit - 1).limit(1).scalar_subquery()
    return nth.is_(None)


def drop_topic(session: Session, topic: str, reason: str, now: datetime) -> int:
    """Drop the unsent mail of `topic`, giving `reason`. How many."""
    return _drop(session, col(Outbox.topic) == topic, reason, now)


def drop_topics_starting(
    session: Session, starts: Collection[str], reason: str, now: datetime
) -> int:
    """Drop the unsent mail whose topic starts with any of `starts`, giving `reason`."""
    if session.get_bind().dialect.name != "sqlite":
        about = or_(*(col(Outbox.topic).startswith(start, autoescape=True) for start in starts))
        return _drop(session, about, reason, now)
    # SQLite's LIKE (case-blind, with an ESCAPE) uses no index, and with the waiting mail's
    # conditions the planner took the index of sent_at: each resolved turn of a wave read
    # every waiting mail, bytes and all. SQLite compares text byte by byte, so a range on
    # the topic's index finds the rows, read from the index alone; PostgreSQL's collation
    # need not sort a prefix's strings together, hence LIKE there.
    ranges = [
        and_(col(Outbox.topic) >= start, col(Outbox.topic) < _after(start)) for start in starts
    ]
    ids = list(session.exec(select(Outbox.id).where(or_(*ranges))))
    return _drop(session, col(Outbox.id).in_(ids), reason, now) if ids else 0


def _after(start: str) -> str:
    """The first text past every text that begins with `start` (byte order)."""
    return start[:-1] + chr(ord(start[-1]) + 1)


def _drop(session: Session, which: ColumnElement[bool], reason: str, now: datetime) -> int:
    query = (
        update(Outbox)
        .where(which, *waiting())
        .values(dropped_at=utc(now), next_attempt_at=None, last_error=reason)
    )
    # An UPDATE gives a CursorResult; Session.execute is typed with the general Result.
    return cast(CursorResult[Any], session.execute(query)).rowcount


def drop_waiting_to(session: Session, recipient: str, reason: str, now: datetime) -> None:
    """Drop the mail waiting to `recipient` (lower case), giving `reason`."""
    to_it = update(Outbox).where(col(Outbox.recipient) == recipient, *waiting())
    session.exec(to_it.values(dropped_at=utc(now), last_error=reason))


def is_stop_recorded(session: Session, address: str) -> bool:
    """Is `address` (lower case) among the stopped addresses?"""
    return session.get(MailStop, address) is not None


def forget_stop(session: Session, address: str) -> datetime | None:
    """`address` (lower case) is no longer stopped (UNSTOP with its token); when it was
    stopped, None if it was not."""
    row = session.get(MailStop, address)
    if row is None:
        return None
    stopped_at = row.stopped_at
    session.delete(row)
    session.flush()
    return stopped_at


def stopped_addresses(session: Session, limit: int) -> list[str]:
    """Up to `limit` stopped addresses (lower case)."""
    return list(session.exec(select(MailStop.address).limit(limit)))


def listed(session: Session, *, include_sent: bool = False) -> list[Outbox]:
    """The rows not sent (waiting, bounced or dropped; `include_sent`: every row ever
    queued), oldest first, without the mails themselves."""
    query = select(Outbox).options(defer(Outbox.raw)).order_by(col(Outbox.id))  # type: ignore[arg-type]
    if not include_sent:
        query = query.where(col(Outbox.sent_at).is_(None))
    return list(session.exec(query))


def take_back_unsent(session: Session, row_id: int) -> bool:
    """Delete the queued mail `row_id` if it is still there and unsent (a notice a later one
    of the same transaction replaces); whether it was."""
    row = session.get(Outbox, row_id)
    if row is None or row.sent_at is not None:
        return False
    session.delete(row)
    session.flush()
    return True


def is_queued(session: Session, message_id: str) -> bool:
    """Was a mail with this Message-ID queued (whatever became of it)?"""
    return (
        session.exec(select(Outbox.id).where(Outbox.message_id == message_id)).first() is not None
    )


def mailed(session: Session, game_id: str, recipient: str, subject: str) -> bool:
    """Was a mail of the game with this subject queued to `recipient` (lower case)?"""
    query = select(Outbox.id).where(
        Outbox.game_id == game_id,
        func.lower(Outbox.recipient) == recipient,
        Outbox.subject == subject,
    )
    return session.exec(query.limit(1)).first() is not None


def last_queued_at(session: Session, game_id: str, recipient: str, subject: str) -> datetime | None:
    """When the game's newest mail with this subject was queued to `recipient` (lower case)."""
    query = select(Outbox.created_at).where(
        Outbox.game_id == game_id,
        func.lower(Outbox.recipient) == recipient,
        Outbox.subject == subject,
    )
    return session.exec(query.order_by(col(Outbox.id).desc()).limit(1)).first()


def count_unsent(session: Session) -> int:
    """How many rows are neither sent nor bounced (waiting, or dropped)."""
    unsent = col(Outbox.sent_at).is_(None), col(Outbox.bounced_at).is_(None)
    return len(list(session.exec(select(Outbox.id).where(*unsent))))


def first_of_kind_to(session: Session, kind: OutboxKind, recipient: str) -> Outbox | None:
    """A mail of `kind` queued to `recipient` (lower case), if any."""
    query = select(Outbox).where(Outbox.kind == kind, Outbox.recipient == recipient)
    return session.exec(query).first()
