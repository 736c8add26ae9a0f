"""Mail: resend a report, announce a message to every seat. (Replaying a quarantined mail is
the intake's: pbem.intake.replay.)"""

from __future__ import annotations

from collections.abc import Sequence

from pbem.games.reports import report_body
from pbem.games.resolved import ResolvedTurn
from pbem.referee.command import RefereeError
from pbem.referee.context import RefereeContext
from pbem.referee.mails import announcement_body
from pbem.referee.words import need, split_turn
from pbem.store import OutboxKind, Seat, Turn

RESEND_USAGE = "resend SEAT|ALL [TURN n]"


def resend(ctx: RefereeContext, args: Sequence[str], reason: str) -> str:
    need(args, 1, RESEND_USAGE)
    wanted, rest = split_turn(args[1:])
    if rest:
        raise RefereeError(f"write: {RESEND_USAGE}")
    turn = _resolved(ctx, wanted)
    seats = _readers(ctx, args[0])
    view = ResolvedTurn.load(ctx.work, ctx.game, turn)
    for seat in seats:
        body = report_body(ctx.settings, view, seat, resent=True)
        ctx.send(seat.address, f"turn {turn.number} report (again)", body, kind=OutboxKind.REPORT)
    names = ", ".join(seat.name for seat in seats if seat.address.lower() not in ctx.stopped)
    names = names or "nobody"
    ctx.change(f"the report of turn {turn.number} was sent again to {names}", public=False)
    return f"report of turn {turn.number} sent again to {names}{ctx.unsent()}"


def _resolved(ctx: RefereeContext, wanted: int | None) -> Turn:
    if wanted is None:
        turn = ctx.work.games.last_resolved_turn(ctx.game.id)
    else:
        turn = ctx.work.games.turn_of(ctx.game.id, wanted)
    if turn is None or turn.resolved_at is None:
        raise RefereeError(f"there is no report of {f'turn {wanted}' if wanted else 'any turn'}")
    return turn


def _readers(ctx: RefereeContext, name: str) -> list[Seat]:
    seats = ctx.work.games.seats_of(ctx.game.id) if name.upper() == "ALL" else [ctx.seat(name)]
    with_address = [seat for seat in seats if seat.address]
    if not with_address:
        raise RefereeError(f"{name} has no player to mail")
    return with_address


def announce(ctx: RefereeContext, args: Sequence[str], reason: str) -> str:
    need(args, 1, "announce TEXT")
    text = " ".join(args).strip()
    body = announcement_body(ctx.settings, ctx.game, text)
    seats = [seat.address for seat in ctx.work.games.seats_of(ctx.game.id) if seat.address]
    referees = [referee.address for referee in ctx.referees()]
    for address in dict.fromkeys([*seats, *referees]):  # once each, in order
        ctx.send(address, "a message from the referee", body, kind=OutboxKind.ANNOUNCEMENT)
    ctx.change("an announcement was mailed to every seat", None, text, public=False)
    seats = [address for address in seats if address.lower() not in ctx.stopped]
    referees = [address for address in referees if address.lower() not in ctx.stopped]
    told = f"announcement mailed to {len(seats)} seat(s) and {len(referees)} referee(s)"
    return f"{told}{ctx.unsent()}"
