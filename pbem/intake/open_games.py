"""LIST: the games open to join, answered to the sender. It shows only public facts (id,
ruleset, seats free, deadline policy), never a seat's name, address or password. LIST MINE
is the sender's own games (pbem.intake.own_games)."""

from __future__ import annotations

from engine import get_ruleset
from pbem.intake.context import MailContext
from pbem.intake.own_games import own_games
from pbem.mail.envelope import Envelope
from pbem.store import MailStatus

MINE = "mine"  # LIST MINE


def list_command(context: MailContext, envelope: Envelope) -> None:
    args = envelope.command_args
    if args == (MINE,):
        own_games(context)
    elif args:  # LIST MNE is refused with the forms, not passed over as a plain LIST
        form = "LIST (the games open to join) or LIST MINE (your own games)"
        context.quarantine("envelope", f"write {form}", reply_to=context.mail.sender)
    else:
        _open_games(context)


def _open_games(context: MailContext) -> None:
    games = context.work.games.open_for_signup()
    rows = [
        {
            "game": game.id,
            "title": get_ruleset(game.ruleset).title,
            "free": game.signup_seats,
            "policy": game.deadline_policy,
        }
        for game in games
    ]
    context.finish(MailStatus.ANSWERED, f"LIST ({len(rows)} open)")
    context.reply(context.mail.sender, "open_games", games=rows)
