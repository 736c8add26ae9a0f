"""Referee powers: named commands, each a function (ctx, args, reason) -> result text, shared
by the command line (`pbem referee GAME COMMAND ...`) and referee mail (`GAME <id> REFEREE
<password>`). Every use is audited with who, when, why and the values before and after, and
told to the players in their next reports unless the game opts out.

The commands are listed, with their usage and summary, in one table beside the players'
(pbem.intake.command_table): the intake's `replay` is one of them, and only the intake may
import both."""

from __future__ import annotations

from pbem.referee.command import RefereeCommand, RefereeError, RefereeRun

__all__ = ["RefereeCommand", "RefereeError", "RefereeRun"]
