"""Pausing and resuming, through the game clock (pbem.clock.control): a paused game takes no
orders and resolves nothing; resuming gives the pending turn the time it had left."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pbem.clock.control import ClockError, pause, resume
from pbem.referee import welcomes
from pbem.referee.command import RefereeError
from pbem.referee.context import RefereeContext


def pause_game(ctx: RefereeContext, reason: str, *, notify: bool = True) -> None:
    _on_clock(pause, ctx, reason, notify)


def resume_game(ctx: RefereeContext, reason: str, *, notify: bool = True) -> None:
    _on_clock(resume, ctx, reason, notify)


def _on_clock(action: Callable[..., Any], ctx: RefereeContext, reason: str, notify: bool) -> None:
    """Run a clock control as this referee; the clock's refusal becomes the referee's."""
    try:
        action(
            ctx.work,
            ctx.settings,
            ctx.game.id,
            now=ctx.now,
            actor=ctx.actor,
            reason=reason,
            notify=notify,
        )
    except ClockError as error:
        raise RefereeError(str(error)) from None
    # A welcome of this transaction names the deadline a resume has just set.
    welcomes.renew(ctx.work, ctx.settings, ctx.game.id, now=ctx.now)
