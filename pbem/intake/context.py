"""One inbound mail being handled: its stored row, the read mail, and the ways to answer it
(a reply, a quarantine), all inside the mail's one transaction."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from pbem.config import Settings
from pbem.games.outbox import (
    Letter,
    proved_id,
    queue,
    queued_to,
    replies_allowed,
    reply_window,
)
from pbem.games.stops import STOPPED
from pbem.intake.answer import Answer, Held, Refusal
from pbem.intake.decide import STOP_SUBJECT
from pbem.intake.reasons import REASONS
from pbem.mail.compose import Attachment, bounded_reply, stable_message_id, thread_of
from pbem.mail.masking import masked_mail
from pbem.mail.reading import IncomingMail
from pbem.store import (
    InboundMessage,
    MailStatus,
    OrderSet,
    Outbox,
    OutboxKind,
    Quarantine,
    Seat,
    Turn,
    flushed_id,
    utc,
)
from pbem.store.outbox_rows import RATE_LIMITED
from pbem.store.work import Work
from pbem.templates import render

# A mail in one of these ends is never handled again (replay is for quarantined mail): the
# passwords in it are masked in the stored copy (pbem.mail.masking).
_DONE = frozenset({MailStatus.ACCEPTED, MailStatus.ANSWERED})
log = logging.getLogger(__name__)


@dataclass
class MailContext:
    work: Work  # the mail's one unit of work
    settings: Settings
    inbound: InboundMessage
    mail: IncomingMail
    now: datetime
    replies: list[Outbox] = field(default_factory=list)
    # May the mail have made clock work due (a turn complete, a deadline or a seat changed)?
    # Only order mail that leaves its turn waiting says no: the bulk of a deadline's mail.
    clock_work: bool = True
    # The seats of the mail's game, as authenticate read them in this transaction.
    seats: list[Seat] = field(default_factory=list)
    # The game's current turn, read with the game by authenticate when asked (order mail).
    turn: Turn | None = None
    # The orders stored for that turn, by seat, read with the seats (read_seats).
    turn_orders: dict[str, OrderSet] | None = None
    # The passwords the mail proved or gave: masked in the stored mail once it is answered.
    passwords: list[str] = field(default_factory=list)
    # The games this mail asked to JOIN (pbem.intake.joining): a later JOIN line of one is
    # answered in the same reply, not set aside unsaid.
    joined: set[str] = field(default_factory=set)
    # The seats (game, seat) the mail proved by their password: its later commands need no
    # second proof, even after SET PASSWORD changed the password or RESIGN took it.
    proved: set[tuple[str, str]] = field(default_factory=set)
    # The registered addresses (lower-cased) of those seats: a reply to one of them answers
    # a proved mail, held only by the limit of such replies (_under_limit).
    proved_to: set[str] = field(default_factory=set)
    # While a mail that does several things is handled, its replies and refusals are held
    # here and sent as one answer at its end (pbem.intake.answer); None for one thing alone.
    answer: Answer | None = None
    # Seats' addresses (lower-cased) read_seats found under the reply limit, as of that read.
    _room: set[str] = field(default_factory=set)
    _seats_of: str | None = None  # the game whose seats `seats` holds
    _unmasked: bytes = b""  # the stored mail as it came, once masked
    _masked: int = 0  # how many of the passwords are masked in it
    _held: int = 0  # replies kept unsent for the reply limit

    def finish(self, status: MailStatus, outcome: str) -> None:
        self.inbound.status = status
        self.inbound.outcome = outcome

    def reply(self, to: str, template: str, **context: Any) -> None:
        """Queue a reply to `to` from mail_templates/<template>.txt."""
        body = render(template, moderator=self.settings.mail.name, **context)
        self.reply_text(to, body)

    def read_seats(self, game_id: str) -> list[Seat]:
        """The game's seats, into `seats`, and whether each address is under the reply limit
        (reply_window), in one statement: the seat is who an order mail's reply goes to.
        Only an ASCII address is judged by the database's lower(), which may fold other
        letters unlike Python's. With `turn` read (order mail), the orders stored for it come
        too, into `turn_orders`: each order set is a seat's, under its name (unique a turn)."""
        since, limit = reply_window(self.settings, self.now)
        turn = self.turn.number if self.turn is not None else None
        rows = self.work.games.seats_with_room(game_id, turn, since=since, limit=limit)
        self.seats, self._seats_of = [seat for seat, _, _ in rows], game_id
        self._room = {
            seat.address.lower() for seat, under, _ in rows if under and seat.address.isascii()
        }
        if turn is not None:
            self.turn_orders = {orders.seat: orders for _, _, orders in rows if orders}
        return self.seats

    def seats_of(self, game_id: str) -> list[Seat]:
        """The game's seats as read in this transaction (authenticate reads them), read now
        if they were not."""
        if self._seats_of != game_id:
            self.read_seats(game_id)
        return self.seats

    def orders_of_turn(self, game_id: str) -> dict[str, OrderSet]:
        """The orders stored for `turn` (the game's pending turn, read with the game), by
        seat, as read with the seats in this transaction, or read now if they were not."""
        if self.turn_orders is None or self._seats_of != game_id:
            self.read_seats(game_id)
        return self.turn_orders if self.turn_orders is not None else {}

    def reply_text(self, to: str, body: str, attachments: tuple[Attachment, ...] = ()) -> None:
        """Queue a reply to `to` (or hold it for the mail's one answer, while there is one),
        unless that address has had its share of replies lately."""
        if self.answer is not None:
            self.answer.hold(Held(to, body, attachments))
            return
        self._queue(to, body, attachments)

    def notify(self, to: str, subject: str, template: str, **context: Any) -> None:
        """Tell `to`, who did not send the mail, what it means for them: a mail of its own at
        once, under its own subject and outside the mail's thread (nothing of what the sender
        wrote reaches them), never a part of the answer; rate limited like a reply."""
        if to:
            body = render(template, moderator=self.settings.mail.name, **context)
            self._queue(to, body, subject=subject)

    def _queue(
        self, to: str, body: str, attachments: tuple[Attachment, ...] = (), subject: str = ""
    ) -> None:
        """Queue a reply, or with `subject` a notice: not in the mail's thread."""
        if not to:
            self._note("no reply: no address to answer")
            return
        proved = to.lower() in self.proved_to
        held = "" if self._under_limit(to, proved=proved) else RATE_LIMITED
        if held:
            self._note(f"no reply to {to}: reply rate limit reached")
            log.warning("no reply to %s: reply rate limit reached", to)
        headers = self.mail.headers
        thread = thread_of(headers.get("references", ""), headers.get("in-reply-to", ""))
        letter = Letter(
            kind=OutboxKind.REPLY,
            to=to,
            subject=subject or _reply_subject(self.mail.subject),
            body=bounded_reply(body),  # what it quotes of the mail, cut short
            message_id=self._reply_id(proved=proved),
            in_reply_to="" if subject else self.mail.message_id,
            game_id=self.inbound.game_id,
            references=() if subject else thread,
            attachments=attachments,
            held=held,
        )
        self.mask_passwords()
        row = queue(self.work, self.settings, letter, now=self.now)
        if held:  # kept as a record for the operator (pbem outbox list), never sent
            self._held += 1
            return
        self.replies.append(row)
        if row.last_error == STOPPED:  # kept as a record, never sent: the log says so
            self._note(f"reply to {to} not sent: the address asked for no more mail (STOP)")

    def to_referees(
        self,
        game_id: str,
        subject: str,
        template: str,
        *,
        purpose: str,
        but: str = "",
        **context: Any,
    ) -> None:
        """Queue a mail from mail_templates/<template>.txt to every referee of the game (not
        rate limited: the referees need to know), `but` that address. `purpose` keeps its
        Message-IDs apart from the other mail this one causes."""
        body = render(template, moderator=self.settings.mail.name, **context)
        for referee in self.work.games.referees_of(game_id):
            if referee.address.lower() == but:
                continue
            message_id = stable_message_id(
                purpose, self.mail.message_id, referee.address, domain=self.settings.mail.domain
            )
            letter = Letter(
                OutboxKind.REFEREE, referee.address, subject, body, message_id, game_id=game_id
            )
            queue(self.work, self.settings, letter, now=self.now)

    def quarantine(
        self,
        reason: str,
        error: str,
        *,
        reply_to: str,
        details: Sequence[str] = (),
        hint: str = "",
    ) -> None:
        """Set the mail aside with the error (a referee can replay it) and say why, if safe.
        While the mail has an answer, the refusal is that part's (the answer sets the mail
        aside only if nothing in it was done)."""
        if self.answer is not None:
            self.answer.refuse(Refusal(reason, error, reply_to, tuple(details), hint))
            self.finish(MailStatus.QUARANTINED, f"{reason}: {error}")
            return
        self.set_aside(reason, error)
        self.reply(
            reply_to,
            "refusal",
            subject=self.mail.subject or "(no subject)",
            reason=error,
            details=list(details),
            hint=hint,
        )

    def mask_passwords(self) -> None:
        """Mask the passwords in the stored mail if it is done, or unmask it if it is no
        longer. Done before the reply is queued, too: the reply's flush then writes the row
        once, with its status and masked mail (pbem.intake.intake._receive)."""
        done = self.inbound.status in _DONE
        if done and self.passwords and self._masked != len(self.passwords):
            self._unmasked = self._unmasked or self.inbound.raw
            self.inbound.raw = masked_mail(self._unmasked, self.passwords)
            self._masked = len(self.passwords)
        elif not done and self._unmasked:
            self.inbound.raw, self._unmasked, self._masked = self._unmasked, b"", 0

    def set_aside(self, reason: str, error: str) -> None:
        """Quarantine the mail without a reply (the caller answers, or nobody should)."""
        if reason not in REASONS:  # a code the operator's table does not explain is a bug
            raise ValueError(f"no quarantine reason {reason!r} (pbem.intake.reasons)")
        if self.answer is not None:  # that part's, answered to nobody (send_answer decides)
            self.answer.refuse(Refusal(reason, error, to=""))
            self.finish(MailStatus.QUARANTINED, f"{reason}: {error}")
            return
        if self.inbound.id is None:  # not written yet (pbem.intake.intake._receive)
            self.work.flush()
        self.work.inbound.add(
            Quarantine(
                inbound_id=flushed_id(self.inbound.id),
                reason=reason,
                error=error,
                created_at=utc(self.now),
            )
        )
        self.finish(MailStatus.QUARANTINED, f"{reason}: {error}")

    def _under_limit(self, to: str, *, proved: bool) -> bool:
        """replies_allowed, unless read_seats found the address under the limit and nothing
        was queued to it since. `proved`: the reply answers a mail that proved the seat of
        that address, and only such replies count (mail under its From alone, which anyone
        can forge, cannot use up the seat's replies)."""
        address = to.lower()
        if address in self._room and address not in queued_to(self.work):
            return True
        return replies_allowed(self.work, self.settings, to, now=self.now, proved=proved)

    def _reply_id(self, *, proved: bool) -> str:
        # Stable: the same mail on the same attempt always gets the same reply id, so a rerun
        # after a crash cannot queue a second copy (the outbox's Message-ID is unique). A
        # reply to a proved mail says so in its id: the reply limit counts those apart.
        count = len(self.replies) + self._held
        parts = ("reply", self.mail.message_id, str(self.inbound.attempts), str(count))
        found = stable_message_id(*parts, domain=self.settings.mail.domain)
        return proved_id(found) if proved else found

    def _note(self, note: str) -> None:
        self.inbound.outcome = f"{self.inbound.outcome}; {note}" if self.inbound.outcome else note


def _reply_subject(subject: str) -> str:
    """'Re: ' and the mail's subject; never a STOP's, so that no reply to our answer reads
    as one (its code stays in the answer to the STOP alone)."""
    subject = subject.strip()
    if not subject or STOP_SUBJECT.match(subject):
        subject = "your mail"
    return subject if subject.lower().startswith("re:") else f"Re: {subject}"
