"""Advance orders: orders for a turn after the pending one (`TURN n` in the mail, n up to
ADVANCE_TURNS beyond the pending turn) are kept, not refused as stale, as the seat's orders
for turn n (an order_set row like any other: a later mail for turn n replaces them whole,
and a rollback archives and restores them with the rest). The reply says they are held;
when turn n opens they are checked against its position and the seat gets the check reply
it would have had sending them then (pbem.games.held). A seat away for two weeks can
send its next three turns at once.
"""

from __future__ import annotations

from pbem.games.audit import audit
from pbem.intake.context import MailContext
from pbem.intake.order_check import ADVANCE_TURNS
from pbem.store import Game, MailStatus, OrderSet, Seat, Turn


def hold_reply(
    context: MailContext, game: Game, seat: Seat, stored: OrderSet, pending: Turn
) -> None:
    detail = f"{seat.name} turn {stored.turn} mail {stored.version}, held"
    audit(context.work, context.now, seat.address, "orders-held", game.id, detail)
    context.finish(MailStatus.ACCEPTED, f"orders held for {seat.name}, turn {stored.turn}")
    context.reply(
        seat.address,
        "held_reply",
        game=game.id,
        seat=seat.name,
        turn=stored.turn,
        pending=pending.number,
        lines=len(stored.text.splitlines()),
        replaced=stored.version > 1,
        limit=ADVANCE_TURNS,
    )
