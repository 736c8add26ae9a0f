"""What a referee command is: a name, its usage and summary for HELP and `pbem referee`, and
the function (ctx, args, reason) -> result text that carries it out; and how its use is
recorded: one audit row per command (who, when, why, the arguments, the values before and
after) and a note for the players' next reports for each change they should hear of. The
commands themselves are listed in one table, pbem.intake.command_table (the intake's
`replay` is one of them)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pbem.referee.context import RefereeContext
from pbem.referee.context import RefereeError as RefereeError
from pbem.store import RefereeNote, dumps, utc

RefereeRun = Callable[[RefereeContext, Sequence[str], str], str]


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


def run_command(
    ctx: RefereeContext, command: RefereeCommand, args: Sequence[str], reason: str
) -> str:
    """Run one referee command (of pbem.intake.command_table) and record it; RefereeError (or
    the engine's EditError) when it is refused, and then nothing of it is recorded. A command
    that only reads (AUDIT) needs no reason and is not recorded: it changes nothing."""
    if command.reads:
        return command.run(ctx, args, reason.strip())
    if not reason.strip():
        raise RefereeError(f"{command.name} needs a reason (--reason WHY; by mail BECAUSE WHY)")
    result = command.run(ctx, args, reason.strip())
    _record(ctx, command.name, list(args), reason.strip(), result)
    return result


def _record(ctx: RefereeContext, name: str, args: list[str], reason: str, result: str) -> None:
    detail = {
        "reason": reason,
        "args": args,
        "result": result,
        "changes": [
            {"effect": c.effect, "before": c.before, "after": c.after} for c in ctx.changes
        ],
    }
    ctx.audit.record(ctx.now, ctx.actor, f"referee-{name}", ctx.game.id, dumps(detail))
    for change in ctx.changes:
        ctx.work.games.add(
            RefereeNote(
                game_id=ctx.game.id,
                turn=ctx.game.turn,
                at=utc(ctx.now),
                actor=ctx.actor,
                action=name,
                reason=reason,
                effect=change.effect,
                public=change.public,
                edit_path=change.edit_path,
                edit_value=change.edit_value,
            )
        )
    ctx.changes.clear()
    ctx.work.flush()
