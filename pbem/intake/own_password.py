"""SET PASSWORD: a seat changes its own password. The current password is the one on the
GAME line (checked like any other mail); the new one follows the command:

    GAME g1 SEAT alice PASSWORD old-secret
    SET PASSWORD new-secret

The new password is stored hashed like every other, and the answer, to the seat's registered
address, shows only its first letter (pbem.passwords.masked)."""

from __future__ import annotations

from pbem.games.audit import audit
from pbem.games.seat_passwords import give_password
from pbem.intake.auth import authenticate
from pbem.intake.context import MailContext
from pbem.mail.envelope import Envelope
from pbem.passwords import LONGEST, SHORTEST, masked, password_problem
from pbem.store import MailStatus

PASSWORD_FORM = f"SET PASSWORD <new password: {SHORTEST} to {LONGEST} characters, no spaces>"


def set_password(context: MailContext, envelope: Envelope) -> None:
    found = authenticate(context, envelope)
    if found is None:
        return
    game, seat = found
    words = envelope.command_words
    new = words[1] if len(words) == 2 else ""
    if password_problem(new):  # the rule `pbem game new --seat` applies too
        problem = f"SET PASSWORD needs one new password: {password_problem(new)}"
        context.quarantine("set", problem, reply_to=seat.address, details=[f"Use: {PASSWORD_FORM}"])
        return
    give_password(seat, new, context.settings.security)
    context.passwords.append(new)
    context.work.games.add(seat)
    audit(context.work, context.now, seat.address, "password-set", game.id, seat.name)
    context.finish(MailStatus.ANSWERED, f"SET PASSWORD for {seat.name}")
    context.reply(seat.address, "password_set", game=game.id, seat=seat.name, masked=masked(new))
