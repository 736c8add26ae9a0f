"""Intake: one inbound mail, one transaction, which records the mail (its Message-ID is
unique, so a mail seen before is never applied again) and handles it; a mail whose
handling fails on its own is quarantined with the error, never dropped. A fault of the
database (pbem.store.transient) is raised instead: the mail is taken in again later."""

from __future__ import annotations

import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import partial

from sqlalchemy.exc import IntegrityError

from pbem.games.games import seat_named
from pbem.games.seat_passwords import looks_proved, proved_at_once
from pbem.games.service import Service
from pbem.intake.context import MailContext
from pbem.intake.dispatch import handle, handle_stored
from pbem.intake.finding import line_count, within_lines
from pbem.intake.quarantine import QuarantineError, replay_in
from pbem.intake.receipt import Receipt as Receipt
from pbem.logs import log_context
from pbem.mail.envelope import parse_envelope
from pbem.mail.reading import IncomingMail, read_mail
from pbem.store import (
    InboundMessage,
    MailStatus,
    Quarantine,
    Seat,
    flushed_id,
    transient,
    utc,
)
from pbem.store.work import Work


@dataclass(frozen=True)
class Looked:
    """A mail read, and looked at before its transaction (look_ahead)."""

    mail: IncomingMail
    recorded: bool  # its Message-ID was recorded already
    # What is left of the look: the seat's password to check by scrypt, which lets go of the
    # interpreter and may run in another thread (pbem.intake.ahead). None: nothing is left.
    slow: Callable[[], object] | None = None
    # The seat's key in Service.proved_seats, if the look took the seat as proved from it
    # without reading it: forgotten if the mail is then set aside (a password changed since).
    remembered: str = ""


def look_ahead(service: Service, raws: Sequence[bytes]) -> list[Looked]:
    """Read the mails, find whether they were recorded, and check their seats' passwords as
    far as an HMAC tells (see _look_ahead), with one read of the database for them all: all
    that needs no transaction of the mails', so that it may be done before the mail before
    is handled. What only scrypt tells is left in each one's `slow`."""
    max_bytes = service.settings.mail.max_bytes
    return _look_ahead(service, [read_mail(raw, max_bytes=max_bytes) for raw in raws])


def receive(
    service: Service,
    raw: bytes,
    *,
    now: datetime,
    commit: bool = True,
    looked: Looked | None = None,
) -> Receipt:
    """Record and handle one raw mail. With commit=False nothing is kept (`pbem check`).
    `looked`: the mail's look_ahead, done already."""
    mail = looked.mail if looked else read_mail(raw, max_bytes=service.settings.mail.max_bytes)
    try:
        if looked is None:
            [looked] = _look_ahead(service, [mail])
            if looked.slow is not None:
                looked.slow()  # scrypt, before the transaction (the write lock) begins
        if looked.recorded:
            return Receipt(mail.message_id, MailStatus.DUPLICATE, "already recorded")
        receipt = _receive(service, raw, mail, now, commit=commit)
        if looked.remembered and receipt.status == MailStatus.QUARANTINED:
            # Its next mail is looked at in full: a wrong password then pays scrypt ahead,
            # not inside the transaction (under SQLite's write lock) at every mail.
            service.proved_seats.forget(looked.remembered)
        return receipt
    except IntegrityError:
        if not commit:
            return Receipt(mail.message_id, MailStatus.DUPLICATE, "already recorded")
        # Most likely the same Message-ID, recorded between the look-ahead and the mail's
        # first flush (the same mail twice in the inbox, another daemon): _record_failure
        # finds it so and keeps nothing. Any other constraint is a fault of the handling,
        # and the mail is quarantined with it, not dropped as a duplicate.
        return _record_failure(service, raw, mail, traceback.format_exc(), now)
    except Exception as error:
        if not commit:
            return Receipt(mail.message_id, MailStatus.QUARANTINED, traceback.format_exc())
        if transient(error):
            # The database's fault (locked, read-only, full, away), not the mail's: nothing of
            # it was kept, and the mail stays in the inbox to be taken in again once the
            # database is back; the pass fails and the daemon backs off.
            raise
        return _record_failure(service, raw, mail, traceback.format_exc(), now)


def _receive(
    service: Service, raw: bytes, mail: IncomingMail, now: datetime, *, commit: bool
) -> Receipt:
    # The handling's log lines name the mail by its Message-ID, not the inbox's file name.
    unit = service.store.transaction(keep=commit)
    with log_context(message=mail.message_id), unit as work:
        # Written at the mail's first flush (with its reply, or at the commit), with its
        # status: an INSERT and an UPDATE were two round trips. The look-ahead found it
        # unrecorded; if it was recorded since (the same mail twice in the inbox, another
        # daemon), the Message-ID's unique index says so at that flush (see receive).
        inbound = _record(work, raw, mail, now)
        context = MailContext(work, service.settings, inbound, mail, now)
        handle(context)
        return _receipt(context)


def _look_ahead(service: Service, mails: Sequence[IncomingMail]) -> list[Looked]:
    """Before the mails' transactions begin: has each mail been recorded already (a mail
    taken in again, by this daemon after a crash or by another daemon)? If not, is the seat's
    password proved by its check (an HMAC)? If only scrypt can tell, that is left in `slow`:
    scrypt takes about 50 ms, and inside the transaction it would hold the write lock
    (SQLite) that long, keeping the courier's sends and every other writer waiting. The check
    inside then finds the password verified (pbem.passwords) and costs an HMAC; a wrong one
    fails both, and is told there. A mail refused unread (too big, too long) is not parsed
    here: walking 100,000 lines would hold up the mails behind it.

    A seat whose password was found proved here before, with this password, is not looked
    up again (Service.proved_seats): nothing is left for scrypt, and a mail recorded already
    is stopped at its record by the Message-ID's unique index. Should the seat's password
    have changed meanwhile, the check inside tells, at scrypt's cost once. The others are
    looked up together, in one read: on PostgreSQL a read a mail was five round trips."""
    claims = [_claimed_seat(mail, service.settings.limits.max_mail_lines) for mail in mails]
    proved = [bool(c and service.proved_seats.holds(c.password, c.key)) for c in claims]
    unknown = [(mail, claim) for mail, claim, p in zip(mails, claims, proved, strict=True) if not p]
    recorded: set[str] = set()
    seats: dict[str, list[Seat]] = {}
    if unknown:
        with service.store.reading() as work:
            recorded = work.inbound.which_recorded([mail.message_id for mail, _ in unknown])
            games = {claim.game.lower() for _, claim in unknown if claim}
            seats = work.games.seats_of_games(games) if games else {}
    looks = []
    for mail, claim, p in zip(mails, claims, proved, strict=True):
        if p and claim:
            looks.append(Looked(mail, recorded=False, remembered=claim.key))
        elif mail.message_id in recorded:
            looks.append(Looked(mail, recorded=True))
        else:
            seat = seat_named(seats.get(claim.game.lower(), []), claim.seat) if claim else None
            looks.append(_check_ahead(service, mail, claim, seat))
    return looks


def _check_ahead(
    service: Service, mail: IncomingMail, claim: _Claim | None, seat: Seat | None
) -> Looked:
    """The look at an unrecorded mail: its seat's password proved by an HMAC (and
    remembered), left to scrypt, or not to be checked here at all."""
    security = service.settings.security
    if claim is None or seat is None or not seat.password_hash:
        return Looked(mail, recorded=False)
    if proved_at_once(seat, claim.password, security):
        service.proved_seats.add(claim.password, claim.key)
        return Looked(mail, recorded=False)
    return Looked(mail, recorded=False, slow=partial(looks_proved, seat, claim.password, security))


@dataclass(frozen=True)
class _Claim:
    """The seat a mail's envelope names, and the password it gives."""

    game: str
    seat: str
    password: str

    @property
    def key(self) -> str:  # in Service.proved_seats
        return f"{self.game}\0{self.seat}".lower()


def _claimed_seat(mail: IncomingMail, max_lines: int) -> _Claim | None:
    """The seat and password of the mail's envelope; None if it gives none (no password, or
    one in a quoted or attached text: told inside) or is not read at all."""
    mail = within_lines(mail, max_lines)
    if mail.too_big or line_count(mail.text) > max_lines:
        return None
    envelope = parse_envelope(mail.text)
    if envelope.problem or not (envelope.game and envelope.seat and envelope.password):
        return None
    return _Claim(envelope.game, envelope.seat, envelope.password)


def replay(service: Service, quarantine_id: int, *, now: datetime) -> Receipt:
    """Handle a quarantined mail again (`pbem quarantine replay`), in one transaction. If
    that raises, the entry stays as it was and the new error is recorded as a further entry."""
    try:
        with service.store.transaction() as work:
            return replay_in(work, service.settings, quarantine_id, now=now, handle=handle_stored)
    except QuarantineError:
        raise
    except Exception:  # noqa: BLE001 - the quarantine boundary: any failure is recorded
        return _replay_failed(service, quarantine_id, traceback.format_exc(), now)


def _replay_failed(service: Service, quarantine_id: int, error: str, now: datetime) -> Receipt:
    with service.store.transaction() as work:
        found = work.inbound.quarantined(quarantine_id)
        assert found is not None
        row, inbound = found
        work.inbound.add(
            Quarantine(inbound_id=row.inbound_id, reason="error", error=error, created_at=utc(now))
        )
        row.released_at = utc(now)
        inbound.attempts += 1
        inbound.outcome = "error on replay: " + error.strip().splitlines()[-1]
        return Receipt(inbound.message_id, MailStatus.QUARANTINED, inbound.outcome)


def _record_failure(
    service: Service, raw: bytes, mail: IncomingMail, error: str, now: datetime
) -> Receipt:
    """The handling raised: keep the mail and the error in a fresh transaction. No reply: we
    cannot tell whether answering is safe when we do not know what went wrong."""
    with service.store.transaction() as work:
        if work.inbound.which_recorded([mail.message_id]):
            return Receipt(mail.message_id, MailStatus.DUPLICATE, "already recorded")
        inbound = _record(work, raw, mail, now)
        inbound.status = MailStatus.QUARANTINED
        inbound.outcome = "error: " + error.strip().splitlines()[-1]
        work.flush()  # its id, for the quarantine
        work.inbound.add(
            Quarantine(
                inbound_id=flushed_id(inbound.id), reason="error", error=error, created_at=utc(now)
            )
        )
        return Receipt(mail.message_id, MailStatus.QUARANTINED, inbound.outcome)


def _record(work: Work, raw: bytes, mail: IncomingMail, now: datetime) -> InboundMessage:
    inbound = InboundMessage(
        message_id=mail.message_id,
        raw=raw,
        sender=mail.sender[:998],
        subject=mail.subject,
        received_at=utc(now),
    )
    work.inbound.add(inbound)
    return inbound


def _receipt(context: MailContext) -> Receipt:
    inbound = context.inbound
    replies = list(context.replies)
    clock_work = context.clock_work and inbound.status in (MailStatus.ACCEPTED, MailStatus.ANSWERED)
    return Receipt(
        inbound.message_id, inbound.status, inbound.outcome, replies, inbound.game_id, clock_work
    )
