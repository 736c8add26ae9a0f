"""RESIGN: a player gives up their seat. From the seat's address, with its password:

    GAME g1 SEAT alice PASSWORD secret
    RESIGN

The game's `resign` option (`pbem game new --resign`) says what becomes of the seat:
"replace", the default, plays it in civil disorder (standing orders only) while the referees,
who are told at once, find a new player (`replace SEAT ADDRESS`); "disorder" plays it on in
civil disorder for good, the referees told; "bot" gives it to the ruleset's bot. The player
gets one confirmation and no more mail: the seat keeps no address or password of theirs.

RESIGN is carried out only in a mail of its own (its GAME line and RESIGN): beside orders or
other commands it is refused and nothing is resigned, as a seat given up cannot be taken back
and a mail that says two things may not mean both."""

from __future__ import annotations

from pbem.games.audit import audit
from pbem.games.played import BOT
from pbem.games.seat_passwords import take_password
from pbem.intake.auth import authenticate
from pbem.intake.context import MailContext
from pbem.mail.envelope import Envelope
from pbem.store import GameStatus, MailStatus, SeatStatus

_FATE = {
    "replace": "The seat plays in civil disorder (standing orders only) until the referee "
    "finds it a new player.",
    "disorder": "The seat plays on in civil disorder (standing orders only).",
    "bot": "The seat is played by the game's bot from now on.",
}


def resign(context: MailContext, envelope: Envelope) -> None:
    found = authenticate(context, envelope)
    if found is None:
        return
    game, seat = found
    if game.status not in (GameStatus.RUNNING, GameStatus.PAUSED):
        why = f"game {game.id} is {game.status}: ask the referee to take you off it"
        context.quarantine("resign", why, reply_to=seat.address)
        return
    player, how = seat.address, game.resign
    seat.status = SeatStatus.BOT if how == BOT else SeatStatus.DISORDER
    seat.address = ""
    take_password(seat)
    seat.pending_address, seat.pending_code, seat.pending_since = "", "", None
    context.work.games.add(seat)
    audit(context.work, context.now, player, "resign", game.id, f"{seat.name} ({how})")
    context.finish(MailStatus.ANSWERED, f"RESIGN {seat.name} ({how})")
    facts = {"game": game.id, "seat": seat.name, "fate": _FATE[how]}
    context.reply(player, "resigned", **facts)
    context.to_referees(
        game.id,
        f"[{game.id}] {seat.name} resigned",
        "resigned_referee",
        purpose="resign",
        turn=game.turn,
        replace=how == "replace",
        **facts,
    )


def resign_not_alone(context: MailContext, envelope: Envelope) -> None:
    """RESIGN in a mail with other lines: refused, to the seat's address, saying so."""
    found = authenticate(context, envelope)
    if found is None:
        return
    _, seat = found
    why = (
        "RESIGN must be sent in a mail of its own: your GAME line, then RESIGN, and no other "
        f"line. This mail holds other lines too, so nothing was resigned: seat {seat.name} "
        "is still yours"
    )
    context.quarantine("resign", why, reply_to=seat.address)
