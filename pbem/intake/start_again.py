"""The game's start mail again: REPORT START at any time, and REPORT before a turn has been
played (there is no turn report yet, and a seat's new player, or one who lost the first mail,
needs the start's map, holdings and order template). The mail is the start mail as it is made
from the game's first turn, with its map picture; once a turn has been played, marked as a
copy that names the turn being played and its deadline, without the first turn's past
deadline and order template (docs/players.md)."""

from __future__ import annotations

from pbem.games.attachments import StartPictures
from pbem.games.audit import joined_seats
from pbem.games.games import pending_turn
from pbem.games.reports import start_copy, start_letter
from pbem.intake.context import MailContext
from pbem.store import Game, MailStatus, Seat, loads

START = "start"  # REPORT START


def wants_start(context: MailContext, game: Game, args: tuple[str, ...]) -> bool:
    """REPORT START; or REPORT alone, while no turn has a report."""
    if args:
        return args == (START,)
    return context.work.games.last_resolved_turn(game.id) is None


def send_start(context: MailContext, game: Game, seat: Seat) -> None:
    first = context.work.games.first_turn(game.id)
    if first is None:
        why = f"game {game.id} has not begun: there is no start mail yet"
        context.quarantine("no-report", why, reply_to=seat.address)
        return
    pictures = StartPictures(game, loads(first.state_before)).for_seat(seat)
    chose = (seat.name, seat.address.lower()) in joined_seats(context.work, game.id)
    last = context.work.games.last_resolved_turn(game.id)
    # Once a turn is played the first turn's deadline is past: the mail is marked as a copy.
    copy = start_copy(game, pending_turn(context.work, game), last.number) if last else None
    letter = start_letter(
        context.settings, game, seat, first, pictures, chose_password=chose, copy=copy
    )
    context.finish(MailStatus.ANSWERED, f"REPORT START for {seat.name}")
    context.reply_text(seat.address, letter.body, letter.attachments)
