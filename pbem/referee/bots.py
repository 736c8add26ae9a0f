"""Bots in empty seats: a referee gives a seat to the ruleset's bot, and back."""

from __future__ import annotations

from collections.abc import Sequence

from pbem.referee.command import RefereeError
from pbem.referee.context import RefereeContext
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
        return _give_back(ctx, seat.name, turn)
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
    return f"{seat.name} is played by the bot from turn {turn}"


def _give_back(ctx: RefereeContext, name: str, turn: int) -> str:
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
    return f"{seat.name} is played by {who} from turn {turn}"
