"""FORECAST: what a seat's own turn would do if it were played now, from the current
position, with the seat's orders on file (or those in the same mail) and every other seat
sending nothing. Played through the engine interface like a real turn, on dice from a
sample stream: the game's seed hashed with the purpose "forecast", the turn and the seat, so
the sample says nothing about the real dice (docs/dice.md). Nothing is stored; the reply is
rate limited like every reply.

    GAME g1 SEAT ann PASSWORD tulip         GAME g1 SEAT ann PASSWORD tulip
    FORECAST                                FORECAST
                                            LABOR C4 2
                                            TECH 2

The first forecasts the orders already sent for the pending turn; the second takes the
orders after FORECAST as any order mail (stored, with a check reply) and forecasts them.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from engine import Event, ParsedOrders, Resolution, Ruleset, get_ruleset
from engine.ruleset import State
from pbem.deadlines.stored import describe
from pbem.games.games import find_game, find_seat, taking_orders
from pbem.games.paused import paused_line
from pbem.games.reports import concerns, event_line, result_lines
from pbem.intake.answering import answering, send_answer
from pbem.intake.auth import authenticate
from pbem.intake.context import MailContext
from pbem.intake.orders import take_orders
from pbem.mail.envelope import Envelope
from pbem.store import Game, GameStatus, MailStatus, OrderSet, Seat, loads


def sample_seed(seed: int, turn: int, seat: str) -> int:
    """The seed of a forecast's dice: never the game's, and no way back to it."""
    digest = hashlib.sha256(f"{seed}\x1f{turn}\x1f{seat}\x1fforecast".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1  # 63 bits, as forecasts always had


@dataclass(frozen=True)
class Forecast:
    plays: bool  # whether the seat plays in the pending turn at all
    resolution: Resolution | None


def forecast(ruleset: Ruleset, state: State, seat: str, text: str, seed: int) -> Forecast:
    """The pending turn played with `seat`'s `text` and no orders from anyone else."""
    asked = ruleset.seats_to_order(state)
    if seat not in asked:
        return Forecast(False, None)
    orders = {other: ParsedOrders() for other in asked}
    orders[seat] = ruleset.orders_to_play(state, seat, text)
    return Forecast(True, ruleset.resolve(state, orders, seed))


RESOLVED_NOW = (
    "No forecast: your orders complete the turn, which is resolved now,\n"
    "with the real dice. Your report follows.\n"
)


def forecast_command(context: MailContext, envelope: Envelope) -> None:
    if not envelope.lines:
        found = authenticate(context, envelope)
        if found is not None:
            _answer(context, *found)
        return
    # Orders in the same mail: taken first, as any order mail, and the mail answered once,
    # the check of its orders and the forecast each a part of that one answer.
    with answering(context) as answer:
        answer.begin(envelope.lines[0][0], "the orders")
        take_orders(context, envelope)
        answer.end(context.inbound)
        if context.inbound.status == MailStatus.ACCEPTED:
            game = find_game(context.work, envelope.game)
            seat = find_seat(context.work, game.id, envelope.seat) if game else None
            assert game is not None and seat is not None  # take_orders authenticated them
            # Held for a later turn (pbem.intake.advance): nothing to forecast yet.
            if envelope.turn is None or envelope.turn == game.turn:
                context.work.flush()  # the orders just stored, for the forecast to read
                answer.begin(envelope.command_line, "FORECAST")
                if context.clock_work:  # they complete the turn: it is played, not forecast
                    context.reply_text(seat.address, RESOLVED_NOW)
                else:
                    _answer(context, game, seat)
                answer.end(context.inbound)
    send_answer(context, answer, ())  # the check reply lists what reading the mail left out


def _answer(context: MailContext, game: Game, seat: Seat) -> None:
    # Paused, the turn is pending all the same (orders sent are kept for it): forecast it.
    turn = taking_orders(game, context.work.games.turn_of(game.id, game.turn))
    if turn is None:
        if context.inbound.status != MailStatus.ACCEPTED:
            context.quarantine(
                "no-turn", f"game {game.id} has no turn to forecast now", reply_to=seat.address
            )
        return
    row = context.work.games.stored_orders(game.id, turn.number).get(seat.name)
    state = loads(turn.state_before)
    ruleset = get_ruleset(game.ruleset)
    seed = sample_seed(game.seed, turn.number, seat.name)
    result = forecast(ruleset, state, seat.name, row.text if row else "", seed)
    took_orders = context.inbound.status == MailStatus.ACCEPTED  # stored by this mail
    if not took_orders:
        context.finish(MailStatus.ANSWERED, f"FORECAST for {seat.name}, turn {turn.number}")
    resolution = result.resolution
    context.reply(
        seat.address,
        "forecast",
        game=game.id,
        seat=seat.name,
        turn=turn.number,
        plays=result.plays,
        took_orders=took_orders,
        has_orders=row is not None,
        # Orders of an earlier mail: their line numbers are that mail's, not this one's.
        earlier_mail=_received(row) if row is not None and not took_orders else "",
        results=result_lines(
            resolution.results.get(seat.name, []) if resolution else [],
            loads(row.line_map) if row else [],
        ),
        events=[event_line(e) for e in _own_events(resolution, seat.name)],
        before=ruleset.holdings(state, seat.name),
        after=ruleset.holdings(resolution.state, seat.name) if resolution else "",
        deadline=describe(turn.deadline, game.timezone),
        # While paused no deadline stands: say when it will be set instead.
        paused=paused_line(game, turn.number) if game.status == GameStatus.PAUSED else "",
    )


def _received(row: OrderSet) -> str:
    """When the mail of the orders on file came: "2026-03-01 12:00 UTC (mail 2 this turn)"."""
    when = row.received_at.strftime("%Y-%m-%d %H:%M")
    return f"{when} UTC (mail {row.version} this turn)"


def _own_events(resolution: Resolution | None, seat: str) -> list[Event]:
    """What happens to the seat; the other seats' sample turns are nobody's business."""
    if resolution is None:
        return []
    return [e for e in resolution.events_for(seat) if concerns(e, seat)]
