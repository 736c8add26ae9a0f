"""Every mail command by name, the players' and the referees' in one registry, in the manner of
Mailman's named email commands: each is a named component with its usage, a one-line summary
and the function that carries it out.

The words a player's mail may begin with are declared here (`PLAYER_WORDS`), so that reading an
envelope needs no handler. The handlers are registered by the layers that carry the commands
out: `pbem.intake.commands` the players', the `pbem.referee` modules (and the intake's
`replay`) the referees'. A test checks that every word has its handler."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

Audience = Literal["player", "referee"]
Run = TypeVar("Run", bound=Callable[..., Any])

# The words a player's command line begins with, and the command each stands for.
PLAYER_WORDS = {
    "HELP": "HELP",
    "STATUS": "STATUS",
    "REPORT": "REPORT",
    "ORDERS": "ORDERS",
    "JOIN": "JOIN",
    "SIGNUP": "JOIN",  # what some other moderators call it
    "SET": "SET",
    "FORECAST": "FORECAST",
    "LIST": "LIST",
    "RESIGN": "RESIGN",
    "CONFIRM": "CONFIRM",
    "HISTORY": "HISTORY",
    "CHART": "CHART",
}


@dataclass(frozen=True)
class MailCommand:
    name: str  # as written: players' commands in capitals, referees' as typed on the command line
    audience: Audience
    usage: str  # the arguments, e.g. "SEAT [TURN n] ORDER; ORDER..."
    summary: str
    # A player's command: run(MailContext, Envelope) -> None. A referee's: run(RefereeContext,
    # args, reason) -> the result text. Each layer calls its own audience's commands.
    run: Callable[..., Any]
    block: bool = False  # by mail it may take the lines after it, up to END <NAME>
    fixed: int = 0  # the words before a block command's text (the seat of ORDERS)
    # A referee's command that only reads (AUDIT): it changes nothing, so it needs no reason
    # and leaves no audit row of its own (reading the log would otherwise fill it).
    reads: bool = False


class CommandRegistry:
    """The mail commands, found by audience and name (in any case), in the order registered."""

    def __init__(self) -> None:
        self._commands: dict[tuple[Audience, str], MailCommand] = {}

    def add(self, command: MailCommand) -> None:
        key = (command.audience, command.name.lower())
        if key in self._commands:
            raise ValueError(f"two {command.audience} commands are called {command.name}")
        self._commands[key] = command

    def find(self, audience: Audience, name: str) -> MailCommand | None:
        return self._commands.get((audience, name.lower()))

    def of(self, audience: Audience) -> list[MailCommand]:
        return [command for (who, _), command in self._commands.items() if who == audience]


REGISTRY = CommandRegistry()


def mail_command(
    audience: Audience,
    name: str,
    usage: str,
    summary: str,
    *,
    block: bool = False,
    fixed: int = 0,
    reads: bool = False,
) -> Callable[[Run], Run]:
    """Register the decorated function as the mail command `name` of `audience`."""

    def register(run: Run) -> Run:
        REGISTRY.add(MailCommand(name, audience, usage, summary, run, block, fixed, reads))
        return run

    return register
