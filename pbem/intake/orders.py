"""An order mail from an authenticated seat: checked against the pending turn through the
engine, stored whole (replacing the seat's earlier orders for the turn) if it counts as the
seat's orders (an accepted order or NO ORDERS: pbem.games.counted), and answered with a check
reply: accepted, rejected with reasons, ignored, replaced, counted or not, deadline, who is
left."""

from __future__ import annotations

from pbem.games.audit import audit
from pbem.games.stops import is_stopped
from pbem.intake.advance import hold_reply
from pbem.intake.auth import authenticate
from pbem.intake.context import MailContext
from pbem.intake.order_check import Refused, Sent, check_orders, held, open_turn
from pbem.mail.envelope import Envelope
from pbem.store import Game, OrderSet, Seat, Turn, dumps, utc


def take_orders(context: MailContext, envelope: Envelope) -> None:
    found = authenticate(context, envelope, turn=True)
    if found is None:
        return
    game, seat = found
    if is_stopped(context.work, seat.address):
        # No check reply could be mailed (the address asked for none): orders stored unseen,
        # a line misread or refused, are worse than none. Set aside, to replay after UNSTOP,
        # as a stopped referee's mail is (pbem.intake.referee_mail).
        why = f"seat {seat.name}'s address {seat.address} asked for no more mail (STOP)"
        context.set_aside("stopped", why)
        return
    # authenticate read the game under its row's lock, and its turn with it: no turn of it
    # is resolved meanwhile.
    most = context.settings.limits.max_order_lines
    turn = open_turn(game, context.turn, envelope, most)
    if isinstance(turn, Refused):
        context.quarantine(turn.reason, turn.error, reply_to=seat.address)
        return
    if envelope.turn is not None and held(envelope, turn):  # see advance.py
        # Kept as written, NO ORDERS included: they are judged when their turn opens.
        lines = envelope.lines
        text = "\n".join(line for _, line in lines)
        held_row = store_orders(context, game, seat, envelope.turn, text, [n for n, _ in lines])
        hold_reply(context, game, seat, held_row, turn)
        return
    _take_for_turn(context, game, seat, turn, envelope)


def _take_for_turn(
    context: MailContext, game: Game, seat: Seat, turn: Turn, envelope: Envelope
) -> None:
    """Orders for the pending turn: decided (pbem.intake.order_check), then stored if they
    count, and answered."""
    have = context.orders_of_turn(game.id)
    limits = context.settings.limits
    mail = context.mail
    sent = Sent(
        envelope.lines, envelope, mail.notes, context.now, limits.max_problems_shown,
        mail.above_quote,
    )  # fmt: skip
    versions = {name: row.version for name, row in have.items()}
    turned = check_orders(game, seat, turn, context.seats_of(game.id), versions, sent)
    if turned.text is not None:
        line_map = list(turned.line_map)
        stored = store_orders(context, game, seat, turn.number, turned.text, line_map, have)
        detail = f"{seat.name} turn {turn.number} mail {stored.version}"
        audit(context.work, context.now, seat.address, "orders-stored", game.id, detail)
    context.finish(turned.status, turned.outcome)
    context.clock_work = turned.resolves_now
    context.reply(seat.address, "check_reply", **turned.reply)


def store_orders(
    context: MailContext,
    game: Game,
    seat: Seat,
    number: int,
    text: str,
    line_map: list[int],
    have: dict[str, OrderSet] | None = None,
) -> OrderSet:
    """The whole order text replaces whatever the seat sent before for turn `number`.
    `have`: the turn's stored orders, if the caller read them; the new row goes in it."""
    have = have if have is not None else context.work.games.stored_orders(game.id, number)
    row = have.get(seat.name)
    if row is None:
        row = OrderSet(
            game_id=game.id,
            turn=number,
            seat=seat.name,
            text="",
            line_map="",
            message_id="",
            version=0,
            received_at=utc(context.now),
        )
    row.text = text
    row.line_map = dumps(line_map)
    row.message_id = context.mail.message_id
    row.version += 1
    row.received_at = utc(context.now)
    context.work.games.add(row)  # written with the reply (the work flushes when told)
    have[seat.name] = row
    return row
