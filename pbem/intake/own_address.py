"""SET ADDRESS and CONFIRM: a seat moves to a new mail address, which must prove it can read
its mail before it counts. From the seat's registered address, with its password:

    GAME g1 SEAT alice PASSWORD secret
    SET ADDRESS alice@new.example.org

The new address gets a code, and the change takes effect when a mail from that address says

    CONFIRM 7KQ2MX9P

within CONFIRM_HOURS. The old address is told when the change is asked and when it is made, so
that a stolen password cannot move a seat away unseen. A referee can change an address at once
(the referee command `address`). Only a hash of the code is stored."""

from __future__ import annotations

from pbem.games.audit import audit
from pbem.intake.auth import authenticate
from pbem.intake.codes import (
    CONFIRM_FORM,
    CONFIRM_HOURS,
    code_hash,
    given_code,
    matches,
    new_code,
    waiting_changes,
    wrong_code,
)
from pbem.intake.context import MailContext
from pbem.intake.joining import confirm_join
from pbem.mail.addresses import address_problem
from pbem.mail.envelope import Envelope
from pbem.store import MailStatus, Seat, utc

ADDRESS_FORM = "SET ADDRESS <your new mail address>"
HOURS = f"{CONFIRM_HOURS} hours"


def set_address(context: MailContext, envelope: Envelope) -> None:
    found = authenticate(context, envelope)
    if found is None:
        return
    game, seat = found
    args = envelope.command_args  # lower-cased: ("address", <the new address>)
    new = args[1].strip("<>") if len(args) == 2 else ""
    if address_problem(new) or new == seat.address.lower():  # the project's one address check
        problem = "SET ADDRESS needs one new mail address, other than the seat's own"
        context.quarantine("set", problem, reply_to=seat.address, details=[f"Use: {ADDRESS_FORM}"])
        return
    code = new_code()
    seat.pending_address, seat.pending_code = new, code_hash(code)
    seat.pending_since, seat.pending_misses = utc(context.now), 0
    context.work.games.add(seat)
    audit(context.work, context.now, seat.address, "address-asked", game.id, seat.name)
    context.finish(MailStatus.ANSWERED, f"SET ADDRESS for {seat.name}: waiting for CONFIRM")
    facts = {"game": game.id, "seat": seat.name, "new": new, "hours": CONFIRM_HOURS}
    # A mail of its own to the new address, under its own subject and outside the asking
    # mail's thread: the new address did not write it, and "Re: <their subject>" said nothing.
    subject = f"[{game.id}] confirm your address for seat {seat.name}"
    context.notify(new, subject, "address_confirm", code=code, **facts)
    context.reply(seat.address, "address_asked", **facts)


def confirm_address(context: MailContext, envelope: Envelope) -> None:
    """CONFIRM <code>, from the new address: the seat whose pending code it is moves there;
    or, from a JOIN's address, the seat it asked for is taken (pbem.intake.joining)."""
    code = given_code(envelope.command_args)
    sender = context.mail.sender.lower()
    seat = _pending(context, sender, code) if code else None
    if seat is None and code and confirm_join(context, code):
        return
    if seat is None:  # only a code is counted: a CONFIRM without one tries nothing
        context.quarantine(
            "confirm",
            wrong_code(context, sender) if code else f"write {CONFIRM_FORM}",
            reply_to=context.mail.sender,
            details=[f"Use: {CONFIRM_FORM}, from the address it went to, within {HOURS}."],
        )
        return
    old = seat.address
    seat.address, seat.pending_address, seat.pending_code = sender, "", ""
    seat.pending_since = None
    context.work.games.add(seat)
    context.inbound.game_id, context.inbound.seat = seat.game_id, seat.name
    audit(context.work, context.now, sender, "address-set", seat.game_id, seat.name)
    context.work.games.note_changed(seat.game_id)  # a new link to the seat's web pages
    context.finish(
        MailStatus.ANSWERED, f"CONFIRM: {seat.name} of {seat.game_id} now at the new address"
    )
    facts = {"game": seat.game_id, "seat": seat.name, "new": sender, "by_referee": False}
    context.reply(sender, "address_changed", **facts)
    context.reply(old, "address_changed", **facts)


def _pending(context: MailContext, sender: str, code: str) -> Seat | None:
    """The seat moving to the sender whose code this is: only the sender's are looked at."""
    waiting = waiting_changes(context, sender)
    return next((seat for seat in waiting if matches(seat.pending_code, code)), None)
