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
from pbem.mail.envelope import Envelope
from pbem.store import Game, MailStatus, OrderSet, Seat, Turn

ADVANCE_TURNS = 3  # how many turns beyond the pending one orders may be sent for


def held(envelope: Envelope, pending: Turn) -> bool:
    """Whether the mail's orders are for a later turn that may be held."""
    return envelope.turn is not None and 0 < envelope.turn - pending.number <= ADVANCE_TURNS


def too_far(envelope: Envelope, pending: Turn) -> str:
    """What the refusal of orders for a turn beyond the limit adds."""
    if envelope.turn is None or envelope.turn <= pending.number:
        return ""
    return f" (orders are held at most {ADVANCE_TURNS} turns ahead)"


def hold_reply(
    context: MailContext, game: Game, seat: Seat, stored: OrderSet, pending: Turn
) -> None:
    detail = f"{seat.name} turn {stored.turn} mail {stored.version}, held"
    audit(context.session, context.now, seat.address, "orders-held", game.id, detail)
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
