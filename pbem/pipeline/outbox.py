"""The outbox: mail is queued in the transaction of the change that caused it and sent later
by `drain`, which marks each row sent after the transport took it. Message-IDs are stable, and
the table's unique Message-ID makes queueing the same mail twice impossible."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from email import message_from_bytes, policy
from email.message import EmailMessage
from typing import cast

from sqlalchemy import func
from sqlmodel import Session, col, select

from pbem.config import Settings
from pbem.mail.compose import compose
from pbem.pipeline.protocols import Sender
from pbem.pipeline.service import Service
from pbem.store import Outbox, transaction, utc


@dataclass(frozen=True)
class Letter:
    """A mail to queue: who gets it, and what it says."""

    kind: str  # reply | report | game-end
    to: str
    subject: str
    body: str
    message_id: str
    in_reply_to: str = ""
    game_id: str | None = None


def queue(session: Session, settings: Settings, letter: Letter, *, now: datetime) -> Outbox:
    auto = "auto-replied" if letter.kind == "reply" else "auto-generated"
    message = compose(
        sender=f"{settings.mail.name} <{settings.mail.address}>",
        to=letter.to,
        subject=letter.subject,
        body=letter.body,
        message_id=letter.message_id,
        in_reply_to=letter.in_reply_to,
        loop_token=settings.mail.loop_token,
        auto=auto,
    )
    row = Outbox(
        message_id=letter.message_id,
        kind=letter.kind,
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
    failed: int


def drain(service: Service, sender: Sender, *, now: datetime, limit: int = 1000) -> DrainReport:
    """Send unsent mail oldest first, one transaction per mail; a failure is counted on the
    row and retried by the next drain."""
    sent = failed = 0
    for row_id in _unsent_ids(service, limit):
        with transaction(service.db) as session:
            row = session.get(Outbox, row_id)
            if row is None or row.sent_at is not None:
                continue  # another drain got here first
            row.attempts += 1
            try:
                sender.send(as_message(row.raw))
            except Exception as error:  # the transport's trouble is the row's, not ours
                row.last_error = f"{type(error).__name__}: {error}"
                failed += 1
                continue
            row.sent_at = utc(now)
            sent += 1
    return DrainReport(sent, failed)


def _unsent_ids(service: Service, limit: int) -> list[int]:
    with transaction(service.db) as session:
        query = select(Outbox.id).where(col(Outbox.sent_at).is_(None)).order_by(col(Outbox.id))
        return [row_id for row_id in session.exec(query.limit(limit)) if row_id is not None]


def as_message(raw: bytes) -> EmailMessage:
    return cast(EmailMessage, message_from_bytes(raw, policy=policy.default))
