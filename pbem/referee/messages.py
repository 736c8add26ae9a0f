"""Mail: resend a report, announce a message to every seat, replay a quarantined mail."""

from __future__ import annotations

from collections.abc import Sequence

from pbem.pipeline.games import last_resolved_turn, seats_of, turn_of
from pbem.pipeline.quarantine import QuarantineError, entry, replay_in
from pbem.pipeline.reports import ResolvedTurn, report_body
from pbem.referee.context import RefereeContext
from pbem.referee.mails import announcement_body
from pbem.referee.registry import RefereeError, command
from pbem.referee.words import need, number, split_turn
from pbem.store import InboundMessage, Quarantine, Seat, Turn

RESEND_USAGE = "resend SEAT|ALL [TURN n]"


@command("resend", "SEAT|ALL [TURN n]", "mail a turn's report again (default: the last turn)")
def resend(ctx: RefereeContext, args: Sequence[str], reason: str) -> str:
    need(args, 1, RESEND_USAGE)
    wanted, rest = split_turn(args[1:])
    if rest:
        raise RefereeError(f"write: {RESEND_USAGE}")
    turn = _resolved(ctx, wanted)
    seats = _readers(ctx, args[0])
    view = ResolvedTurn.load(ctx.session, ctx.game, turn)
    for seat in seats:
        body = report_body(ctx.settings, view, seat)
        ctx.send(seat.address, f"turn {turn.number} report (again)", body, kind="report")
    names = ", ".join(seat.name for seat in seats)
    ctx.change(f"the report of turn {turn.number} was sent again to {names}", public=False)
    return f"report of turn {turn.number} sent again to {names}"


def _resolved(ctx: RefereeContext, wanted: int | None) -> Turn:
    if wanted is None:
        turn = last_resolved_turn(ctx.session, ctx.game.id)
    else:
        turn = turn_of(ctx.session, ctx.game.id, wanted)
    if turn is None or turn.resolved_at is None:
        raise RefereeError(f"there is no report of {f'turn {wanted}' if wanted else 'any turn'}")
    return turn


def _readers(ctx: RefereeContext, name: str) -> list[Seat]:
    seats = seats_of(ctx.session, ctx.game.id) if name.upper() == "ALL" else [ctx.seat(name)]
    with_address = [seat for seat in seats if seat.address]
    if not with_address:
        raise RefereeError(f"{name} has no player to mail")
    return with_address


@command(
    "announce", "TEXT", "mail a message to every seat (and a copy to the referees)", block=True
)
def announce(ctx: RefereeContext, args: Sequence[str], reason: str) -> str:
    need(args, 1, "announce TEXT")
    text = " ".join(args).strip()
    body = announcement_body(ctx.settings, ctx.game, text)
    seats = [seat.address for seat in seats_of(ctx.session, ctx.game.id) if seat.address]
    referees = [referee.address for referee in ctx.referees()]
    for address in dict.fromkeys([*seats, *referees]):  # once each, in order
        ctx.send(address, "a message from the referee", body, kind="announcement")
    ctx.change("an announcement was mailed to every seat", None, text, public=False)
    return f"announcement mailed to {len(seats)} seat(s) and {len(referees)} referee(s)"


@command("replay", "QUARANTINE-ID", "handle a quarantined mail of this game again")
def replay(ctx: RefereeContext, args: Sequence[str], reason: str) -> str:
    need(args, 1, "replay QUARANTINE-ID")
    quarantine_id = number(args[0], "a quarantine id")
    _check_game(ctx, quarantine_id)
    try:
        with ctx.session.begin_nested():  # a failing replay leaves the entry as it was
            receipt = replay_in(ctx.session, ctx.settings, quarantine_id, now=ctx.now)
    except QuarantineError as error:
        raise RefereeError(str(error)) from None
    except Exception as error:  # the replayed mail's failure is its result, not ours
        raise RefereeError(f"the replay failed ({type(error).__name__}: {error})") from None
    ctx.change(f"quarantined mail {quarantine_id} was replayed", None, receipt.status, public=False)
    return f"mail {receipt.message_id} replayed: {receipt.status} ({receipt.outcome})"


def _check_game(ctx: RefereeContext, quarantine_id: int) -> None:
    """A referee replays the mail of their own game only."""
    try:
        found, _ = entry(ctx.session, quarantine_id)
    except QuarantineError as error:
        raise RefereeError(str(error)) from None
    row = ctx.session.get(Quarantine, found.id)
    inbound = ctx.session.get(InboundMessage, row.inbound_id) if row else None
    if inbound is None or inbound.game_id != ctx.game.id:
        raise RefereeError(f"quarantine entry {quarantine_id} is not mail for game {ctx.game.id}")
