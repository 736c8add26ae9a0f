"""The game clock by hand: pause and resume, move the pending deadline, change the policy."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from pbem.clock.announce import Announcement, announce_deadline, announce_policy
from pbem.deadlines.policy import PolicyError, game_zone, parse_policy
from pbem.deadlines.stored import canonical, describe, interval
from pbem.games.games import Awaited
from pbem.referee import welcomes
from pbem.referee.command import RefereeError
from pbem.referee.context import RefereeContext
from pbem.referee.pausing import pause_game, resume_game
from pbem.referee.words import exactly, need
from pbem.store import GameStatus, Turn, utc

DEADLINE_USAGE = "deadline extend|shorten DURATION, or deadline set YYYY-MM-DDTHH:MM"


def pause(ctx: RefereeContext, args: Sequence[str], reason: str) -> str:
    exactly(args, 0, "pause")
    if ctx.game.status != GameStatus.RUNNING:
        raise RefereeError(f"game {ctx.game.id} is {ctx.game.status}, not running")
    pause_game(ctx, reason)
    ctx.change("the game was paused", GameStatus.RUNNING, GameStatus.PAUSED)
    return f"game {ctx.game.id} paused"


def resume(ctx: RefereeContext, args: Sequence[str], reason: str) -> str:
    exactly(args, 0, "resume")
    if ctx.game.status != GameStatus.PAUSED:
        raise RefereeError(f"game {ctx.game.id} is {ctx.game.status}, not paused")
    zone = ctx.game.timezone
    before = describe(ctx.pending_turn().deadline, zone)
    resume_game(ctx, reason)
    after = describe(ctx.pending_turn().deadline, zone)
    ctx.change(f"the game was resumed; the deadline is now {after}", before, after)
    return f"game {ctx.game.id} resumed; deadline {after}"


def deadline(ctx: RefereeContext, args: Sequence[str], reason: str) -> str:
    exactly(args, 2, DEADLINE_USAGE)
    turn = ctx.pending_turn()
    old = turn.deadline
    new = _new_deadline(ctx, old, args[0].lower(), args[1])
    whom = move_deadline(ctx, turn, new, reason)
    zone = ctx.game.timezone
    ctx.change(
        f"the deadline of turn {turn.number} moved from {describe(old, zone)} "
        f"to {describe(new, zone)}",
        describe(old),
        describe(new),
    )
    return f"deadline of turn {turn.number}: {describe(new, zone)}; {told(whom)}"


def move_deadline(
    ctx: RefereeContext,
    turn: Turn,
    new: datetime | None,
    reason: str,
    *,
    untold: tuple[str, ...] = (),
) -> Awaited:
    """Set the pending turn's deadline and tell every seat (but the `untold`, told otherwise);
    whom the turn waits for, and who is away. A paused game keeps the time left until it (the
    clock stands still while paused), so that resuming does not undo the change."""
    old = turn.deadline
    turn.deadline = new
    ctx.work.games.add(turn)
    game = ctx.game
    old_left = game.paused_left  # while paused, what the notices name in place of `old`
    if game.status == GameStatus.PAUSED and new is not None:
        if old is not None and game.paused_left is not None:
            left = game.paused_left + (utc(new) - utc(old)).total_seconds()
        else:
            left = (utc(new) - utc(ctx.now)).total_seconds()
        game.paused_left = max(int(left), 0)
        ctx.work.games.add(game)
    told = news(ctx, turn, reason)
    # A seat given to a new player in this transaction: its welcome, written again, names
    # the deadline as it is (pbem.referee.welcomes); no notice of a change to it.
    newcomers = welcomes.welcomed(ctx.work, game.id)
    whom = announce_deadline(
        ctx.work, ctx.settings, told, old=old, old_left=old_left, untold=(*untold, *newcomers)
    )
    welcomes.renew(ctx.work, ctx.settings, game.id, now=ctx.now)
    return whom


def news(ctx: RefereeContext, turn: Turn, reason: str) -> Announcement:
    return Announcement(ctx.game, turn, ctx.now, reason, ctx.origin)


def told(whom: Awaited) -> str:
    """The referee's summary of an announcement: whom the turn waits for, and who is away
    and not waited for (pbem.games.games.awaited: as STATUS and the desk say it)."""
    away = f"; away, not waited for: {', '.join(whom.away)}" if whom.away else ""
    if not whom.waiting:
        done = "no other orders awaited" if away else "every seat's orders are in"
        return f"every seat was told; {done}{away}"
    return f"every seat was told; no orders yet from {', '.join(whom.waiting)}{away}"


def _new_deadline(ctx: RefereeContext, old: datetime | None, how: str, value: str) -> datetime:
    if how == "set":
        try:
            return utc(datetime.fromisoformat(value))
        except ValueError:
            raise RefereeError(f"{value!r} is not a time like 2026-03-05T12:00") from None
    if how not in ("extend", "shorten"):
        raise RefereeError(f"write: {DEADLINE_USAGE}")
    step = duration(value)
    base = utc(old) if old is not None else utc(ctx.now)
    return base + step if how == "extend" else base - step


def duration(text: str) -> timedelta:
    try:
        step = interval(f"interval:{text.lower()}")
    except PolicyError:
        raise RefereeError(f"{text!r} is not a duration like 30m, 12h or 2d") from None
    assert step is not None
    return step


def policy(ctx: RefereeContext, args: Sequence[str], reason: str) -> str:
    need(args, 1, "policy POLICY")
    try:
        new = canonical(" ".join(args), ctx.game.timezone)  # a weekly policy has a zone
    except PolicyError as error:
        raise RefereeError(str(error)) from None
    old = ctx.game.deadline_policy
    if old == new:
        raise RefereeError(f"the deadline policy is {new} already")
    ctx.game.deadline_policy = new
    ctx.game.timezone = game_zone(ctx.game.timezone, parse_policy(new))
    ctx.work.games.add(ctx.game)
    ctx.change(f"the deadline policy changed from {old} to {new}", old, new)
    turn = ctx.work.games.turn_of(ctx.game.id, ctx.game.turn)
    if ctx.game.status != GameStatus.ENDED and turn is not None and turn.resolved_at is None:
        announce_policy(ctx.work, ctx.settings, news(ctx, turn, reason))
    return f"deadline policy {new} from the next turn on (the pending deadline is unchanged)"
