"""Pausing and resuming, through the game clock (pbem.clock.control): a paused game takes no
orders and resolves nothing; resuming gives the pending turn the time it had left."""

from __future__ import annotations

from pbem.clock.control import ClockError, pause, resume
from pbem.referee.context import RefereeContext
from pbem.referee.registry import RefereeError


def pause_game(ctx: RefereeContext, reason: str, *, notify: bool = True) -> None:
    try:
        pause(
            ctx.session,
            ctx.settings,
            ctx.game.id,
            now=ctx.now,
            actor=ctx.actor,
            reason=reason,
            notify=notify,
        )
    except ClockError as error:
        raise RefereeError(str(error)) from None


def resume_game(ctx: RefereeContext, reason: str, *, notify: bool = True) -> None:
    try:
        resume(
            ctx.session,
            ctx.settings,
            ctx.game.id,
            now=ctx.now,
            actor=ctx.actor,
            reason=reason,
            notify=notify,
        )
    except ClockError as error:
        raise RefereeError(str(error)) from None
