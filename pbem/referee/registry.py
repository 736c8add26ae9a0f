"""The referee commands by name: each a small function (ctx, args, reason) -> result text,
registered in the one registry of mail commands (pbem.mail.commands) and found by name from
the command line and from mail."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from pbem.errors import PbemError
from pbem.mail.commands import REGISTRY, MailCommand, mail_command

if TYPE_CHECKING:
    from pbem.referee.context import RefereeContext

Run = Callable[["RefereeContext", Sequence[str], str], str]

# The modules that register commands, in the order the handbook and HELP list them.
MODULES = ("orders", "edits", "turns", "clock", "seats", "bots", "messages", "log")

# A referee command is a mail command of the one registry (pbem.mail.commands).
Command = MailCommand


class RefereeError(PbemError, ValueError):
    """A referee command that cannot be done as asked; the message says why."""


def command(
    name: str, usage: str, summary: str, *, block: bool = False, fixed: int = 0, reads: bool = False
) -> Callable[[Run], Run]:
    """Register the decorated function (ctx, args, reason) -> result text as the referee
    command `name`; `reads`: it changes nothing (no reason needed, no audit row)."""
    return mail_command("referee", name, usage, summary, block=block, fixed=fixed, reads=reads)


def commands() -> dict[str, Command]:
    """Every referee command, in the order of MODULES; commands registered from other layers
    (the intake's `replay`) come last."""
    for module in MODULES:
        importlib.import_module(f"pbem.referee.{module}")
    return {c.name: c for c in sorted(REGISTRY.of("referee"), key=_place)}


def _place(command: Command) -> int:
    package, _, module = command.run.__module__.rpartition(".")
    return MODULES.index(module) if package == "pbem.referee" else len(MODULES)


def find_command(name: str) -> Command:
    found = commands().get(name.lower())
    if found is None:
        raise RefereeError(f"there is no referee command {name.upper()}")
    return found
