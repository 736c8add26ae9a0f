"""A mail of commands (and perhaps press), answered line by line in one answer
(pbem.intake.answer):

    GAME g1 SEAT alice PASSWORD secret      proves the seat before anything runs: with a
    SET ABSENCE 2026-12-24                  wrong password nothing below it does, whatever
    SET PASSWORD new-secret                 it is (HELP and STATUS too)
    PRESS TO bob ... END PRESS

Every command line runs, in the mail's order, each on its own: a refused one changes nothing
and the rest go on, as in referee mail. A line that is no command is answered as
unprocessed. The press goes last, if the seat is still proved then. FORECAST first is no
such mail: the lines after it are orders (pbem.intake.forecast)."""

from __future__ import annotations

from collections.abc import Sequence

from pbem.intake.answer import Answer
from pbem.intake.answering import answering, send_answer
from pbem.intake.auth import authenticate, prove_claim
from pbem.intake.command_plan import plan, press_line, signed_off
from pbem.intake.command_table import player_command
from pbem.intake.context import MailContext
from pbem.intake.decide import HELP_HINT
from pbem.intake.forecast import forecast_command
from pbem.intake.press import relay_blocks
from pbem.intake.press_blocks import Block
from pbem.intake.resign import resign_not_alone
from pbem.mail.envelope import Envelope
from pbem.store import MailStatus


def run_command(context: MailContext, envelope: Envelope) -> None:
    """A mail whose first line (after its GAME line, if any) is a command: every command of
    it, one answer. A mail the envelope cannot read is refused whole."""
    if envelope.problem:
        context.quarantine(
            "envelope", envelope.problem, reply_to=context.mail.sender, hint=HELP_HINT
        )
    elif envelope.command == "FORECAST":  # the lines after it are orders
        forecast_command(context, envelope)
    else:
        run_command_mail(context, envelope, ())


def run_command_mail(context: MailContext, envelope: Envelope, blocks: Sequence[Block]) -> None:
    """The mail's plan (pbem.intake.command_plan), run once its GAME line proves its seat."""
    envelope = signed_off(envelope)
    with answering(context) as answer:
        if _proved(context, envelope, answer):
            read = plan(envelope, context.settings.limits.max_commands)
            for command in read.commands:
                answer.begin(command.command_line, command.command_text)
                _run(context, command, alone=read.alone)
                answer.end(context.inbound)
            for number, text in read.not_commands:
                answer.not_a_command(number, text, under_game=read.under_game)
            if read.too_many is not None:
                answer.too_many(*read.too_many, context.settings.limits.max_commands)
            if blocks:
                with_press(context, envelope, blocks, answer)
    send_answer(context, answer, envelope.ignored)


def with_press(
    context: MailContext, envelope: Envelope, blocks: Sequence[Block], answer: Answer
) -> None:
    """The mail's press, as one part: relayed if the mail proves its seat now (a RESIGN
    above it may have ended that)."""
    answer.begin(blocks[0].line, "; ".join(press_line(block) for block in blocks))
    found = authenticate(context, envelope, allow_ended=True)
    if found is not None:
        game, seat = found
        context.finish(MailStatus.ANSWERED, relay_blocks(context, game, seat, list(blocks)))
    answer.end(context.inbound)


def _run(context: MailContext, command: Envelope, *, alone: bool) -> None:
    if command.problem:
        context.quarantine(
            "envelope", command.problem, reply_to=context.mail.sender, hint=HELP_HINT
        )
        return
    if command.command == "RESIGN" and not alone:  # giving up a seat is said on its own
        resign_not_alone(context, command)
        return
    # Every command word has its handler in the table (a test checks).
    player_command(command.command).run(context, command)


def _proved(context: MailContext, envelope: Envelope, answer: Answer) -> bool:
    """Does the mail's GAME line, if it has one, prove its seat? Asked before any command
    runs, even one that shows nothing private: a wrong password refuses the whole mail."""
    if not envelope.game_line:
        return True
    answer.begin(envelope.game_line, f"GAME {envelope.game} SEAT {envelope.seat}")
    proved = prove_claim(context, envelope)
    answer.end(context.inbound)
    return proved
