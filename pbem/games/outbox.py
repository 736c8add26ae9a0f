"""The outbox: mail is queued in the transaction of the change that caused it and sent later
by `drain`, which marks each row sent after the transport took it. Message-IDs are stable, and
the table's unique Message-ID makes queueing the same mail twice impossible.

A row is waiting (sent_at, bounced_at and dropped_at unset; not before next_attempt_at if
set), sent, bounced (refused for good by the server, or deferred for longer than [outbox]
give_up_hours), or dropped (a notice gone stale before it could be sent: pbem.games.stale).
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from email import message_from_bytes, policy
from email.message import EmailMessage
from enum import StrEnum
from functools import partial
from typing import Any, cast

from pbem.config import Settings
from pbem.games.audit import audit
from pbem.games.lanes import Lanes
from pbem.games.protocols import RawSender, Sender
from pbem.games.service import Service
from pbem.games.stale import check_droppable, drop_expired, expired, supersede
from pbem.games.stops import STOPPED, is_stopped, unsubscribe_line
from pbem.logs import log_context
from pbem.mail.compose import Attachment, mail_bytes, stable_message_id
from pbem.mail.delivery import PermanentFailure, TemporaryFailure
from pbem.store import Outbox, OutboxKind, utc
from pbem.store.outbox_hold import HeldRow, hold_outbox_row
from pbem.store.outbox_rows import (
    BULK,
    PROVED_ID,
    REPLY,
    is_due,
    is_waiting,
)
from pbem.store.work import Work
from pbem.templates import render

# Outbox kinds that change nothing a player is told of, so no page of the web archive: replies
# to their own mail, press relayed between seats, bounce notices to referees.
QUIET_KINDS = frozenset({OutboxKind.REPLY, OutboxKind.PRESS, OutboxKind.BOUNCE})

log = logging.getLogger(__name__)
_QUEUED_TO = "pbem_queued_to"  # in a unit of work's memo: queued_to
# The columns a drain reads of a row it may send: the mail, and whether it is still due.
_SENDING: tuple[Any, ...] = (
    Outbox.raw, Outbox.game_id, Outbox.message_id, Outbox.sent_at, Outbox.bounced_at,
    Outbox.dropped_at, Outbox.next_attempt_at, Outbox.expires_at, Outbox.recipient,
)  # fmt: skip
# Outbox rows read at a time by a drain: a reply queued meanwhile waits at most this many sends.
READ_AHEAD = 10


@dataclass(frozen=True)
class Letter:
    """A mail to queue: who gets it, and what it says."""

    kind: OutboxKind
    to: str
    subject: str
    body: str
    message_id: str
    in_reply_to: str = ""
    game_id: str | None = None
    references: tuple[str, ...] = ()  # the thread the mail we answer belongs to
    # Only for notices that can go stale (pbem.games.stale): not sent from this moment on,
    # and superseded by a newer letter of the same topic.
    expires_at: datetime | None = None
    topic: str = ""
    attachments: tuple[Attachment, ...] = ()  # pictures and data, after the text
    # Why the letter is kept unsent ('' to send it): a reply past the reply limit, kept as a
    # record the operator sees (`pbem outbox list`).
    held: str = ""


def queue(work: Work, settings: Settings, letter: Letter, *, now: datetime) -> Outbox:
    auto = "auto-replied" if letter.kind == OutboxKind.REPLY else "auto-generated"
    raw = mail_bytes(
        sender=f"{settings.mail.name} <{settings.mail.address}>",
        to=letter.to,
        subject=letter.subject,
        body=letter.body,
        message_id=letter.message_id,
        in_reply_to=letter.in_reply_to,
        references=letter.references,
        loop_token=settings.mail.loop_token,
        auto=auto,
        attachments=letter.attachments,
    )
    if letter.topic or letter.expires_at is not None:
        check_droppable(letter.kind)
    if letter.topic:
        supersede(work, letter.topic, letter.message_id, now=now)
    row = Outbox(
        message_id=letter.message_id,
        kind=letter.kind,
        priority=REPLY if letter.kind == OutboxKind.REPLY else BULK,
        recipient=letter.to.lower(),
        subject=letter.subject,
        raw=raw,
        game_id=letter.game_id,
        created_at=utc(now),
        topic=letter.topic,
        expires_at=utc(letter.expires_at) if letter.expires_at is not None else None,
    )
    if letter.held:
        row.dropped_at, row.last_error = utc(now), letter.held
    elif is_stopped(work, letter.to):  # kept as a record, never sent
        row.dropped_at, row.last_error = utc(now), STOPPED
    work.outbox.add(row)
    work.flush()
    queued_to(work).add(row.recipient)
    if letter.game_id and letter.kind not in QUIET_KINDS:
        work.games.note_changed(letter.game_id)  # the web archive, after the commit
    return row


def replies_allowed(
    work: Work, settings: Settings, to: str, *, now: datetime, proved: bool = False
) -> bool:
    """Under the per-address reply limit? Counted from the outbox itself, so it survives
    restarts and holds across processes. `proved`: a reply to a mail that proved the seat of
    that address, under a limit of its own: only those replies count (proved_id)."""
    since = _window_start(settings, now)
    limit = settings.limits.replies_per_sender
    # Every mail to the address is counted first, from the (recipient, created_at) index
    # alone: under the limit, its replies are too. Only past it are the replies told apart,
    # reading the rows. Each count stops at the limit: an address may have had thousands.
    if work.outbox.count_to(to.lower(), since, limit) < limit:
        return True
    if proved:
        return work.outbox.count_to(to.lower(), since, limit, proved=True) < limit
    return work.outbox.count_to(to.lower(), since, limit, replies=True) < limit


def proved_id(message_id: str) -> str:
    """The Message-ID of a reply to a mail that proved its seat: marked, so that the reply
    limit counts those replies alone (pbem.store.outbox_rows.PROVED_ID)."""
    return PROVED_ID + message_id.removeprefix("<")


def reply_window(settings: Settings, now: datetime) -> tuple[datetime, int]:
    """The reply limit at `now`: (since when mails are counted, how many are allowed).
    replies_allowed's first count, read with the row that holds the address (a seat's:
    pbem.intake.context, pbem.store.games.seats_with_room), a round trip fewer a mail.
    Past the limit, replies_allowed tells the replies apart."""
    return _window_start(settings, now), settings.limits.replies_per_sender


def queued_to(work: Work) -> set[str]:
    """The addresses the unit of work queued mail to (lower-cased), so far."""
    return cast(set[str], work.memo.setdefault(_QUEUED_TO, set()))


def _window_start(settings: Settings, now: datetime) -> datetime:
    return utc(now) - timedelta(minutes=settings.limits.reply_window_minutes)


class Delivery(StrEnum):
    """What became of one outbox row a drain tried."""

    SENT = "sent"
    DEFERRED = "deferred"  # the server asked for a later try
    BOUNCED = "bounced"  # refused for good, or deferred too long
    DROPPED = "dropped"  # a stale notice, not sent
    DOWN = "down"  # the transport is away: the drain stops, the row is not counted against
    SKIPPED = "skipped"  # gone, sent by another drain, or in another daemon's hands


@dataclass(frozen=True)
class DrainReport:
    sent: int
    failed: int  # not sent in this pass: deferred, bounced, or the one the pass stopped at
    bounced: int = 0  # of those, recorded as bounced (never to be sent)
    stopped: str = ""  # why the pass ended early (the transport is down), or ""
    dropped: int = 0  # stale notices dropped instead of sent (pbem.games.stale)
    flushed: int = 0  # deferred mail a success made due at once (after an outage)


def drain(
    service: Service,
    sender: Sender,
    *,
    now: datetime,
    limit: int = 1000,
    stop: Callable[[], bool] = lambda: False,
    replies_only: bool = False,
    lanes: Lanes | None = None,
) -> DrainReport:
    """Send the mail that is due, replies before bulk and each oldest first, one transaction
    per mail. The queue is read READ_AHEAD rows at a time, so that a reply queued during a
    long drain (a deadline wave's reports) goes after a few more mails, not after them all.
    A mail the server defers waits a growing delay; one it refuses, or defers too long, is
    recorded as bounced and the game's referees are told. When the transport as a whole is
    down the pass stops, holding nothing against the mail. A stale notice is dropped instead
    of sent. The first success of the pass flushes the mail deferred while the server was
    failing: it is tried in this pass, not after its own delay (the sender's rate limit still
    holds). `stop` is asked between mails. With `replies_only` bulk mail waits (a start whose
    clocks have not looked yet: their look may supersede it).

    With `lanes`, up to `lanes.width` mails are in the sender's hands at once, each sent and
    recorded on a lane of its own (the sender takes that many at once: [smtp] connections);
    each row goes to one lane only, and the pass ends only once every lane is done with its
    mail, so the next pass never meets a row still being sent. Without, one at a time, in
    this thread."""
    # The drain's reads take no write lock (SQLite): intake writes all the while, and a
    # courier that waited for the lock to read would starve behind it.
    with service.store.reading() as work:
        last_sent = work.outbox.last_sent_before(now)
    sending = _Pass(service, sender, now, limit, replies_only, lanes, last_sent)
    try:
        while sending.fill(stop):
            sending.settle()
    finally:
        wait(sending.in_flight)  # a failure of one lane ends the pass after the others' mail
    counts = sending.counts
    failed = counts[Delivery.DEFERRED] + counts[Delivery.BOUNCED] + counts[Delivery.DOWN]
    return DrainReport(
        counts[Delivery.SENT],
        failed,
        counts[Delivery.BOUNCED],
        sending.stopped,
        counts[Delivery.DROPPED],
        sending.flushed,
    )


@dataclass
class _Pass:
    """One drain's rows: those read ahead, those in a lane's hands, what became of each."""

    service: Service
    sender: Sender
    now: datetime
    limit: int
    replies_only: bool
    lanes: Lanes | None
    last_sent: datetime | None
    counts: Counter[Delivery] = field(default_factory=Counter)
    stopped: str = ""  # why the pass stops (the transport is down), or ""
    flushed: int = 0
    tried: set[int] = field(default_factory=set)
    queue_ids: list[int] = field(default_factory=list)
    in_flight: set[Future[tuple[Delivery, str]]] = field(default_factory=set)

    def fill(self, stop: Callable[[], bool]) -> bool:
        """Hand rows to the lanes until each has one, the queue is empty, or the pass
        stops; whether any mail is in hand."""
        width = self.lanes.width if self.lanes is not None else 1
        while len(self.in_flight) < width and not self.stopped:
            if len(self.tried) >= self.limit or stop():
                break
            if not self.queue_ids:
                count = min(READ_AHEAD, self.limit - len(self.tried))
                self.queue_ids = _next_rows(
                    self.service, self.now, count, self.tried, replies_only=self.replies_only
                )
                if not self.queue_ids:
                    break
            row_id = self.queue_ids.pop(0)
            self.tried.add(row_id)
            self.in_flight.add(self._start(row_id))
        return bool(self.in_flight)

    def settle(self) -> None:
        """Wait for a lane to be done, and count what became of its mail."""
        done, self.in_flight = wait(self.in_flight, return_when=FIRST_COMPLETED)
        for finished in done:
            result, error = finished.result()
            self.counts[result] += 1
            if result == Delivery.DOWN:
                self.stopped = self.stopped or error
            if result == Delivery.SENT and self.counts[Delivery.SENT] == 1:
                self.flushed = _flush(self.service, self.now, self.last_sent)
                if self.flushed:
                    self.queue_ids = []  # the flushed mail may come first

    def _start(self, row_id: int) -> Future[tuple[Delivery, str]]:
        deliver = partial(_deliver, self.service, self.sender, row_id, self.now)
        if self.lanes is not None:
            return self.lanes.submit(deliver)
        done: Future[tuple[Delivery, str]] = Future()
        done.set_result(deliver())  # in this thread; what it raises ends the pass
        return done


def _next_rows(
    service: Service, now: datetime, count: int, tried: set[int], *, replies_only: bool
) -> list[int]:
    with service.store.reading() as work:
        return work.outbox.next_rows(now, count, skip=frozenset(tried), replies_only=replies_only)


def _flush(service: Service, now: datetime, last_sent: datetime | None) -> int:
    """After the pass's first success: make the mail deferred during the outage due (tried
    in this pass); how many."""
    with service.store.transaction() as work:
        flushed = work.outbox.flush_deferred(
            service.settings.outbox.retry.delay, now, since=last_sent
        )
    if flushed:
        log.info("outbox: the server takes mail again; %d deferred mail(s) tried now", flushed)
    return flushed


def _deliver(service: Service, sender: Sender, row_id: int, now: datetime) -> tuple[Delivery, str]:
    """Try one row, held while the transport works (pbem.store.outbox_hold): (what became of
    it, the error if any)."""
    with hold_outbox_row(service.store, row_id, _SENDING) as held:
        sending = held.sending
        if sending is None or not is_due(sending, now):
            return Delivery.SKIPPED, ""  # gone, sent by another drain, or in another daemon's hands
        if held.sent_unrecorded:
            return _record_sent(held, row_id, "", now)
        if expired(sending, now):
            return _changed(held, lambda _, row: _drop(row, now) if is_due(row, now) else None)
        with log_context(game=sending.game_id or "-", message=sending.message_id):
            # Its STOP token is written as it goes, as the Date is: the stored mail stays the
            # same bytes for the same inputs, whatever the site's key (pbem.games.stops).
            ours = service.settings.mail.address
            stop_line = unsubscribe_line(service.store, ours, sending.recipient)
            failure = _send(sender, stop_line + sending.raw, sending.message_id)
            if failure is None:
                return _record_sent(held, row_id, sending.message_id, now)

            def record(work: Work, row: Outbox) -> tuple[Delivery, str] | None:
                if not is_waiting(row):
                    return None
                return _record(work, service.settings, row, failure, now), row.last_error

            return _changed(held, record, sending.message_id)


def _changed(
    held: HeldRow,
    act: Callable[[Work, Outbox], tuple[Delivery, str] | None],
    message_id: str = "",
) -> tuple[Delivery, str]:
    """`act` on the held row; "skipped" if another drain recorded it meanwhile."""
    done = held.change(act)
    if done is None:
        if message_id:
            log.warning("outbox: another drain recorded %s meanwhile", message_id)
        return Delivery.SKIPPED, ""
    return done


def _record_sent(
    held: HeldRow, row_id: int, message_id: str, now: datetime
) -> tuple[Delivery, str]:
    """A sent mail recorded in one statement (as _record would: the hot path of a drain),
    unless another drain recorded the row meanwhile."""
    if not held.record_sent(now):
        log.warning("outbox: another drain recorded %s meanwhile", message_id or f"row {row_id}")
        return Delivery.SKIPPED, ""
    return Delivery.SENT, ""


def _drop(row: Outbox, now: datetime) -> tuple[Delivery, str]:
    drop_expired(row, now)
    with log_context(game=row.game_id or "-", message=row.message_id):
        log.info("outbox: %s to %s dropped: %s", row.kind, row.recipient, row.last_error)
    return Delivery.DROPPED, ""


def _send(sender: Sender, raw: bytes, message_id: str) -> Exception | None:
    """Hand the mail to the sender; the failure, or None when it took the mail."""
    try:
        if isinstance(sender, RawSender):
            sender.send_raw(raw)
        else:
            sender.send(as_message(raw))
    except (TemporaryFailure, PermanentFailure) as failure:
        return failure
    except Exception as error:
        # Outside the sender's contract (pbem.mail.delivery): a bug, or a fault of this mail
        # alone. Retried later like a deferral, so that one poisoned mail cannot hold up the
        # queue behind it.
        log.exception("outbox: %s not sent", message_id)
        return error
    return None


def _record(
    work: Work, settings: Settings, row: Outbox, failure: Exception | None, now: datetime
) -> Delivery:
    """Record what became of a row: sent, deferred, bounced or down (the transport is away;
    the row is not counted against)."""
    if failure is None:
        row.attempts += 1
        row.sent_at = utc(now)
        row.next_attempt_at = None
        return Delivery.SENT
    if isinstance(failure, TemporaryFailure):
        row.last_error = str(failure)
        return Delivery.DOWN if failure.transport_down else _defer(work, settings, row, now)
    if isinstance(failure, PermanentFailure):
        row.attempts += 1
        row.last_error = str(failure)
        _bounce(work, settings, row, now)
        return Delivery.BOUNCED
    row.last_error = f"{type(failure).__name__}: {failure}"
    return _defer(work, settings, row, now)


def _defer(work: Work, settings: Settings, row: Outbox, now: datetime) -> Delivery:
    row.attempts += 1
    if utc(now) - utc(row.created_at) >= settings.outbox.retry.give_up_after():
        _bounce(work, settings, row, now)
        return Delivery.BOUNCED
    row.next_attempt_at = utc(now) + settings.outbox.retry.delay(row.attempts)
    log.info(
        "outbox: %s deferred until %s: %s", row.message_id, row.next_attempt_at, row.last_error
    )
    return Delivery.DEFERRED


def _bounce(work: Work, settings: Settings, row: Outbox, now: datetime) -> None:
    row.bounced_at = utc(now)
    row.next_attempt_at = None
    log.warning("outbox: %s to %s bounced: %s", row.message_id, row.recipient, row.last_error)
    detail = f"{row.kind} {row.message_id} to {row.recipient}: {row.last_error}"
    audit(work, now, "pipeline", "mail-bounced", row.game_id, detail)
    if row.kind == OutboxKind.BOUNCE or row.game_id is None:
        return  # a notice about a notice could bounce back and forth for ever
    for referee in work.games.referees_of(row.game_id):
        if referee.address.lower() != row.recipient:
            queue(work, settings, _bounce_notice(settings, row, referee.address), now=now)


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
    return Letter(OutboxKind.BOUNCE, to, subject, body, message_id, game_id=row.game_id)


def as_message(raw: bytes) -> EmailMessage:
    return message_from_bytes(raw, policy=policy.default)
