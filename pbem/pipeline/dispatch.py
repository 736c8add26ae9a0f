"""What a recorded mail is: ignored (loop hygiene), refused (too big), a mail command, or an
order mail. Each branch ends the mail's handling with a status and, where safe, a reply."""

from __future__ import annotations

from dataclasses import replace

from pbem.mail.envelope import Envelope, parse_envelope, unquoted
from pbem.mail.hygiene import NO_SENDER, refusal_reason
from pbem.mail.reading import IncomingMail
from pbem.pipeline.commands import HELP_HINT, run_command
from pbem.pipeline.context import MailContext
from pbem.pipeline.help import help_reply
from pbem.pipeline.orders import take_orders
from pbem.referee.by_mail import handle_referee_mail

QUOTED = "the quoted text"


def handle(context: MailContext) -> None:
    mail, settings = context.mail, context.settings
    reason = refusal_reason(
        mail, our_addresses=settings.our_addresses(), loop_token=settings.mail.loop_token
    )
    if reason == NO_SENDER:
        # Nobody to answer, but an operator should see it: it may be a player's broken mail.
        context.set_aside("no-sender", _no_sender(mail))
        return
    if reason:
        context.finish("ignored", reason)  # never answer: that is how mail loops start
        return
    if mail.too_big:
        note = mail.notes[0] if mail.notes else "the mail is too big"
        context.quarantine("too-big", note, reply_to=mail.sender)
        return
    limit = settings.limits.max_mail_lines
    if _line_count(mail.text) > limit:
        count = _line_count(mail.text)
        context.quarantine(
            "too-long",
            f"the mail has {count:,} lines; the moderator reads mail of at most "
            f"{limit:,} lines. Nothing in it was read or stored.",
            reply_to=mail.sender,
            hint="Send your orders alone, one a line, under your GAME line.",
        )
        return
    envelope = _read_envelope(context)
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


def _no_sender(mail: IncomingMail) -> str:
    """Why the mail has no sender we could answer, for the quarantine list."""
    if not mail.headers:
        return "not a mail: no header could be read, so there is no sender to answer"
    given = mail.headers.get("from", "").strip()
    if not given:
        return "the mail has no From header, so there is no sender to answer"
    return f"the From header {given[:200]!r} holds no usable address, so nobody was answered"


def _read_envelope(context: MailContext) -> Envelope:
    """The envelope of the mail body; where the body has no GAME line and no command, of the
    first text that has one: the body's quoted lines (a template filled in inside the quoted
    report), a forwarded message, a text attachment. The mail the pipeline reads from then on
    is that text, with a note saying where the orders were found."""
    mail = context.mail
    envelope = parse_envelope(mail.text)
    if _readable(envelope):
        return envelope
    if _prose(envelope):
        envelope = Envelope()  # "Orders attached." is a sentence, not the ORDERS command
    for what, text in _candidates(mail):
        if _line_count(text) > context.settings.limits.max_mail_lines:
            continue  # not read: the reply says where orders were looked for
        found = parse_envelope(text)
        if _readable(found):
            lines = "" if what == QUOTED else "; line numbers are its lines"
            note = f"orders read from {what}{lines}"
            kept = tuple(n for n in mail.notes if not n.startswith(f"{what} ("))
            context.mail = replace(mail, text=text, notes=(*kept, note))
            return found
    return envelope


def _line_count(text: str) -> int:
    return text.count("\n") + (0 if text.endswith("\n") else 1) if text else 0


def _readable(envelope: Envelope) -> bool:
    if envelope.game or envelope.referee:
        return True
    return bool(envelope.command) and not _prose(envelope)


def _prose(envelope: Envelope) -> bool:
    """A first line that starts with a command word but reads as a sentence: ORDERS takes no
    words after it, SET only ABSENCE, REPORT only a number."""
    args = envelope.command_args
    return (
        (envelope.command == "ORDERS" and bool(args))
        or (envelope.command == "SET" and args[:1] != ("absence",))
        or (envelope.command == "REPORT" and bool(envelope.problem))
    )


def _candidates(mail: IncomingMail) -> list[tuple[str, str]]:
    quoted = unquoted(mail.text)
    found = [(QUOTED, quoted)] if quoted else []
    return [*found, *mail.enclosed]


def looked_at(mail: IncomingMail) -> list[str]:
    """Where orders were looked for in a mail that has none: for the answer."""
    places = ["the text of the mail"]
    if unquoted(mail.text):
        places.append(QUOTED)
    return [*places, *(what for what, _ in mail.enclosed)]


def _no_game_line(context: MailContext, envelope: Envelope) -> None:
    """Neither a GAME line nor a known command: set it aside and answer with short help,
    saying where we looked."""
    word = _first_word(context.mail.text)
    context.set_aside("envelope", f"no GAME line and no command ({word or 'empty mail'})")
    help_reply(context, envelope, unknown=word, looked=looked_at(context.mail))


def _first_word(text: str) -> str:
    """The word of a one-word first line (a mistyped command); '' for prose."""
    for line in text.splitlines():
        words = line.split()
        if words and not words[0].startswith(">"):
            return words[0].upper()[:40] if len(words) == 1 else ""
    return ""
