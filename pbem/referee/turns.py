"""Turns: preview the pending turn (to the referees only), process it now, roll the game back
to the start of an earlier turn, and rerun the rolled-back turns from their stored inputs."""

from __future__ import annotations

from collections.abc import Sequence

from pbem.clock.control import tell
from pbem.clock.forced import Forced, was_forced
from pbem.clock.nmr import undo_misses
from pbem.clock.turns import TurnError, preview_resolution, resolve_turn
from pbem.deadlines.policy import format_duration
from pbem.deadlines.stored import next_deadline
from pbem.games.games import awaited
from pbem.referee.command import RefereeError
from pbem.referee.context import RefereeContext
from pbem.referee.edits import apply_edit
from pbem.referee.mails import moved_orders_body, preview_body, rollback_body
from pbem.referee.pausing import pause_game, resume_game
from pbem.referee.words import exactly, number
from pbem.store import GameStatus, Turn, dumps, loads, utc


def preview(ctx: RefereeContext, args: Sequence[str], reason: str) -> str:
    exactly(args, 0, "preview")
    turn = ctx.pending_turn()
    resolution, played = preview_resolution(ctx.work, ctx.game, turn)
    seats = {seat.name: seat.status for seat in ctx.work.games.seats_of(ctx.game.id)}
    on_file = ctx.work.games.stored_orders(ctx.game.id, turn.number)
    away = awaited(ctx.work, ctx.game, turn, now=ctx.now).away
    body = preview_body(ctx.settings, ctx.game, turn, resolution, played, seats, on_file, away)
    referees = ctx.referees()
    for referee in referees:
        ctx.send(referee.address, f"preview of turn {turn.number}", body)
    ctx.change(f"turn {turn.number} previewed", public=False)
    mailed = [r for r in referees if r.address.lower() not in ctx.stopped]
    return f"preview of turn {turn.number} mailed to {len(mailed)} referee(s){ctx.unsent()}"


def process(ctx: RefereeContext, args: Sequence[str], reason: str) -> str:
    exactly(args, 0, "process")
    if ctx.game.status == GameStatus.PAUSED:
        raise RefereeError(f"game {ctx.game.id} is paused; resume it first")
    forced = Forced(ctx.actor, reason)
    try:
        summary = resolve_turn(ctx.work, ctx.settings, ctx.game.id, now=ctx.now, forced=forced)
    except TurnError as error:
        raise RefereeError(str(error)) from None
    assert summary is not None
    # Audited only: the turn's own reports told the players (pbem.clock.forced); a note here
    # would go in the next turn's.
    ctx.change(f"turn {summary.turn} was processed by the referee", public=False)
    ended = " - game over" if summary.ended else ""
    return f"turn {summary.turn} resolved: {summary.orders} orders, {summary.events} events{ended}"


def rollback(ctx: RefereeContext, args: Sequence[str], reason: str) -> str:
    exactly(args, 1, "rollback N")
    target = number(args[0])
    turn = ctx.work.games.turn_of(ctx.game.id, target)
    if turn is None:
        raise RefereeError(f"game {ctx.game.id} has no turn {target}")
    before = {"turn": ctx.game.turn, "status": ctx.game.status}
    branch, last = ctx.work.branches.archive_from(ctx.game.id, target, ctx.now)
    undo_misses(ctx.work, ctx.game.id, target)  # before the later turns leave play
    _take_out_of_play(ctx, target)
    _reopen(ctx, turn, reason)
    _tell_rollback(ctx, turn, last, reason)
    after = {"turn": target, "status": ctx.game.status, "branch": branch}
    ctx.change(
        f"the game was rolled back to the start of turn {target}; "
        f"{_played(target, last)} kept as branch {branch}",
        before,
        after,
    )
    return (
        f"rolled back to the start of turn {target}; {_played(target, last)} kept as "
        f"branch {branch}; the game is paused: correct orders, then rerun"
    )


def _played(first: int, last: int) -> str:
    """What a branch keeps: the turns played from `first` to `last` (none if `last` is
    before `first`: the pending turn, rolled back before it was played)."""
    if last < first:
        return f"turn {first}, not played yet, and its orders are"
    return (
        f"turn {first} as played is" if first == last else f"turns {first} to {last} as played are"
    )


def _take_out_of_play(ctx: RefereeContext, target: int) -> None:
    """The archive holds them now: the live tables keep turns up to `target` only."""
    for row in ctx.work.games.turns_after(ctx.game.id, target):
        ctx.work.games.remove(row)
    for orders in ctx.work.branches.live_orders_from(ctx.game.id, target + 1):
        ctx.work.games.remove(orders)
    ctx.work.flush()


def _reopen(ctx: RefereeContext, turn: Turn, reason: str) -> None:
    turn.state_after = turn.record = turn.resolved_at = None
    turn.deadline = next_deadline(ctx.game.deadline_policy, utc(ctx.now))
    ctx.game.turn = turn.number
    ctx.game.result = ""
    ctx.work.games.add(turn)
    if ctx.game.status == GameStatus.PAUSED:  # the reopened turn gets its whole time when resumed
        left = utc(turn.deadline) - utc(ctx.now) if turn.deadline else None
        ctx.game.paused_left = int(left.total_seconds()) if left is not None else None
        ctx.work.games.add(ctx.game)
        return
    ctx.game.status = GameStatus.RUNNING  # an ended game, too, plays on from here
    ctx.work.flush()
    # Nothing resolves before the referee reruns; the players hear of the rollback itself.
    pause_game(ctx, reason, notify=False)


def _tell_rollback(ctx: RefereeContext, turn: Turn, last: int, reason: str) -> None:
    """Every player is told at once which turns were undone, why, and when they are played
    again: a pause notice alone ("paused at turn 2") said none of it."""
    left = format_duration(utc(turn.deadline) - utc(ctx.now)) if turn.deadline else ""
    facts = {"first": turn.number, "last": last, "reason": reason, "left": left}
    body = rollback_body(ctx.settings, ctx.game, **facts)
    undone = f"turn {turn.number}" if last <= turn.number else f"turns {turn.number} to {last}"
    for seat in ctx.work.games.seats_of(ctx.game.id):
        if seat.address:
            ctx.send(seat.address, f"{undone} rolled back", body)


def rerun(ctx: RefereeContext, args: Sequence[str], reason: str) -> str:
    exactly(args, 0, "rerun")
    branch = ctx.work.branches.latest_branch(ctx.game.id)
    end = ctx.work.branches.branch_end(ctx.game.id, branch)
    last = ctx.work.branches.archived_turn(ctx.game.id, branch, end)
    if last is not None and last.resolved_at is not None:
        end += 1  # the branch ended the game: its last turn is rerun too
    start = ctx.game.turn
    if not branch or ctx.game.status == GameStatus.ENDED or start >= end:
        raise RefereeError(f"game {ctx.game.id} has no rolled-back turns to rerun")
    if ctx.game.status == GameStatus.PAUSED:
        resume_game(ctx, reason, notify=False)  # the rerun's reports tell the players
    lines = [
        _rerun_turn(ctx, branch, end)
        for _ in range(start, end)
        if ctx.game.status == GameStatus.RUNNING
    ]
    if ctx.game.status == GameStatus.RUNNING:
        lines += _restore_pending(ctx, branch, reason)
    ctx.change(f"{turns_text(start, ctx.game.turn - 1)} resolved again", None, lines)
    game = ctx.game  # read anew: mypy holds ctx.game.status narrowed past the rerun
    ending = "the game is over" if game.status == GameStatus.ENDED else f"pending turn {game.turn}"
    return "\n".join([*lines, f"{ending}; the game is {game.status}"])


def _restore_pending(ctx: RefereeContext, branch: int, reason: str) -> list[str]:
    """The orders the branch held for the turn now pending come back into play; the game
    runs again, and every seat hears so. Where the rerun changed the position those orders
    were written for, their seats are told, and so is the referee."""
    turn = ctx.pending_turn()
    restored = ctx.work.branches.restore_orders(ctx.game.id, branch, turn.number)
    tell(ctx.work, ctx.settings, ctx.game, turn, paused=False, reason=reason, now=ctx.now)
    old = ctx.work.branches.archived_turn(ctx.game.id, branch, turn.number)
    if not restored or old is None or old.state_before == turn.state_before:
        return []
    for name in restored:
        seat = ctx.seat(name)
        if seat.address:
            body = moved_orders_body(ctx.settings, ctx.game, seat.name, turn.number)
            ctx.send(seat.address, f"turn {turn.number}: check your orders", body)
    return [
        f"turn {turn.number}: the stored orders of {', '.join(restored)} are now checked "
        "against a different position (their seats were told)"
    ]


def turns_text(first: int, last: int) -> str:
    """'turn 3 was' or 'turns 3 to 5 were', as a sentence needs it."""
    return f"turn {first} was" if first == last else f"turns {first} to {last} were"


def _rerun_turn(ctx: RefereeContext, branch: int, end: int) -> str:
    """Resolve the pending turn again; `end`: the turn the rerun stops at, pending. A turn
    before the last one rerun has its following turn played at once in the same command, so
    its reports ask for no orders (the last report does)."""
    turn_no = ctx.game.turn
    ctx.work.branches.restore_orders(ctx.game.id, branch, turn_no)
    # A turn first forced before its deadline is forced again: its misses stay uncounted.
    was = was_forced(ctx.work, ctx.game.id, turn_no)
    forced = Forced(ctx.actor) if was else None
    again = turn_no + 1 < end
    resolve_turn(
        ctx.work, ctx.settings, ctx.game.id, now=ctx.now, forced=forced, replayed_next=again
    )
    problems = _apply_edits(ctx) if ctx.game.status == GameStatus.RUNNING else []
    old = ctx.work.branches.archived_turn(ctx.game.id, branch, turn_no)
    new = ctx.work.games.turn_of(ctx.game.id, turn_no)
    assert new is not None
    same = old is not None and (old.state_after, old.record) == (new.state_after, new.record)
    verdict = "identical to branch" if same else "changed"
    return "; ".join([f"turn {turn_no}: {verdict}", *problems])


def _apply_edits(ctx: RefereeContext) -> list[str]:
    """The edits a referee made during the turn just opened, made again, in their order."""
    turn = ctx.pending_turn()
    state, problems = loads(turn.state_before), []
    for note in ctx.work.games.edit_notes(ctx.game.id, turn.number):
        try:
            state = apply_edit(ctx.game.ruleset, state, note.edit_path, note.edit_value)
        except RefereeError as error:
            problems.append(f"turn {turn.number}: {note.edit_path} not applied again ({error})")
    turn.state_before = dumps(state)
    ctx.work.games.add(turn)
    return problems
