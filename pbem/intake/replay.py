"""The referee command `replay QUARANTINE-ID`: handle a quarantined mail of the referee's game
again. It lives with the intake because replaying is handling mail; it is listed with the
referee's own commands in pbem.intake.command_table.

A referee's mail may replay a mail, and handling mail reads the table this command is in: so
the handling is not imported here but handed in, on the referee's context (handle_mail)."""

from __future__ import annotations

from collections.abc import Sequence

from pbem.intake.quarantine import QuarantineError, replay_in
from pbem.referee.command import RefereeError
from pbem.referee.context import RefereeContext
from pbem.referee.words import need, number


def replay(ctx: RefereeContext, args: Sequence[str], reason: str) -> str:
    need(args, 1, "replay QUARANTINE-ID")
    quarantine_id = number(args[0], "a quarantine id")
    _check_game(ctx, quarantine_id)
    try:
        with ctx.work.savepoint():  # a failing replay leaves the entry as it was
            receipt = replay_in(
                ctx.work, ctx.settings, quarantine_id, now=ctx.now, handle=ctx.handle_mail
            )
    except QuarantineError as error:
        raise RefereeError(str(error)) from None
    except Exception as error:  # noqa: BLE001 - the replayed mail's failure is its result
        raise RefereeError(f"the replay failed ({type(error).__name__}: {error})") from None
    ctx.change(f"quarantined mail {quarantine_id} was replayed", None, receipt.status, public=False)
    return f"mail {receipt.message_id} replayed: {receipt.status} ({receipt.outcome})"


def _check_game(ctx: RefereeContext, quarantine_id: int) -> None:
    """A referee replays the mail of their own game only."""
    held = ctx.work.inbound.quarantined(quarantine_id)
    if held is None:
        raise RefereeError(f"no quarantine entry {quarantine_id}")
    if held[1].game_id != ctx.game.id:
        raise RefereeError(f"quarantine entry {quarantine_id} is not mail for game {ctx.game.id}")
