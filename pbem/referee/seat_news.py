"""What a referee's DISORDER and BOT mean for the seat's player, mailed to them at once (their
next report would be too late: meanwhile they would send orders that are refused), and to
the game's other referees, who share the game (docs/referee.md)."""

from __future__ import annotations

from dataclasses import dataclass

from engine import get_ruleset
from pbem.deadlines.stored import describe
from pbem.games.paused import paused_line
from pbem.referee.context import RefereeContext
from pbem.store import GameStatus, Seat
from pbem.templates import render

_MACHINE = ", on the moderator's machine,"  # `pbem referee` without --as
_REFUSED = (
    "Mail you send for the seat is refused meanwhile; if you think this is a mistake, write "
    "to the referee of the game."
)
DISORDER_MEANS = (
    "What it means for you: every turn from now on the seat plays with no orders (its "
    "standing orders only), whatever orders you send or have sent, and no turn waits for it, "
    "until a referee gives it a player again (REPLACE). " + _REFUSED
)
BOT_MEANS = (
    "What it means for you: every turn from now on the seat is played with the bot's orders, "
    "not yours (orders on file for it are not played), and no turn waits for it, until a "
    "referee gives it back to you (BOT {seat} OFF). " + _REFUSED
)
BACK_MEANS = (
    "What it means for you: the seat plays with your orders again, with your password as "
    "before; a turn you send none for is played as the game plays a seat without orders."
)


@dataclass(frozen=True)
class SeatNews:
    """A change to a seat: the subjects of the player's and the referees' mail, what the
    referee did (a phrase after "The referee of game g1"), and what it means for the player."""

    subject: str
    referees_subject: str
    did: str
    means: str
    due: bool = False  # the player's orders are wanted again: say by when
    referees_did: str = ""  # what the referees read, when it differs from `did`


def tell_seat(ctx: RefereeContext, seat: Seat, news: SeatNews, reason: str) -> str:
    """Mail the seat's player (if it has one) the `news`, and why; and the game's other
    referees. A few words for the command's result."""
    title = get_ruleset(ctx.game.ruleset).title
    if seat.address:
        what = f"The referee of game {ctx.game.id} ({title}) {news.did}."
        due = due_line(ctx) if news.due else ""
        ctx.send(seat.address, news.subject, _body(ctx, what, reason, news.means, due))
    told = f"{seat.name}'s player was told" if seat.address else f"{seat.name} has no player"
    by, where = (f"Referee {ctx.actor}", "") if "@" in ctx.actor else ("A referee", _MACHINE)
    did = news.referees_did or news.did.replace("your seat", "seat")
    what = f"{by} of game {ctx.game.id} ({title}){where} {did}."
    text = _body(ctx, what, reason, f"{told} at once.", "")
    for referee in ctx.referees():
        if referee.address.lower() != ctx.actor.lower():
            ctx.send(referee.address, news.referees_subject, text)
    return told


def due_line(ctx: RefereeContext) -> str:
    """When the player's orders are wanted: the pending turn's deadline, or, while the game is
    paused (no deadline stands), when it will be set."""
    turn = ctx.pending_turn()
    if ctx.game.status == GameStatus.PAUSED:
        return paused_line(ctx.game, turn.number)
    return f"Orders for turn {turn.number} are due by {describe(turn.deadline, ctx.game.timezone)}."


def _body(ctx: RefereeContext, what: str, reason: str, means: str, due: str) -> str:
    facts = {"what": what, "reason": reason, "means": means, "due": due}
    return render("seat_changed", moderator=ctx.settings.mail.name, **facts)
