"""The outbox: mail is queued in the transaction of the change that caused it and sent later
by `drain`, which marks each row sent after the transport took it. Message-IDs are stable, and
the table's unique Message-ID makes queueing the same mail twice impossible.

A row is waiting (sent_at and bounced_at unset; not before next_attempt_at if set), sent, or
bounced (refused for good by the server, or deferred for longer than [smtp] give_up_hours).
"""

from __future__ import annotations

import logging
from collections import Counter
from dataclasses import dataclass
from datetime import datetime, timedelta
from email import message_from_bytes, policy
from email.message import EmailMessage
from typing import Any, cast

from sqlalchemy import func, or_
from sqlmodel import Session, col, select

from pbem.config import Settings
from pbem.logs import log_context
from pbem.mail.compose import compose, stable_message_id
from pbem.mail.smtp import PermanentFailure, TemporaryFailure, give_up_after, retry_delay
from pbem.pipeline.audit import audit
from pbem.pipeline.protocols import Sender
from pbem.pipeline.service import Service
from pbem.store import Outbox, Referee, transaction, utc
from pbem.templates import render

log = logging.getLogger(__name__)
REPLY, BULK = 0, 1  # Outbox.priority: replies to a person who just wrote go out first


@dataclass(frozen=True)
class Letter:
    """A mail to queue: who gets it, and what it says."""

    kind: str  # reply | report | game-end | bounce
    to: str
    subject: str
    body: str
    message_id: str
    in_reply_to: str = ""
    game_id: str | None = None
    references: tuple[str, ...] = ()  # the thread the mail we answer belongs to


def queue(session: Session, settings: Settings, letter: Letter, *, now: datetime) -> Outbox:
    auto = "auto-replied" if letter.kind == "reply" else "auto-generated"
    message = compose(
        sender=f"{settings.mail.name} <{settings.mail.address}>",
        to=letter.to,
        subject=letter.subject,
        body=letter.body,
        message_id=letter.message_id,
        in_reply_to=letter.in_reply_to,
        references=letter.references,
        loop_token=settings.mail.loop_token,
        auto=auto,
    )
    row = Outbox(
        message_id=letter.message_id,
        kind=letter.kind,
        priority=REPLY if letter.kind == "reply" else BULK,
        recipient=letter.to.lower(),
        subject=letter.subject,
        raw=message.as_bytes(),
        game_id=letter.game_id,
        created_at=utc(now),
    )
    session.add(row)
    session.flush()
    return row


def replies_allowed(session: Session, settings: Settings, to: str, *, now: datetime) -> bool:
    """Under the per-address reply limit? Counted from the outbox itself, so it survives
    restarts and holds across processes."""
    since = utc(now) - timedelta(minutes=settings.limits.reply_window_minutes)
    query = select(func.count()).where(
        Outbox.recipient == to.lower(), Outbox.kind == "reply", col(Outbox.created_at) > since
    )
    return session.exec(query).one() < settings.limits.replies_per_sender


@dataclass(frozen=True)
class DrainReport:
    sent: int
    failed: int  # not sent in this pass: deferred, bounced, or the one the pass stopped at
    bounced: int = 0  # of those, recorded as bounced (never to be sent)
    stopped: str = ""  # why the pass ended early (the transport is down), or ""


def drain(service: Service, sender: Sender, *, now: datetime, limit: int = 1000) -> DrainReport:
    """Send the mail that is due, replies before bulk and each oldest first, one transaction
    per mail. A mail the server defers waits a growing delay; one it refuses, or defers too
    long, is recorded as bounced and the game's referees are told. When the transport as a
    whole is down the pass stops, holding nothing against the mail."""
    counts: Counter[str] = Counter()
    stopped = ""
    for row_id in _due_ids(service, now, limit):
        with transaction(service.db) as session:
            # Locked: a second drain (another process) waits here, then skips the row.
            row = session.get(Outbox, row_id, with_for_update=True)
            if row is None or not _due(row, now):
                continue
            with log_context(game=row.game_id or "-", message=row.message_id):
                result = _attempt(session, service.settings, sender, row, now)
            error = row.last_error
        counts[result] += 1
        if result == "down":
            stopped = error
            break
    failed = counts["deferred"] + counts["bounced"] + counts["down"]
    return DrainReport(counts["sent"], failed, counts["bounced"], stopped)


def _attempt(
    session: Session, settings: Settings, sender: Sender, row: Outbox, now: datetime
) -> str:
    """Hand one row to the sender and record what became of it: sent, deferred, bounced or
    down (the transport is away; the row is not counted against)."""
    try:
        sender.send(as_message(row.raw))
    except TemporaryFailure as failure:
        row.last_error = str(failure)
        if failure.transport_down:
            return "down"
        return _defer(session, settings, row, now)
    except PermanentFailure as failure:
        row.attempts += 1
        row.last_error = str(failure)
        _bounce(session, settings, row, now)
        return "bounced"
    except Exception as error:
        # A sender without our two failures (the maildir's OSError) or a bug: retried later
        # like a deferral, so that one poisoned mail cannot hold up the queue behind it.
        log.exception("outbox: %s not sent", row.message_id)
        row.last_error = f"{type(error).__name__}: {error}"
        return _defer(session, settings, row, now)
    row.attempts += 1
    row.sent_at = utc(now)
    row.next_attempt_at = None
    return "sent"


def _defer(session: Session, settings: Settings, row: Outbox, now: datetime) -> str:
    row.attempts += 1
    if utc(now) - utc(row.created_at) >= give_up_after(settings.smtp):
        _bounce(session, settings, row, now)
        return "bounced"
    row.next_attempt_at = utc(now) + retry_delay(settings.smtp, row.attempts)
    log.info(
        "outbox: %s deferred until %s: %s", row.message_id, row.next_attempt_at, row.last_error
    )
    return "deferred"


def _bounce(session: Session, settings: Settings, row: Outbox, now: datetime) -> None:
    row.bounced_at = utc(now)
    row.next_attempt_at = None
    log.warning("outbox: %s to %s bounced: %s", row.message_id, row.recipient, row.last_error)
    detail = f"{row.kind} {row.message_id} to {row.recipient}: {row.last_error}"
    audit(session, now, "pipeline", "mail-bounced", row.game_id, detail)
    if row.kind == "bounce" or row.game_id is None:
        return  # a notice about a notice could bounce back and forth for ever
    query = select(Referee).where(Referee.game_id == row.game_id).order_by(col(Referee.id))
    for referee in session.exec(query):
        if referee.address.lower() != row.recipient:
            queue(session, settings, _bounce_notice(settings, row, referee.address), now=now)


def _bounce_notice(settings: Settings, row: Outbox, to: str) -> Letter:
    body = render(
        "bounce_notice",
        moderator=settings.mail.name,
        game=row.game_id,
        recipient=row.recipient,
        subject=row.subject,
        kind=row.kind,
        queued=utc(row.created_at).strftime("%Y-%m-%d %H:%M UTC"),
        attempts=row.attempts,
        error=row.last_error,
    )
    # One notice per bounced mail and referee: the unique Message-ID sees to it.
    message_id = stable_message_id("bounce", row.message_id, to, domain=settings.mail.domain)
    subject = f"[{row.game_id}] undeliverable: {row.subject}"
    return Letter("bounce", to, subject, body, message_id, game_id=row.game_id)


def _due(row: Outbox, now: datetime) -> bool:
    if row.sent_at is not None or row.bounced_at is not None:
        return False  # another drain got here first
    return row.next_attempt_at is None or utc(row.next_attempt_at) <= utc(now)


def _waiting() -> Any:
    return (col(Outbox.sent_at).is_(None), col(Outbox.bounced_at).is_(None))


def _due_ids(service: Service, now: datetime, limit: int) -> list[int]:
    retry_due = or_(col(Outbox.next_attempt_at).is_(None), col(Outbox.next_attempt_at) <= utc(now))
    # Replies first (a person is waiting for them), then bulk; each oldest first.
    order = (col(Outbox.priority), col(Outbox.id))
    query = select(Outbox.id).where(*_waiting(), retry_due).order_by(*order).limit(limit)
    with transaction(service.db) as session:
        return [row_id for row_id in session.exec(query) if row_id is not None]


def next_send_time(session: Session) -> datetime | None:
    """When the next waiting mail is due (a time in the past: now), or None if none waits."""
    due = func.min(func.coalesce(Outbox.next_attempt_at, Outbox.created_at))
    found = session.exec(select(due).where(*_waiting())).one()
    return utc(found) if found is not None else None


def last_outbox_id(service: Service) -> int:
    """The id of the newest outbox row (0 if none): grows whenever anything queues mail."""
    with transaction(service.db) as session:
        return session.exec(select(func.max(Outbox.id))).one() or 0


def as_message(raw: bytes) -> EmailMessage:
    return cast(EmailMessage, message_from_bytes(raw, policy=policy.default))
