"""What a recorded mail is: ignored (loop hygiene), refused (too big), a mail command, or an
order mail. Each branch ends the mail's handling with a status and, where safe, a reply."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from sqlmodel import Session

from engine.order_lines import PLEASANTRIES
from engine.words import normal
from pbem.config import Settings
from pbem.intake.answering import answering, send_answer
from pbem.intake.auth import REFUSED_SEAT, authenticate
from pbem.intake.command_mail import HELP_HINT, run_command, run_command_mail, with_press
from pbem.intake.context import MailContext
from pbem.intake.finding import find_envelope, line_count, looked_at
from pbem.intake.help import help_reply
from pbem.intake.orders import take_orders
from pbem.intake.press import Block, cut_press, relay_blocks, relay_reply
from pbem.intake.referee_mail import handle_referee_mail
from pbem.intake.stop import stop_subject
from pbem.mail.commands import PLAYER_WORDS
from pbem.mail.envelope import GREETING_WORDS, Envelope
from pbem.mail.hygiene import NO_SENDER, refusal_reason
from pbem.mail.reading import IncomingMail, read_mail
from pbem.store import InboundMessage, MailStatus, Outbox


def handle(context: MailContext) -> None:
    _handle(context)
    context.mask_passwords()


def handle_stored(
    session: Session, settings: Settings, inbound: InboundMessage, now: datetime
) -> list[Outbox]:
    """Handle a recorded mail again (a replay) in the session: its status and outcome are
    left on its row; the replies it queued are returned."""
    mail = read_mail(inbound.raw, max_bytes=settings.mail.max_bytes)
    context = MailContext(session, settings, inbound, mail, now)
    handle(context)
    return context.replies


def _handle(context: MailContext) -> None:
    mail, settings = context.mail, context.settings
    reason = refusal_reason(
        mail, our_addresses=settings.our_addresses(), loop_token=settings.mail.loop_token
    )
    if reason == NO_SENDER:
        # Nobody to answer, but an operator should see it: it may be a player's broken mail.
        context.set_aside("no-sender", _no_sender(mail))
        return
    if reason:
        context.finish(MailStatus.IGNORED, reason)  # never answer: that is how mail loops start
        return
    if mail.too_big:
        note = mail.notes[0] if mail.notes else "the mail is too big"
        context.quarantine("too-big", note, reply_to=mail.sender)
        return
    limit = settings.limits.max_mail_lines
    if line_count(mail.text) > limit:
        count = line_count(mail.text)
        context.quarantine(
            "too-long",
            f"the mail has {count:,} lines; the moderator reads mail of at most "
            f"{limit:,} lines. Nothing in it was read or stored.",
            reply_to=mail.sender,
            hint="Send your orders alone, one a line, under your GAME line.",
        )
        return
    # A STOP as the List-Unsubscribe mailto: sends it (its subject); a plain reply to relayed
    # press, which goes back to its writer.
    if stop_subject(context) or relay_reply(context):
        return
    blocks, rest = cut_press(mail.text)
    if blocks:  # press is cut out first, so that it is never read as orders
        context.mail = replace(mail, text=rest)
    envelope = find_envelope(context)
    context.inbound.game_id = envelope.game or None
    context.inbound.seat = envelope.seat or None
    if blocks:
        _with_press(context, envelope, blocks)
    elif envelope.command:
        run_command(context, envelope)
    elif envelope.problem:
        context.quarantine("envelope", envelope.problem, reply_to=mail.sender, hint=HELP_HINT)
    elif envelope.referee:
        handle_referee_mail(context, envelope, handle_stored)
    elif not envelope.game:
        _no_game_line(context, envelope)
    else:
        take_orders(context, envelope)


def _with_press(context: MailContext, envelope: Envelope, blocks: list[Block]) -> None:
    """A mail with press (cut out first, so that it is never read as orders): its commands,
    or its orders, and the press get one answer; press alone gets its confirmation. Press
    is relayed only if the mail proves its seat (its password, and its address where the
    game asks)."""
    if not envelope.game or envelope.referee or envelope.problem:
        problem = envelope.problem or "PRESS goes under your GAME line, with your password"
        context.quarantine("envelope", problem, reply_to=context.mail.sender, hint=HELP_HINT)
    elif envelope.command and envelope.command != "FORECAST":
        run_command_mail(context, envelope, blocks)
    elif envelope.lines or envelope.command:
        _orders_with_press(context, envelope, blocks)
    elif (found := authenticate(context, envelope, allow_ended=True)) is not None:
        game, seat = found
        context.finish(MailStatus.ANSWERED, relay_blocks(context, game, seat, blocks))


def _orders_with_press(context: MailContext, envelope: Envelope, blocks: list[Block]) -> None:
    """Orders (or FORECAST and orders) and press, in one answer; no press goes if the
    orders' mail did not prove its seat (its refusal says why)."""
    with answering(context) as answer:
        first = envelope.lines[0][0] if envelope.lines else envelope.command_line
        answer.begin(first, envelope.command or "your orders")
        (run_command if envelope.command else take_orders)(context, envelope)
        answer.end(context.inbound)
        if not context.inbound.outcome.startswith(REFUSED_SEAT):
            with_press(context, envelope, blocks, answer)
    send_answer(context, answer, ())  # the check reply lists what reading the mail left out


def _no_sender(mail: IncomingMail) -> str:
    """Why the mail has no sender we could answer, for the quarantine list."""
    if not mail.headers:
        return "not a mail: no header could be read, so there is no sender to answer"
    # Every From header's text: a mail of two From headers is refused for the two of them.
    given = ", ".join(value.strip() for name, value in mail.header_items if name == "from")
    if mail.from_count > 1:
        return (
            f"the From header names {mail.from_count} addresses ({given[:200]!r}); a mail from "
            "several senders is answered to none of them"
        )
    if not given:
        return "the mail has no From header, so there is no sender to answer"
    return f"the From header {given[:200]!r} holds no usable address, so nobody was answered"


def _cut_short(context: MailContext) -> None:
    """A mail read only in part (HTML past the tag cap) with nothing in the part read: it
    may hold a GAME line further on, so the answer says it could not be read, never that
    it has none."""
    context.quarantine(
        "too-big",
        f"The HTML of your mail could not be read whole: {context.mail.cut_short}. No GAME "
        "line or mail command came before the point where the reading stopped, so nothing in "
        "it was read or stored.",
        reply_to=context.mail.sender,
        hint="Send your mail as plain text (your mail program's plain-text setting), with "
        "your GAME line first.",
    )


def _no_game_line(context: MailContext, envelope: Envelope) -> None:
    """Neither a GAME line nor a known command: set it aside and answer with short help,
    saying where we looked, and naming the line that stopped the reading (not a greeting
    passed over before it) and a command that stood too late to be read."""
    if context.mail.cut_short:
        _cut_short(context)
        return
    said, greeted = _said(context.mail.text)
    word = _one_word(said[0][1]) if said else ""
    late = next((f"line {no} ({text})" for no, text in said[1:] if _is_command(text)), "")
    # The line to name, when a greeting passed over stood before it.
    stray = f'line {said[0][0]}, "{said[0][1][:60]}"' if said and greeted and not word else ""
    context.set_aside("envelope", f"no GAME line and no command ({word or stray or 'empty'})")
    looked = looked_at(context.mail)
    help_reply(context, envelope, unknown=word, looked=looked, late=late, stray=stray)


def _said(text: str) -> tuple[list[tuple[int, str]], bool]:
    """(line number, text) of the mail's unquoted lines, from the first that is no greeting
    ("Hello,", "Hi all"): the greeting was passed over, and is not what the reply names;
    and whether there was one."""
    lines = [
        (no, line.strip())
        for no, line in enumerate(text.splitlines(), 1)
        if line.strip() and not line.lstrip().startswith(">")
    ]
    start = next((i for i, (_, line) in enumerate(lines) if not _greeting(line)), len(lines))
    return lines[start:], start > 0


def _greeting(line: str) -> bool:
    words = line.split()
    return normal(words[0]) in PLEASANTRIES and len(words) <= GREETING_WORDS


def _one_word(line: str) -> str:
    """The word of a one-word line (a mistyped command); '' for prose."""
    words = line.split()
    return words[0].upper()[:40] if len(words) == 1 else ""


def _is_command(line: str) -> bool:
    return line.split(maxsplit=1)[0].upper().rstrip(":") in PLAYER_WORDS
