"""STOP [<token>]: no more mail to the sender's address, from any game, with no password
(issue 42, 4; pbem.games.stops keeps the stops and makes the tokens). The token proves the
mail comes from whoever reads that address's mail: each mail pbem sends there carries it
(its List-Unsubscribe mailto: sends `STOP <token>` as its subject). With it the address is
stopped at once, its waiting mail dropped, and the referees of each game it holds a seat in
are told (the seat's mail stops, the game goes on, the referee may replace the player); a
JOIN it has waiting is forgotten, and the STOP is answered once, the last mail sent there,
with the way back: UNSTOP <token>. Without it (or with a wrong one) the address gets one
mail, to it alone, with the token: a STOP under someone else's From stops nothing. A
stopped address gets no other answer at all.

A stopped referee's fellow referees are told too (their referee mail is set aside unread,
pbem.intake.referee_mail); and each game's audit log keeps the stop (pbem.games.unstopping).

UNSTOP <token>: mail to the sender's address again. The token proves it again, so that a
stranger writing under that From can neither lift the stop nor have any mail sent there:
an UNSTOP without it, stopped or not, is passed over in silence. Its answer says what
changed meanwhile (a seat given away). A player who lost the code asks the operator
(`pbem unstop`, pbem.console.stops)."""

from __future__ import annotations

import logging
from functools import partial

from pbem.games.stops import is_stopped, stop, stop_token, token_holds
from pbem.games.unstopping import record_stop, start_again, tell_referees
from pbem.intake.context import MailContext
from pbem.intake.decide import STOP_SUBJECT
from pbem.mail.envelope import Envelope
from pbem.store import MailStatus, Seat

log = logging.getLogger(__name__)


def stop_command(context: MailContext, envelope: Envelope) -> None:
    """STOP [token] as a command line; without a token on it, the subject's (a reply to the
    answer that brought the token, with STOP written on top)."""
    words = envelope.command_words
    in_subject = STOP_SUBJECT.match(context.mail.subject.strip())
    stop_address(context, words[0] if words else in_subject.group(1) if in_subject else "")


def stop_address(context: MailContext, token: str) -> None:
    sender = context.mail.sender.lower()
    if is_stopped(context.work, sender):
        context.finish(MailStatus.IGNORED, f"STOP: {sender} is stopped already")
        return
    if not token or not token_holds(context.work, sender, token):
        # "STOP bob@example.org": an address is no token, and only the sender's is stopped.
        named = token.lower() if "@" in token else ""
        why = f"STOP naming {named}" if named else "STOP without its token"
        context.finish(MailStatus.ANSWERED, f"{why}: the token mailed to {sender}")
        subject = f"STOP {stop_token(context.work, sender)}"
        context.notify(
            sender, subject, "stop_how", address=sender, wrong=bool(token) and not named,
            named=named,
        )  # fmt: skip
        return
    seats = _seats_in_play(context, sender)
    # The one answer, the last mail sent there: what the stop means, and the way back.
    last = partial(
        context.reply,
        sender,
        "stop_done",
        address=sender,
        seats=_named(seats),
        token=stop_token(context.work, sender),
    )
    stop(context.work, sender, context.now, last=last)
    context.work.games.forget_joins_from(sender)
    refereed = context.work.games.refereed_by(sender)
    record_stop(context.work, context.now, sender, seats, refereed)
    log.info("STOP: no more mail to %s", sender)
    context.finish(MailStatus.ANSWERED, f"STOP: no more mail to {sender}")
    _tell_co_referees(context, sender, refereed)
    for seat in seats:
        context.to_referees(
            seat.game_id,
            f"[{seat.game_id}] {seat.name} asked for no more mail",
            "stop_referee",
            purpose=f"stop-{seat.game_id}-{seat.name}",
            game=seat.game_id,
            seat=seat.name,
            address=sender,
        )


def _tell_co_referees(context: MailContext, sender: str, refereed: list[str]) -> None:
    """A referee who stopped gets no result of what is done in their games any more: the
    other referees are told (the stopped one is not mailed)."""
    for game_id in refereed:
        context.to_referees(
            game_id,
            f"[{game_id}] referee {sender} asked for no more mail",
            "stop_co_referee",
            purpose=f"stop-referee-{game_id}",
            but=sender,
            game=game_id,
            address=sender,
        )


def unstop_command(context: MailContext, envelope: Envelope) -> None:
    """UNSTOP <token>: the sender's address gets mail again, its token proving again that
    the sender reads it; its seats' referees are told. Without the token nothing is mailed,
    stopped or not: an UNSTOP that changes nothing would otherwise mail whatever address a
    From names, as often as a stranger likes; with it, the answer goes to the code's reader."""
    sender = context.mail.sender.lower()
    token = envelope.command_words[0] if envelope.command_words else ""
    if not token_holds(context.work, sender, token):
        state = "stopped" if is_stopped(context.work, sender) else "not stopped"
        context.finish(MailStatus.IGNORED, f"UNSTOP without the token of {sender} ({state})")
        return
    started = start_again(context.work, context.now, sender, actor=sender)
    if started is None:
        context.finish(MailStatus.ANSWERED, f"UNSTOP: {sender} was not stopped")
        context.reply(sender, "unstop_done", address=sender, stopped=False, seats=[], lost=[])
        return
    log.info("UNSTOP: mail to %s again", sender)
    context.finish(MailStatus.ANSWERED, f"UNSTOP: mail to {sender} again")
    context.reply(
        sender, "unstop_done", address=sender, stopped=True, seats=started.named(),
        lost=started.lost,
    )  # fmt: skip
    key = f"{context.mail.message_id}#{context.inbound.attempts}"
    tell_referees(context.work, context.settings, context.now, sender, started, key=key)


def _seats_in_play(context: MailContext, address: str) -> list[Seat]:
    return context.work.games.seats_in_play_at(address)


def _named(seats: list[Seat]) -> list[str]:
    return [f"{seat.name} in game {seat.game_id}" for seat in seats]
