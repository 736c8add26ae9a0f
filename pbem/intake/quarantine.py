"""The quarantine: mail that could not be applied, with the error. A referee looks at it and
replays it (after fixing what was wrong: a game created, a bug fixed); the replay handles the
stored raw mail again as attempt n+1, in one transaction (pbem.intake.intake.replay, the
referee's REPLAY: pbem.intake.replay). How a mail is handled is handed in: handling mail
runs the referee's commands, REPLAY among them, and this module is imported by both."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from pbem.config import Settings
from pbem.errors import PbemError
from pbem.intake.receipt import Receipt
from pbem.referee.context import MailHandler
from pbem.store import InboundMessage, MailStatus, Quarantine, utc
from pbem.store.work import Work


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


def entries(work: Work, *, include_released: bool = False) -> list[QuarantineEntry]:
    rows = work.inbound.quarantine_entries(include_released=include_released)
    return [_entry(q, m) for q, m in rows]


def entry(work: Work, quarantine_id: int) -> tuple[QuarantineEntry, bytes]:
    row, inbound = _found(work, quarantine_id)
    return _entry(row, inbound), inbound.raw


def _found(work: Work, quarantine_id: int) -> tuple[Quarantine, InboundMessage]:
    found = work.inbound.quarantined(quarantine_id)
    if found is None:
        raise QuarantineError(f"no quarantine entry {quarantine_id}")
    return found


def replay_in(
    work: Work, settings: Settings, quarantine_id: int, *, now: datetime, handle: MailHandler
) -> Receipt:
    """Handle the quarantined mail again inside the caller's transaction (a referee command
    runs in its own) by `handle`; raises what the handling raises."""
    inbound = _release(work, quarantine_id, now)
    replies = handle(work, settings, inbound, now)
    return Receipt(inbound.message_id, inbound.status, inbound.outcome, list(replies))


def _release(work: Work, quarantine_id: int, now: datetime) -> InboundMessage:
    row, inbound = _found(work, quarantine_id)
    if row.released_at is not None:
        raise QuarantineError(f"quarantine entry {quarantine_id} was replayed already")
    row.released_at = utc(now)
    inbound.attempts += 1
    inbound.status = MailStatus.RECEIVED
    inbound.outcome = ""
    return inbound


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
