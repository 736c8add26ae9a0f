"""A mail of commands, read into what it asks, from the mail alone: no database. The
sign-off that closes it is passed over (signed_off); each command line becomes the envelope
of a mail with that command alone, the lines that are no command are listed, and those past
the most a mail may run are counted (plan). pbem.intake.command_mail runs the plan."""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.order_lines import SIGN_OFF_WORDS, sign_off
from pbem.intake.press_blocks import Block
from pbem.mail.commands import PLAYER_WORDS
from pbem.mail.envelope import Envelope, read_command

SIGN_OFF = "a sign-off, not a command"
_COMMAND_WORDS = frozenset(word.lower() for word in PLAYER_WORDS)


@dataclass(frozen=True)
class Plan:
    commands: tuple[Envelope, ...]  # each command, as the envelope of a mail with it alone
    not_commands: tuple[tuple[int, str], ...]  # (line number, text) of each other line
    too_many: tuple[int, int] | None  # (first line not run, how many lines from it) or None
    under_game: bool  # the mail has a GAME line: its lines are read under it
    alone: bool  # the mail's one line after its GAME line, if any (RESIGN must be)


def signed_off(envelope: Envelope) -> Envelope:
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


def plan(envelope: Envelope, most: int) -> Plan:
    """The mail's command lines, the first `most` of them (the envelope's own command
    first), and the lines that are no command."""
    commands, not_commands, too_many = [replace(envelope, lines=())], [], None
    under_game = bool(envelope.game_line)
    for index, (number, text) in enumerate(envelope.lines):
        if index + 1 >= most:  # the first command is the envelope's own
            too_many = (number, len(envelope.lines) - index)
            break
        command = read_command(number, text, game_line=under_game)
        if command is None:
            not_commands.append((number, text))
        elif under_game:  # the GAME line's game, seat and password with it
            commands.append(_under(envelope, command))
        else:
            commands.append(command)
    alone = not envelope.lines
    return Plan(tuple(commands), tuple(not_commands), too_many, under_game, alone)


def _under(envelope: Envelope, command: Envelope) -> Envelope:
    return replace(
        envelope,
        lines=(),
        command=command.command,
        command_args=command.command_args,
        command_words=command.command_words,
        problem=command.problem,
        command_line=command.command_line,
        command_text=command.command_text,
    )


def press_line(block: Block) -> str:
    """A block of press as its part of the answer names it."""
    to = ", ".join(name.upper() if name == "all" else name for name in block.to)
    return f"PRESS TO {to}" + (" ANONYMOUS" if block.anonymous else "")
