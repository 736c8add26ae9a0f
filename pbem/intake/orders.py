"""An order mail from an authenticated seat: checked against the pending turn through the
engine, stored whole (replacing the seat's earlier orders for the turn) if it counts as the
seat's orders (an accepted order or NO ORDERS: pbem.games.counted), and answered with a check
reply: accepted, rejected with reasons, ignored, replaced, counted or not, deadline, who is
left."""

from __future__ import annotations

from engine import get_ruleset
from pbem.clock.due import Facts, facts_from, seats_asked
from pbem.deadlines.stored import describe
from pbem.games.audit import audit
from pbem.games.checks import check_lines, shown, verdict_of
from pbem.games.counted import (
    PASS_LINE,
    Judged,
    counting,
    judge,
    unchanged_template,
    until_when,
)
from pbem.games.games import away_unawaited, still_waiting, stored_orders, taking_orders
from pbem.intake.advance import held, hold_reply, too_far
from pbem.intake.auth import authenticate
from pbem.intake.context import MailContext
from pbem.mail.envelope import Envelope
from pbem.store import Game, GameStatus, MailStatus, OrderSet, Seat, Turn, dumps, loads, utc


def take_orders(context: MailContext, envelope: Envelope) -> None:
    found = authenticate(context, envelope, turn=True)
    if found is None:
        return
    game, seat = found
    turn = _open_turn(context, game, seat, envelope)
    if turn is None:
        return
    lines = list(envelope.lines)
    limit = context.settings.limits.max_order_lines
    if len(lines) > limit:
        context.quarantine(
            "too-long",
            f"the mail has {len(lines):,} order lines; at most {limit:,} are read. "
            "Nothing was stored: your earlier orders for this turn, if any, stand.",
            reply_to=seat.address,
        )
        return
    if envelope.turn is not None and envelope.turn > turn.number:  # see advance.py
        # Kept as written, NO ORDERS included: they are judged when their turn opens.
        text = "\n".join(line for _, line in lines)
        held_row = store_orders(context, game, seat, envelope.turn, text, [n for n, _ in lines])
        hold_reply(context, game, seat, held_row, turn)
        return
    _take_for_turn(context, game, seat, turn, envelope)


def _take_for_turn(
    context: MailContext, game: Game, seat: Seat, turn: Turn, envelope: Envelope
) -> None:
    """Orders for the pending turn: checked, stored if they count, and answered."""
    lines = list(envelope.lines)
    ruleset, state = get_ruleset(game.ruleset), loads(turn.state_before)
    judged = judge(ruleset, state, seat.name, lines)
    have = context.orders_of_turn(game.id)
    earlier = have.get(seat.name)  # read before a counted mail replaces it
    stored = _store_counted(context, game, seat, turn, judged, have)
    check = check_lines(judged.lines, judged.parsed, envelope, judged.refused())
    check["ignored"] = sorted(check["ignored"] + judged.ignored())
    counts = f"{len(check['accepted'])} accepted, {len(check['rejected'])} rejected"
    # A mail that does not count is answered, not accepted: nothing of it was stored.
    status, done = (
        (MailStatus.ACCEPTED, "stored") if stored else (MailStatus.ANSWERED, "not counted")
    )
    context.finish(status, f"orders {done} for {seat.name}, turn {turn.number}: {counts}")
    # The turn's orders and its seats: for the reply and the clock's test.
    seats = context.seats_of(game.id)
    expected = list(seats_asked(game.ruleset, turn.state_before))  # remembered by digest
    facts = facts_from(game, turn, seats, frozenset(have), context.now)
    resolves_now = context.clock_work = _resolves_now(facts)
    context.reply(
        seat.address,
        "check_reply",
        game=game.id,
        seat=seat.name,
        turn=turn.number,
        verdict=PASS_LINE if judged.passes else verdict_of(check),
        **counting(judged, stored, earlier),
        unchanged_template=judged.counted and unchanged_template(ruleset, state, seat.name, lines),
        notes=list(context.mail.notes),
        deadline=describe(turn.deadline, game.timezone),
        paused=game.status == GameStatus.PAUSED,
        waiting=still_waiting(expected, have, seats, game, context.now),
        away=away_unawaited(expected, have, seats, game, context.now),
        resolves_now=resolves_now,
        until=until_when(game),
        **shown(check, context.settings.limits.max_problems_shown),
    )


def _store_counted(
    context: MailContext,
    game: Game,
    seat: Seat,
    turn: Turn,
    judged: Judged,
    have: dict[str, OrderSet],
) -> OrderSet | None:
    """The mail's orders stored as the seat's for the turn, if they count (pbem.games.counted);
    else nothing is stored, and the seat's earlier orders, if any, stand."""
    if not judged.counted:
        return None
    kept = judged.stored_lines()
    text = "\n".join(line for _, line in kept)
    stored = store_orders(context, game, seat, turn.number, text, [n for n, _ in kept], have)
    detail = f"{seat.name} turn {turn.number} mail {stored.version}"
    audit(context.session, context.now, seat.address, "orders-stored", game.id, detail)
    return stored


def _resolves_now(facts: Facts[Game, Turn, Seat]) -> bool:
    """Will the turn be resolved at once, for every order it waits for being in? Then the
    reply must not invite changes. The clock's own test, so that it says what will happen
    (a seat away is not waited for, unless the game waits for absent seats). A paused
    game's turn waits for the game to resume."""
    return facts.game.status == GameStatus.RUNNING and facts.all_in()


def _open_turn(context: MailContext, game: Game, seat: Seat, envelope: Envelope) -> Turn | None:
    """The pending turn, if the mail's orders are for it; else the mail is quarantined."""
    # authenticate read the game under its row's lock, and its turn with it: no turn of it
    # is resolved meanwhile.
    turn = taking_orders(game, context.turn)
    if turn is None:
        why = "has not begun" if game.status == GameStatus.OPEN else f"is {game.status}"
        context.quarantine(
            "no-turn", f"game {game.id} {why}: it takes no orders", reply_to=seat.address
        )
        return None
    if envelope.turn is not None and envelope.turn != turn.number and not held(envelope, turn):
        context.quarantine(
            "stale",
            f"these orders are for turn {envelope.turn}, but the "
            f"pending turn is {turn.number}{too_far(envelope, turn)}; nothing was stored",
            reply_to=seat.address,
        )
        return None
    return turn


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
    have = have if have is not None else stored_orders(context.session, game.id, number)
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
    context.session.add(row)  # written with the reply (the session flushes when told)
    have[seat.name] = row
    return row
