"""The notice to a seat's player that a mail for their seat was refused (a wrong password,
or the right one from another address). Anyone can send such mail as often as they like, so
the notice is capped: at most one a seat an hour, saying how many were refused since the
last one. The rest are counted, not mailed: a stranger cannot flood the player's mailbox,
nor use up the replies their own mail is owed."""

from __future__ import annotations

from datetime import timedelta

from pbem.intake.context import MailContext
from pbem.store import Seat, utc

EVERY = timedelta(hours=1)  # at most one notice a seat this often
REFUSED = ("password", "address")  # the quarantine reasons of a try at the seat


def tell_seat_tried(context: MailContext, seat: Seat, to: str, *, password_right: bool) -> None:
    """Tell `to` (the seat's address) that a mail for the seat was refused, unless they were
    told within the hour: then the mail is only counted, for the next notice."""
    subject = f"[{seat.game_id}] a mail for {seat.name} was refused"
    outbox = context.work.outbox
    last = outbox.last_queued_at(seat.game_id, to.lower(), subject)
    if last is not None and utc(last) > utc(context.now) - EVERY:
        note = f"{to} was told of a refused mail for {seat.name} within the hour"
        context.inbound.outcome = f"{context.inbound.outcome}; {note}"
        return
    refused = context.work.inbound.count_refused(seat.game_id, seat.name, REFUSED, since=last)
    context.notify(
        to,
        subject,
        "seat_tried",
        game=seat.game_id,
        seat=seat.name,
        password_right=password_right,
        refused=max(refused, 1),
    )
