"""What a recorded mail is: ignored (loop hygiene), refused (too big), a mail command, or an
order mail. Each branch ends the mail's handling with a status and, where safe, a reply."""

from __future__ import annotations

from pbem.mail.envelope import Envelope, parse_envelope
from pbem.mail.hygiene import refusal_reason
from pbem.pipeline.commands import HELP_HINT, help_reply, run_command
from pbem.pipeline.context import MailContext
from pbem.pipeline.orders import take_orders
from pbem.referee.by_mail import handle_referee_mail


def handle(context: MailContext) -> None:
    mail, settings = context.mail, context.settings
    reason = refusal_reason(
        mail, our_addresses=settings.our_addresses(), loop_token=settings.mail.loop_token
    )
    if reason:
        context.finish("ignored", reason)  # never answer: that is how mail loops start
        return
    if mail.too_big:
        note = mail.notes[0] if mail.notes else "the mail is too big"
        context.quarantine("too-big", note, reply_to=mail.sender)
        return
    envelope = parse_envelope(mail.text)
    context.inbound.game_id = envelope.game or None
    context.inbound.seat = envelope.seat or None
    if envelope.command:
        run_command(context, envelope)
    elif envelope.problem:
        context.quarantine("envelope", envelope.problem, reply_to=mail.sender, hint=HELP_HINT)
    elif envelope.referee:
        handle_referee_mail(context, envelope)
    elif not envelope.game:
        _no_game_line(context, envelope)
    else:
        take_orders(context, envelope)


def _no_game_line(context: MailContext, envelope: Envelope) -> None:
    """Neither a GAME line nor a known command: set it aside and answer with short help."""
    word = _first_word(context.mail.text)
    context.set_aside("envelope", f"no GAME line and no command ({word or 'empty mail'})")
    help_reply(context, envelope, unknown=word or "(none)")


def _first_word(text: str) -> str:
    for line in text.splitlines():
        words = line.split()
        if words and not words[0].startswith(">"):
            return words[0].upper()[:40]
    return ""
