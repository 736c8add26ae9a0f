"""The quarantine: mail that could not be applied, with the error. A referee looks at it and
replays it (after fixing what was wrong: a game created, a bug fixed); the replay handles the
stored raw mail again as attempt n+1, in one transaction."""

from __future__ import annotations

import traceback
from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session

from pbem.config import Settings
from pbem.errors import PbemError
from pbem.games.service import Service
from pbem.intake.context import MailContext
from pbem.intake.dispatch import handle
from pbem.intake.intake import Receipt
from pbem.mail.reading import read_mail
from pbem.store import InboundMessage, MailStatus, Quarantine, transaction, utc
from pbem.store.inbound import quarantine_entries, quarantined


class QuarantineError(PbemError, LookupError):
    pass


@dataclass(frozen=True)
class QuarantineEntry:
    id: int
    message_id: str
    sender: str
    subject: str
    reason: str
    error: str
    created_at: datetime
    released_at: datetime | None


def entries(session: Session, *, include_released: bool = False) -> list[QuarantineEntry]:
    rows = quarantine_entries(session, include_released=include_released)
    return [_entry(q, m) for q, m in rows]


def entry(session: Session, quarantine_id: int) -> tuple[QuarantineEntry, bytes]:
    row, inbound = _found(session, quarantine_id)
    return _entry(row, inbound), inbound.raw


def _found(session: Session, quarantine_id: int) -> tuple[Quarantine, InboundMessage]:
    found = quarantined(session, quarantine_id)
    if found is None:
        raise QuarantineError(f"no quarantine entry {quarantine_id}")
    return found


def replay(service: Service, quarantine_id: int, *, now: datetime) -> Receipt:
    """Handle the quarantined mail again. If that raises, the entry stays as it was and the
    new error is recorded as a further entry."""
    try:
        with transaction(service.db) as session:
            return replay_in(session, service.settings, quarantine_id, now=now)
    except QuarantineError:
        raise
    except Exception:  # noqa: BLE001 - the quarantine boundary: any failure is recorded
        return _replay_failed(service, quarantine_id, traceback.format_exc(), now)


def replay_in(
    session: Session, settings: Settings, quarantine_id: int, *, now: datetime
) -> Receipt:
    """Handle the quarantined mail again inside the caller's transaction (a referee command
    runs in its own); raises what the handling raises."""
    inbound = _release(session, quarantine_id, now)
    mail = read_mail(inbound.raw, max_bytes=settings.mail.max_bytes)
    context = MailContext(session, settings, inbound, mail, now)
    handle(context)
    return Receipt(inbound.message_id, inbound.status, inbound.outcome, list(context.replies))


def _release(session: Session, quarantine_id: int, now: datetime) -> InboundMessage:
    row, inbound = _found(session, quarantine_id)
    if row.released_at is not None:
        raise QuarantineError(f"quarantine entry {quarantine_id} was replayed already")
    row.released_at = utc(now)
    inbound.attempts += 1
    inbound.status = MailStatus.RECEIVED
    inbound.outcome = ""
    return inbound


def _replay_failed(service: Service, quarantine_id: int, error: str, now: datetime) -> Receipt:
    with transaction(service.db) as session:
        found = quarantined(session, quarantine_id)
        assert found is not None
        row, inbound = found
        session.add(
            Quarantine(inbound_id=row.inbound_id, reason="error", error=error, created_at=utc(now))
        )
        row.released_at = utc(now)
        inbound.attempts += 1
        inbound.outcome = "error on replay: " + error.strip().splitlines()[-1]
        return Receipt(inbound.message_id, MailStatus.QUARANTINED, inbound.outcome)


def _entry(row: Quarantine, inbound: InboundMessage) -> QuarantineEntry:
    assert row.id is not None
    return QuarantineEntry(
        row.id,
        inbound.message_id,
        inbound.sender,
        inbound.subject,
        row.reason,
        row.error,
        row.created_at,
        row.released_at,
    )
