"""Orders on behalf of a seat, and deleting a seat's orders."""

from __future__ import annotations

from collections.abc import Sequence

from engine import get_ruleset
from engine.words import plural
from pbem.games.counted import PASS_WITH_ORDERS, is_pass
from pbem.referee import welcomes
from pbem.referee.command import RefereeError
from pbem.referee.context import RefereeContext
from pbem.referee.orders_told import tell_orders
from pbem.referee.words import need, order_lines, split_turn
from pbem.store import OrderSet, dumps, loads, utc

ORDERS_USAGE = "orders SEAT [TURN n] ORDER; ORDER; ..."


def orders(ctx: RefereeContext, args: Sequence[str], reason: str) -> str:
    need(args, 2, ORDERS_USAGE)
    seat = ctx.seat(args[0])
    number, rest = split_turn(args[1:])
    number = _turn_number(ctx, number)
    given = order_lines(rest)
    if not given:
        raise RefereeError(f"no orders given; write: {ORDERS_USAGE}")
    # NO ORDERS is read as in a player's mail (pbem.games.counted): alone, the seat is in with
    # an empty text, played as no orders; beside orders, passed over.
    lines = [line for line in given if not is_pass(line)]
    checked = _check(ctx, number, seat.name, "\n".join(lines)) if lines else ""
    row = ctx.work.games.stored_orders(ctx.game.id, number).get(seat.name)
    before = row.text if row else None
    row = _store(ctx, row, number, seat.name, lines)
    what = "orders" if lines else "NO ORDERS"
    ctx.change(f"the referee entered {what} for {seat.name} for turn {number}", before, row.text)
    welcomes.renew(ctx.work, ctx.settings, ctx.game.id, now=ctx.now)  # they name them
    tell_orders(ctx, seat, number, lines, before is not None, reason)
    if not lines:
        return (
            f"NO ORDERS stored for {seat.name}, turn {number}: the seat is in and plays the "
            f"turn with no orders (its standing orders only){checked}"
        )
    passed = f"; {PASS_WITH_ORDERS}" if len(lines) < len(given) else ""
    stored = f"orders stored for {seat.name}, turn {number} ({plural(len(lines), 'line')})"
    return f"{stored}{passed}{checked}"


def _turn_number(ctx: RefereeContext, number: int | None) -> int:
    pending = ctx.pending_turn().number
    if number is None:
        return pending
    if number < pending:
        raise RefereeError(f"turn {number} is resolved; roll back to it first (rollback {number})")
    return number


def _check(ctx: RefereeContext, number: int, seat: str, text: str) -> str:
    """Refuse orders the engine rejects, for the pending turn; a later turn (after a
    rollback) has no state yet to check against."""
    turn = ctx.work.games.turn_of(ctx.game.id, number)
    if turn is None:
        return "; not checked: turn not reached yet"
    parsed = get_ruleset(ctx.game.ruleset).orders_to_play(loads(turn.state_before), seat, text)
    if parsed.problems:
        problems = "; ".join(_one_line(problem.describe()) for problem in parsed.problems)
        raise RefereeError(f"the orders have problems, nothing stored: {problems}")
    return ""


def _one_line(described: str) -> str:
    """A problem as the check reply gives it (its line, then indented lines: the rule, an
    example) made one result line: the further lines in brackets, not run into the first."""
    first, *more = [part.strip() for part in described.splitlines()]
    return f"{first} ({'; '.join(more)})" if more else first


def _store(
    ctx: RefereeContext, row: OrderSet | None, number: int, seat: str, lines: list[str]
) -> OrderSet:
    if row is None:
        row = OrderSet(
            game_id=ctx.game.id,
            turn=number,
            seat=seat,
            text="",
            line_map="",
            message_id="",
            version=0,
            received_at=utc(ctx.now),
        )
    row.text = "\n".join(lines)
    row.line_map = dumps(list(range(1, len(lines) + 1)))
    row.message_id = f"referee:{ctx.origin}"[:998]
    row.version += 1
    row.received_at = utc(ctx.now)
    ctx.work.games.add(row)
    ctx.work.flush()
    return row


def delete_orders(ctx: RefereeContext, args: Sequence[str], reason: str) -> str:
    need(args, 1, "delete-orders SEAT [TURN n]")
    seat = ctx.seat(args[0])
    number = _turn_number(ctx, split_turn(args[1:])[0])
    row = ctx.work.games.stored_orders(ctx.game.id, number).get(seat.name)
    if row is None:
        raise RefereeError(f"{seat.name} has no orders stored for turn {number}")
    before = row.text
    ctx.work.games.remove(row)
    ctx.work.flush()
    ctx.change(f"the referee deleted the orders of {seat.name} for turn {number}", before, None)
    welcomes.renew(ctx.work, ctx.settings, ctx.game.id, now=ctx.now)
    return f"orders of {seat.name} for turn {number} deleted"
