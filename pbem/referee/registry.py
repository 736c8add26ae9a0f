"""The referee commands by name, as Mailman registers its email commands: each a small
function (ctx, args, reason) -> result text, found by name from the CLI and from mail."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pbem.referee.context import RefereeContext

Run = Callable[["RefereeContext", Sequence[str], str], str]

# The modules that register commands, in the order the handbook and HELP list them.
MODULES = ("orders", "edits", "turns", "clock", "seats", "bots", "messages")


class RefereeError(ValueError):
    """A referee command that cannot be done as asked; the message says why."""


@dataclass(frozen=True)
class Command:
    name: str  # as typed on the command line; by mail, in any case
    usage: str  # the arguments, e.g. "SEAT [TURN n] ORDER; ORDER..."
    summary: str
    run: Run
    block: bool = False  # by mail it may take the lines after it, up to END <NAME>
    fixed: int = 0  # the words before a block command's text (the seat of ORDERS)


COMMANDS: dict[str, Command] = {}


def command(
    name: str, usage: str, summary: str, *, block: bool = False, fixed: int = 0
) -> Callable[[Run], Run]:
    """Register the decorated function as the referee command `name`."""

    def register(run: Run) -> Run:
        if name in COMMANDS:
            raise ValueError(f"two referee commands are called {name}")
        COMMANDS[name] = Command(name, usage, summary, run, block, fixed)
        return run

    return register


def commands() -> dict[str, Command]:
    """Every referee command, in the order of MODULES; commands registered from other layers
    (the intake's `replay`) come last."""
    for module in MODULES:
        importlib.import_module(f"pbem.referee.{module}")
    return dict(sorted(COMMANDS.items(), key=lambda item: _place(item[1])))


def _place(command: Command) -> int:
    package, _, module = command.run.__module__.rpartition(".")
    return MODULES.index(module) if package == "pbem.referee" else len(MODULES)


def find_command(name: str) -> Command:
    found = commands().get(name.lower())
    if found is None:
        raise RefereeError(f"there is no referee command {name.upper()}")
    return found
