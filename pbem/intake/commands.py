"""Mail commands besides orders: STATUS, REPORT [turn], ORDERS and SET (the others, JOIN too, have
modules of their own; pbem.intake.command_table lists them all). Commands that show a seat's
own things (REPORT, ORDERS) need the seat's GAME line and answer to the seat's registered
address; HELP and STATUS show nothing private and answer the sender. Under a GAME line every
command needs its seat proved first (pbem.intake.command_mail, which runs each command of a
mail)."""

from __future__ import annotations

from collections.abc import Callable

from engine import get_ruleset
from engine.words import nearest, normal
from pbem.deadlines.stored import describe
from pbem.games.attachments import report_attachments
from pbem.games.games import (
    awaited,
    find_game,
    is_away,
    pending_turn,
)
from pbem.games.reports import report_body
from pbem.games.resolved import ResolvedTurn
from pbem.intake.absence import set_command
from pbem.intake.auth import authenticate, no_game
from pbem.intake.context import MailContext
from pbem.intake.own_address import set_address
from pbem.intake.own_password import set_password
from pbem.intake.press import set_press
from pbem.intake.start_again import send_start, wants_start
from pbem.mail.envelope import Envelope
from pbem.store import Game, GameStatus, MailStatus, Seat, loads


def status_command(context: MailContext, envelope: Envelope) -> None:
    if not envelope.game:
        context.quarantine(
            "envelope", "STATUS needs a game: STATUS <game>", reply_to=context.mail.sender
        )
        return
    game = find_game(context.work, envelope.game)
    if game is None:
        context.quarantine(
            "unknown-game", no_game(context, envelope.game), reply_to=context.mail.sender
        )
        return
    context.finish(MailStatus.ANSWERED, f"STATUS {game.id}")
    context.reply(context.mail.sender, "status", **_status_facts(context, game))


def _status_facts(context: MailContext, game: Game) -> dict[str, object]:
    rows = context.work.games.seats_of(game.id)
    seats = [seat.name for seat in rows]
    facts: dict[str, object] = {
        "away": [],
        "game": game.id,
        "title": get_ruleset(game.ruleset).title,
        "status": game.status,
        "seats": seats,
        "free": game.signup_seats,
        "result": "",
    }
    # A paused game still has its pending turn: pending_turn() answers only for running ones.
    turn = (
        context.work.games.turn_of(game.id, game.turn) if game.status == GameStatus.PAUSED else None
    )
    turn = turn or pending_turn(context.work, game)
    if turn is not None:
        turn_waits = awaited(context.work, game, turn, now=context.now)
        facts.update(
            turn=turn.number,
            deadline=describe(turn.deadline, game.timezone),
            waiting=turn_waits.waiting,
            # Whose orders the turn will play: never a seat in civil disorder whose former
            # player's orders are on file (the referee's PREVIEW says "on file, not played").
            ordered=turn_waits.played,
            away=[
                _away(seat, turn_waits.away)
                for seat in rows
                if is_away(seat, game.timezone, context.now)
            ],
        )
    if game.result:
        facts["result"] = loads(game.result)["reason"]
    return facts


def _away(seat: Seat, unawaited: list[str]) -> str:
    """A seat away, as STATUS lists it: through when, and whether the turn waits for it."""
    assert seat.absent_until is not None
    until = f"{seat.name} until {seat.absent_until.isoformat()}"
    return until + (" (not waited for)" if seat.name in unawaited else "")


def orders_command(context: MailContext, envelope: Envelope) -> None:
    found = authenticate(context, envelope)
    if found is None:
        return
    game, seat = found
    turn = pending_turn(context.work, game)
    number = turn.number if turn else game.turn
    row = context.work.games.stored_orders(game.id, number).get(seat.name)
    context.finish(MailStatus.ANSWERED, f"ORDERS for {seat.name}, turn {number}")
    context.reply(
        seat.address,
        "orders_echo",
        game=game.id,
        seat=seat.name,
        turn=number,
        text=row.text if row else None,
        message_id=row.message_id if row else "",
        version=row.version if row else 0,
        ignored=_ignored_args(envelope, seat.name),
    )


def _ignored_args(envelope: Envelope, seat: str) -> str:
    """ORDERS takes no argument: words after it (another seat's name, say) are not read as
    asking for anything else, and the reply says so rather than answer for them silently."""
    words = [word for word in envelope.command_args if word.lower() != seat.lower()]
    return " ".join(words)


def report_command(context: MailContext, envelope: Envelope) -> None:
    found = authenticate(context, envelope)
    if found is None:
        return
    game, seat = found
    args = envelope.command_args
    if wants_start(context, game, args):  # REPORT START, or REPORT before turn 1 is played
        send_start(context, game, seat)
        return
    turn = (
        context.work.games.turn_of(game.id, int(args[0]))
        if args
        else context.work.games.last_resolved_turn(game.id)
    )
    if turn is None or turn.resolved_at is None:
        which = f"turn {args[0]}" if args else "any turn"
        context.quarantine("no-report", f"there is no report of {which} yet", reply_to=seat.address)
        return
    context.finish(MailStatus.ANSWERED, f"REPORT {turn.number} for {seat.name}")
    view = ResolvedTurn.load(context.work, game, turn)
    attached = report_attachments(context.work, view, seat)
    context.reply_text(
        seat.address, report_body(context.settings, view, seat, resent=True), attached
    )


def settings_command(context: MailContext, envelope: Envelope) -> None:
    """SET <setting> ...: the handler of the setting named, from SETTING_HANDLERS."""
    what = envelope.command_args[0] if envelope.command_args else ""
    handler = SETTING_HANDLERS.get(what)
    if handler is not None:
        handler(context, envelope)
        return
    found = authenticate(context, envelope)
    if found is not None:
        _, seat = found
        context.quarantine("set", unknown_setting(what), reply_to=seat.address)


def unknown_setting(word: str) -> str:
    """The refusal of a SET with no setting or one SET does not know: every setting, from
    the one table, and the nearest if the word is a misspelling of one."""
    names = [name.upper() for name in SETTING_HANDLERS]
    known = f"SET knows {len(names)} settings: {', '.join(names[:-1])} and {names[-1]}"
    if not word:
        return known
    near = nearest(normal(word), {name: name.upper() for name in SETTING_HANDLERS})
    guess = f"; did you mean {near}?" if near else ""
    return f"{known}, not {word.upper()}{guess}"


def _set_press(context: MailContext, envelope: Envelope) -> None:
    """SET PRESS ON|OFF [FROM <seat>]: which press reaches the seat (pbem.intake.press)."""
    found = authenticate(context, envelope)
    if found is None:
        return
    game, seat = found
    done = set_press(context, seat, envelope.command_args)
    if done is None:
        form = "SET PRESS OFF, SET PRESS ON, SET PRESS OFF FROM <seat> or SET PRESS ON FROM <seat>"
        context.quarantine("set", f"write {form}", reply_to=seat.address)
        return
    context.finish(MailStatus.ANSWERED, f"SET PRESS for {seat.name}: {done}")
    context.reply(seat.address, "press_muted", game=game.id, seat=seat.name, done=done)


ATTACHMENTS = {
    "pictures": ("pictures", "the map picture and the campaign chart"),
    "data": ("report_data", "the report's data as JSON"),
}


def _set_attachments(context: MailContext, envelope: Envelope) -> None:
    """SET PICTURES ON|OFF and SET DATA ON|OFF: what comes attached to the seat's reports
    (pbem.games.attachments)."""
    found = authenticate(context, envelope)
    if found is None:
        return
    game, seat = found
    args = envelope.command_args
    what = args[0]
    if len(args) != 2 or args[1] not in ("on", "off"):
        form = f"SET {what.upper()} ON or SET {what.upper()} OFF"
        context.quarantine("set", f"write {form}", reply_to=seat.address)
        return
    column, described = ATTACHMENTS[what]
    wanted = args[1] == "on"
    setattr(seat, column, wanted)
    context.work.games.add(seat)
    done = f"{described} {'will come' if wanted else 'will not come'} with your reports"
    if wanted and not getattr(game, column):
        done += ", once the game's referee turns them on for the game (they are off now)"
    context.finish(MailStatus.ANSWERED, f"SET {what.upper()} {args[1].upper()} for {seat.name}")
    context.reply(seat.address, "attachments_set", game=game.id, seat=seat.name, done=done)


# Every setting of SET, in the order HELP and the refusals list them: the one table (HELP's
# usage, the command table's and the refusal of a setting SET does not know are drawn from it).
SETTING_HANDLERS: dict[str, Callable[[MailContext, Envelope], None]] = {
    "password": set_password,  # pbem.intake.own_password
    "address": set_address,  # pbem.intake.own_address
    "absence": set_command,  # pbem.intake.absence
    "press": _set_press,  # pbem.intake.press
    "pictures": _set_attachments,
    "data": _set_attachments,
}
SETTINGS = "|".join(name.upper() for name in SETTING_HANDLERS)
