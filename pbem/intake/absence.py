"""SET ABSENCE: a seat announces that it is away from now through a date (in the game's time
zone), or that it is back (SET ABSENCE NONE). An absence starts when the mail is read: there
is no start date to give (send it when you leave). It is a mail command on the line after
the seat's GAME line, answered to the seat's registered address:

    GAME g1 SEAT alice PASSWORD secret
    SET ABSENCE 2026-12-24

While away a seat gets no reminders and a turn without its orders is not counted as a miss;
with the game option wait_for_absent, a turn that lacks its orders waits until the absence
is over (see pbem.clock.due). The answer says what it means for the pending turn: the clock's
own facts, so that a seat that was the last one the turn waited for reads that it is resolved
now."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from pbem.clock.due import facts_of
from pbem.config import Settings
from pbem.deadlines.stored import describe
from pbem.errors import PbemError
from pbem.games.audit import audit
from pbem.intake.auth import authenticate
from pbem.intake.context import MailContext
from pbem.mail.envelope import Envelope
from pbem.store import Game, MailStatus, Seat

SET_FORM = "SET ABSENCE <last day away, YYYY-MM-DD> or SET ABSENCE NONE"


class AbsenceError(PbemError, ValueError):
    pass


def set_command(context: MailContext, envelope: Envelope) -> None:
    """SET ABSENCE (SET PASSWORD is pbem.intake.own_password)."""
    found = authenticate(context, envelope)
    if found is None:
        return
    game, seat = found
    try:
        until = parse_absence(envelope.command_args, game, context.now, context.settings)
    except AbsenceError as error:
        context.quarantine("set", str(error), reply_to=seat.address, details=[f"Use: {SET_FORM}"])
        return
    seat.absent_until = until
    context.work.games.add(seat)
    context.work.flush()  # the turn's facts below read the seat as it is now
    shown = until.isoformat() if until else "none"
    audit(context.work, context.now, seat.address, "absence-set", game.id, f"{seat.name} {shown}")
    context.finish(MailStatus.ANSWERED, f"SET ABSENCE {shown} for {seat.name}")
    context.reply(
        seat.address,
        "absence",
        game=game.id,
        seat=seat.name,
        until=until.isoformat() if until else "",
        zone=game.timezone,
        waits=game.wait_for_absent,
        **_for_the_turn(context, game, seat),
    )


def _for_the_turn(context: MailContext, game: Game, seat: Seat) -> dict[str, object]:
    """What the absence (or the return) means for the pending turn, as the clock will act on
    it once this mail is committed (pbem.clock.due): whether the seat's orders are in, whom
    the turn still waits for, and whether it is resolved now, the seat being the last one it
    waited for."""
    facts = facts_of(context.work, game, context.now)
    if facts is None or seat.name not in {s.name for s in facts.asked}:
        return {"turn": None}
    waiting = [s.name for s in facts.required()]
    return {
        "turn": facts.turn.number,
        "deadline": describe(facts.turn.deadline, game.timezone),
        "orders_in": seat.name in facts.ordered,
        "awaited": seat.name in waiting,
        "waiting": waiting,
        "resolves_now": facts.all_in(),
        "early": game.early_processing,
    }


def parse_absence(
    args: tuple[str, ...], game: Game, now: datetime, settings: Settings
) -> date | None:
    """The last day away from the command's words, checked: today or later in the game's
    zone, and at most [clock] max_absence_days ahead. None for NONE."""
    if len(args) != 2:
        raise AbsenceError(
            "SET ABSENCE takes one word: the last day away, or NONE. An absence starts at "
            "once, when the mail is read: send it when you leave"
        )
    if args[1] == "none":
        return None
    try:
        until = date.fromisoformat(args[1])
    except ValueError:
        raise AbsenceError(f"{args[1]!r} is not a date like 2026-12-24") from None
    today = now.astimezone(ZoneInfo(game.timezone)).date()
    if until < today:
        raise AbsenceError(f"{until} has passed")
    longest = settings.clock.max_absence_days
    if until > today + timedelta(days=longest):
        raise AbsenceError(f"an absence reaches at most {longest} days ahead; ask the referee")
    return until
