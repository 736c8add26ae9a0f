"""A referee's ORDERS for a seat, mailed to the seat's player at once: the turn plays them
for the player's seat, so the player must know, and know that a mail of their own replaces
them (docs/referee.md)."""

from __future__ import annotations

from collections.abc import Sequence

from engine import get_ruleset
from pbem.games.counted import until_when
from pbem.referee import welcomes
from pbem.referee.context import RefereeContext
from pbem.referee.seat_news import due_line
from pbem.store import Seat, SeatStatus
from pbem.templates import render


def tell_orders(
    ctx: RefereeContext, seat: Seat, turn: int, lines: Sequence[str], replaced: bool, reason: str
) -> None:
    """Mail the seat's player the orders a referee entered for `turn` (none: NO ORDERS); not
    a player given the seat in this mail, whose welcome names them (pbem.referee.welcomes)."""
    if not seat.address or seat.name in welcomes.welcomed(ctx.work, ctx.game.id):
        return
    title = get_ruleset(ctx.game.ruleset).title
    what = "these orders" if lines else "NO ORDERS"
    did = (
        f"The referee of game {ctx.game.id} ({title}) entered {what} for your seat "
        f"{seat.name}, turn {turn}{':' if lines else '.'}"
    )
    pending = ctx.pending_turn().number == turn
    body = render(
        "orders_entered",
        moderator=ctx.settings.mail.name,
        what=did,
        lines=list(lines),
        reason=reason,
        means=_means(ctx, seat, turn, bool(lines), replaced),
        due=due_line(ctx) if pending else "",
    )
    ctx.send(seat.address, f"turn {turn}: orders entered for {seat.name}", body)


def _means(ctx: RefereeContext, seat: Seat, turn: int, orders: bool, replaced: bool) -> str:
    """What the orders mean for the player: what the turn plays, and how to change it."""
    first = (
        f"They replace the orders on file for turn {turn}, and count as your orders"
        if replaced
        else f"They count as your orders for turn {turn}"
    )
    if not orders:
        first = (
            f"Your seat is in for turn {turn} and plays the turn with no orders (its "
            "standing orders only)" + (", in place of the orders on file" if replaced else "")
        )
    if seat.status != SeatStatus.ACTIVE:
        return (
            f"{first}; but your seat is {seat.status} now, and orders on file for it are not "
            "played while it is."
        )
    change = (
        "a mail of orders from you replaces them whole"
        if orders
        else ("a mail of orders from you replaces this")
    )
    return f"{first}: {change}. {until_when(ctx.game)}"
