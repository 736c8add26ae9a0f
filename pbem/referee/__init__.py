"""Referee powers: named commands in the one registry of mail commands (pbem.mail.commands),
each a function (ctx, args, reason) -> result text, shared by the command line (`pbem referee
GAME COMMAND ...`) and referee mail (`GAME <id> REFEREE <password>`). Every use is audited
with who, when, why and the values before and after, and told to the players in their next
reports unless the game opts out.

The modules register their commands when imported; `commands()` imports them all."""

from __future__ import annotations

from pbem.referee.registry import Command, RefereeError, commands, find_command

__all__ = ["Command", "RefereeError", "commands", "find_command"]
