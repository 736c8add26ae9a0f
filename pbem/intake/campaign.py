"""HISTORY and CHART: the campaign so far, for a seat (under its GAME line), answered to the
seat's registered address as every answer about a seat is. Both read the standings of every
turn played (pbem.games.attachments.history): HISTORY as text tables, a page of turns a
mail; CHART as the campaign chart the reports carry every few turns.

An ended game is answered too: its history is what a finished campaign is looked back at
for. CHART is sent even to a seat that said SET PICTURES OFF (that is about the reports; this
picture was asked for), but not in a game whose referee turned pictures off."""

from __future__ import annotations

from engine import get_ruleset
from pbem.games.attachments import PNG, history
from pbem.games.history_table import PAGE, page, tables
from pbem.intake.auth import authenticate
from pbem.intake.context import MailContext
from pbem.mail.compose import Attachment
from pbem.mail.envelope import Envelope
from pbem.pictures import campaign_chart
from pbem.pictures.chart import History
from pbem.store import Game, MailStatus, Seat
from pbem.templates import render

HISTORY_FORMS = f"HISTORY (the last {PAGE} turns) or HISTORY <turn> ({PAGE} turns from that one)"


def history_command(context: MailContext, envelope: Envelope) -> None:
    found = authenticate(context, envelope, allow_ended=True)
    if found is None:
        return
    game, seat = found
    args = envelope.command_args
    if len(args) > 1 or (args and not args[0].isdigit()):
        context.quarantine("envelope", f"write {HISTORY_FORMS}", reply_to=seat.address)
        return
    played = _campaign(context, game, seat)
    if played is None:
        return
    first = int(args[0]) if args else None
    last = played.turns[-1]
    if first is not None and first > last:
        why = f"game {game.id} has played turns 1 to {last}: ask for one of them"
        context.quarantine("no-report", why, reply_to=seat.address)
        return
    shown = page(played, first)
    numbers = (played.turns[shown.rows.start] or 1, played.turns[shown.rows.stop - 1])
    context.finish(
        MailStatus.ANSWERED, f"HISTORY turns {numbers[0]} to {numbers[1]} for {seat.name}"
    )
    context.reply(
        seat.address,
        "history",
        game=game.id,
        title=get_ruleset(game.ruleset).title,
        start=shown.rows.start == 0,
        first=numbers[0],
        last=numbers[1],
        played=last,
        table=tables(played, shown.rows),
        earlier=shown.earlier,
        later=shown.later,
    )


def chart_command(context: MailContext, envelope: Envelope) -> None:
    found = authenticate(context, envelope, allow_ended=True)
    if found is None:
        return
    game, seat = found
    if envelope.command_args:
        context.quarantine("envelope", "write CHART, with nothing after it", reply_to=seat.address)
        return
    if not game.pictures:
        why = (
            f"game {game.id} sends no pictures (its referee turned them off); HISTORY mails "
            "the same standings as text"
        )
        context.quarantine("no-report", why, reply_to=seat.address)
        return
    played = _campaign(context, game, seat)
    if played is None:
        return
    picture = campaign_chart(played)  # as pbem.games.attachments.chart_png draws it
    name = f"chart-{game.id}-{played.turns[-1]}.png"
    context.finish(MailStatus.ANSWERED, f"CHART {name} for {seat.name}")
    body = render(
        "chart_sent",
        moderator=context.settings.mail.name,
        game=game.id,
        title=get_ruleset(game.ruleset).title,
        last=played.turns[-1],
        file=name,
        pictures_off=not seat.pictures,
    )
    context.reply_text(seat.address, body, (Attachment(name, PNG, picture),))


def _campaign(context: MailContext, game: Game, seat: Seat) -> History | None:
    """Every seat's standings after each turn played; None (the mail refused, saying why)
    before the first turn is played, or in a game whose ruleset keeps no standings."""
    ruleset = get_ruleset(game.ruleset)
    played = history(context.work, game, ruleset)
    if played is not None:
        return played
    if context.work.games.last_resolved_turn(game.id) is None:
        why = f"no turn of game {game.id} has been played yet: its history begins with turn 1"
    else:
        why = f"{ruleset.title}, the game of {game.id}, keeps no standings to show"
    context.quarantine("no-report", why, reply_to=seat.address)
    return None
