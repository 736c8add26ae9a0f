"""What a recorded mail is, decided (pbem.intake.decide: from the mail alone, no database),
then done: each kind ends the mail's handling with a status and, where safe, a reply."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime

from pbem.config import Settings
from pbem.intake.answering import answering, send_answer
from pbem.intake.auth import REFUSED_SEAT, authenticate
from pbem.intake.command_mail import run_command, run_command_mail, with_press
from pbem.intake.context import MailContext
from pbem.intake.decide import Decision, Kind, Rules, look, read
from pbem.intake.help import help_reply
from pbem.intake.orders import take_orders
from pbem.intake.press import relay_blocks, relay_reply
from pbem.intake.press_blocks import Block
from pbem.intake.referee_mail import handle_referee_mail
from pbem.intake.stop import stop_address
from pbem.mail.envelope import Envelope
from pbem.mail.reading import read_mail
from pbem.store import InboundMessage, MailStatus, Outbox
from pbem.store.work import Work


def handle(context: MailContext) -> None:
    _handle(context)
    context.mask_passwords()


def handle_stored(
    work: Work, settings: Settings, inbound: InboundMessage, now: datetime
) -> list[Outbox]:
    """Handle a recorded mail again (a replay) in the work: its status and outcome are
    left on its row; the replies it queued are returned."""
    mail = read_mail(inbound.raw, max_bytes=settings.mail.max_bytes)
    context = MailContext(work, settings, inbound, mail, now)
    handle(context)
    return context.replies


def _rules_of(settings: Settings) -> Rules:
    mail = settings.mail
    return Rules(settings.our_addresses(), mail.loop_token, settings.limits.max_mail_lines)


def _handle(context: MailContext) -> None:
    rules = _rules_of(context.settings)
    decision = look(context.mail, rules)
    context.mail = decision.mail  # a long mail's quoted lines left out (within_lines)
    # The one thing the mail alone cannot tell: is it a plain reply to relayed press, from
    # the address it went to? Then it goes back to its writer (relay_reply does it).
    if decision.kind == Kind.READ:
        if relay_reply(context):
            return
        decision = read(context.mail, rules)
        context.mail = decision.mail
        context.inbound.game_id = decision.envelope.game or None
        context.inbound.seat = decision.envelope.seat or None
    _DO[decision.kind](context, decision)


def _ignore(context: MailContext, decision: Decision) -> None:
    context.finish(MailStatus.IGNORED, decision.reason)  # never answer: mail loops start so


def _set_aside(context: MailContext, decision: Decision) -> None:
    context.set_aside(decision.reason, decision.error)


def _refuse(context: MailContext, decision: Decision) -> None:
    context.quarantine(
        decision.reason, decision.error, reply_to=decision.reply_to, hint=decision.hint
    )


def _stop(context: MailContext, decision: Decision) -> None:
    stop_address(context, decision.token)


def _press(context: MailContext, decision: Decision) -> None:
    """Press alone: relayed if the mail proves its seat (its password, and its address where
    the game asks); its confirmation is its answer."""
    found = authenticate(context, decision.envelope, allow_ended=True)
    if found is not None:
        game, seat = found
        blocks = list(decision.blocks)
        context.finish(MailStatus.ANSWERED, relay_blocks(context, game, seat, blocks))


def _press_commands(context: MailContext, decision: Decision) -> None:
    run_command_mail(context, decision.envelope, decision.blocks)


def _press_orders(context: MailContext, decision: Decision) -> None:
    _orders_with_press(context, decision.envelope, decision.blocks)


def _command(context: MailContext, decision: Decision) -> None:
    run_command(context, decision.envelope)


def _referee(context: MailContext, decision: Decision) -> None:
    handle_referee_mail(context, decision.envelope, handle_stored)


def _no_game(context: MailContext, decision: Decision) -> None:
    """Set aside, and answered with short help (what decide found to name in it)."""
    context.set_aside(decision.reason, decision.error)
    found = decision.help
    assert found is not None  # decide gives every NO_GAME its help
    help_reply(
        context,
        decision.envelope,
        unknown=found.unknown,
        looked=list(found.looked),
        late=found.late,
        stray=found.stray,
    )


def _orders(context: MailContext, decision: Decision) -> None:
    take_orders(context, decision.envelope)


def _orders_with_press(context: MailContext, envelope: Envelope, blocks: Sequence[Block]) -> None:
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


# What each kind of mail is done with.
_DO: dict[Kind, Callable[[MailContext, Decision], None]] = {
    Kind.IGNORED: _ignore,
    Kind.NO_SENDER: _set_aside,
    Kind.TOO_BIG: _refuse,
    Kind.TOO_LONG: _refuse,
    Kind.STOP: _stop,
    Kind.PRESS: _press,
    Kind.PRESS_COMMANDS: _press_commands,
    Kind.PRESS_ORDERS: _press_orders,
    Kind.COMMAND: _command,
    Kind.ENVELOPE: _refuse,
    Kind.REFEREE: _referee,
    Kind.CUT_SHORT: _refuse,
    Kind.NO_GAME: _no_game,
    Kind.ORDERS: _orders,
}
