"""Bots in empty seats: a referee gives a seat to the ruleset's bot, and back."""

from __future__ import annotations

from collections.abc import Sequence

from pbem.referee.command import RefereeError
from pbem.referee.context import RefereeContext
from pbem.referee.seat_news import BACK_MEANS, BOT_MEANS, SeatNews, tell_seat
from pbem.referee.words import need
from pbem.store import SeatStatus

BOT_USAGE = "bot SEAT [OFF]"


def bot(ctx: RefereeContext, args: Sequence[str], reason: str) -> str:
    need(args, 1, BOT_USAGE)
    if len(args) > 2 or (len(args) == 2 and args[1].lower() != "off"):
        raise RefereeError(f"write: {BOT_USAGE}")
    seat = ctx.seat(args[0])
    turn = ctx.pending_turn().number
    if len(args) == 2:
        return _give_back(ctx, seat.name, turn, reason)
    if seat.status == SeatStatus.BOT:
        raise RefereeError(f"{seat.name} is played by the bot already")
    before, seat.status = seat.status, SeatStatus.BOT
    ctx.work.games.add(seat)
    ctx.change(
        f"the ruleset's bot plays {seat.name} from turn {turn} on, until a referee "
        "gives the seat back; its orders are marked as the bot's in the reports",
        before,
        SeatStatus.BOT,
    )
    subject = f"{seat.name} is played by the bot"
    did = f"has given your seat {seat.name} to the game's bot from turn {turn}"
    means = BOT_MEANS.format(seat=seat.name)
    told = tell_seat(ctx, seat, SeatNews(subject, subject, did, means), reason)
    return f"{seat.name} is played by the bot from turn {turn}; {told}{ctx.unsent()}"


def _give_back(ctx: RefereeContext, name: str, turn: int, reason: str) -> str:
    seat = ctx.seat(name)
    if seat.status != SeatStatus.BOT:
        raise RefereeError(f"{seat.name} is not played by the bot")
    # A seat without a player (ejected, then given to the bot) is without one again.
    seat.status = SeatStatus.ACTIVE if seat.address else SeatStatus.EJECTED
    seat.missed = 0
    ctx.work.games.add(seat)
    who = "its player" if seat.address else "nobody (no player: civil disorder)"
    ctx.change(
        f"{seat.name} is played by {who} again from turn {turn}", SeatStatus.BOT, seat.status
    )
    news = SeatNews(
        f"{seat.name} is yours again",
        f"{seat.name} is played by {'its player' if seat.address else 'nobody'} again",
        f"has given seat {seat.name} back to you from turn {turn}",
        BACK_MEANS,
        due=True,
        referees_did=f"has given seat {seat.name} back to its player from turn {turn}",
    )
    told = tell_seat(ctx, seat, news, reason)
    return f"{seat.name} is played by {who} from turn {turn}; {told}{ctx.unsent()}"
