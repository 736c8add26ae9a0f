"""What a referee command is: a name, its usage and summary for HELP and `pbem referee`, and
the function (ctx, args, reason) -> result text that carries it out. The commands themselves
are listed in one table, pbem.intake.command_table (the intake's `replay` is one of them)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pbem.errors import PbemError

if TYPE_CHECKING:
    from pbem.referee.context import RefereeContext

RefereeRun = Callable[["RefereeContext", Sequence[str], str], str]


class RefereeError(PbemError, ValueError):
    """A referee command that cannot be done as asked; the message says why."""


@dataclass(frozen=True)
class RefereeCommand:
    name: str  # as typed on the command line; by mail in any case
    usage: str  # the arguments, e.g. "SEAT [TURN n] ORDER; ORDER..."
    summary: str
    run: RefereeRun
    block: bool = False  # by mail it may take the lines after it, up to END <NAME>
    fixed: int = 0  # the words before a block command's text (the seat of ORDERS)
    # A command that only reads (AUDIT): it changes nothing, so it needs no reason and leaves
    # no audit row of its own (reading the log would otherwise fill it).
    reads: bool = False
