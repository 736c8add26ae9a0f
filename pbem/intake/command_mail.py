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

from collections.abc import Iterator, Sequence
from dataclasses import replace

from engine.order_lines import SIGN_OFF_WORDS, sign_off
from pbem.intake.answer import Answer
from pbem.intake.answering import answering, send_answer
from pbem.intake.auth import authenticate, prove_claim
from pbem.intake.command_table import player_command
from pbem.intake.context import MailContext
from pbem.intake.decide import HELP_HINT
from pbem.intake.forecast import forecast_command
from pbem.intake.press import relay_blocks
from pbem.intake.press_blocks import Block
from pbem.intake.resign import resign_not_alone
from pbem.mail.commands import PLAYER_WORDS
from pbem.mail.envelope import Envelope, read_command
from pbem.store import MailStatus

SIGN_OFF = "a sign-off, not a command"
_COMMAND_WORDS = frozenset(word.lower() for word in PLAYER_WORDS)


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
    envelope = _signed_off(envelope)
    with answering(context) as answer:
        if _proved(context, envelope, answer):
            most = context.settings.limits.max_commands
            alone = not envelope.lines  # the mail's one line after its GAME line, if any
            for command in _commands(envelope, answer, most):
                answer.begin(command.command_line, command.command_text)
                _run(context, command, alone=alone)
                answer.end(context.inbound)
            if blocks:
                with_press(context, envelope, blocks, answer)
    send_answer(context, answer, envelope.ignored)


def with_press(
    context: MailContext, envelope: Envelope, blocks: Sequence[Block], answer: Answer
) -> None:
    """The mail's press, as one part: relayed if the mail proves its seat now (a RESIGN
    above it may have ended that)."""
    press = "; ".join(_press_line(block) for block in blocks)
    answer.begin(blocks[0].line, press)
    found = authenticate(context, envelope, allow_ended=True)
    if found is not None:
        game, seat = found
        context.finish(MailStatus.ANSWERED, relay_blocks(context, game, seat, list(blocks)))
    answer.end(context.inbound)


def _signed_off(envelope: Envelope) -> Envelope:
    """The envelope without the short sign-off that closes the mail ("Thanks, Eve" after the
    last command, the name under "Cheers,"): passed over as an order mail passes it
    (engine.order_lines.sign_off), and listed as ignored."""
    said = sign_off(envelope.lines, _COMMAND_WORDS, _is_command, longest=SIGN_OFF_WORDS)
    if not said:
        return envelope
    lines = tuple(line for line in envelope.lines if line[0] not in said)
    ignored = sorted((*envelope.ignored, *((number, SIGN_OFF) for number in said)))
    return replace(envelope, lines=lines, ignored=tuple(ignored))


def _is_command(line: str) -> bool:
    return read_command(0, line, game_line=True) is not None


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


def _commands(envelope: Envelope, answer: Answer, most: int) -> Iterator[Envelope]:
    """The mail's command lines, each as the envelope of a mail with that command alone, the
    first `most` of them; each other line goes to the answer as unprocessed."""
    yield replace(envelope, lines=())
    under_game = bool(envelope.game_line)
    for index, (number, text) in enumerate(envelope.lines):
        if index + 1 >= most:  # the first command is the envelope's own, yielded above
            answer.too_many(number, len(envelope.lines) - index, most)
            return
        command = read_command(number, text, game_line=under_game)
        if command is None:
            answer.not_a_command(number, text, under_game=under_game)
        elif under_game:  # the GAME line's game, seat and password with it
            yield replace(
                envelope,
                lines=(),
                command=command.command,
                command_args=command.command_args,
                command_words=command.command_words,
                problem=command.problem,
                command_line=command.command_line,
                command_text=command.command_text,
            )
        else:
            yield command


def _press_line(block: Block) -> str:
    to = ", ".join(name.upper() if name == "all" else name for name in block.to)
    return f"PRESS TO {to}" + (" ANONYMOUS" if block.anonymous else "")
