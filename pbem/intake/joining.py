"""JOIN <game> <seat> PASSWORD <pw>, and its CONFIRM: a seat of a game open to sign-up is
taken only once the address the JOIN came from has proved that it reads its mail, by the
code mailed to it (pbem.intake.codes, as SET ADDRESS's new address proves it). Until then
nothing is taken and the address gets that one mail: a JOIN under someone else's From
(issue 42, 4) cannot register them, start a game on them or open them to press. A second
JOIN from the address for the same game, while its code is fresh, is recorded and set aside
unanswered: the address gets no second mail."""

from __future__ import annotations

import logging

from engine import get_ruleset
from pbem.games.audit import JOINED, audit
from pbem.games.games import add_seat, find_game
from pbem.games.lifecycle import seat_name_problem, start_game
from pbem.intake.auth import no_game
from pbem.intake.codes import (
    CONFIRM_HOURS,
    code_hash,
    matches,
    new_code,
    still_fresh,
    waiting_joins,
)
from pbem.intake.context import MailContext
from pbem.mail.envelope import Envelope
from pbem.passwords import hash_password
from pbem.store import Game, GameStatus, JoinRequest, MailStatus, utc

log = logging.getLogger(__name__)


def join_command(context: MailContext, envelope: Envelope) -> None:
    sender = context.mail.sender.lower()
    game = find_game(context.work, envelope.game)
    refusal = _refusal(context, envelope.game, envelope.seat, game)
    if refusal or game is None:
        context.quarantine("join", refusal or "no such game", reply_to=sender)
        return
    context.passwords.append(envelope.password)
    waiting = _request(context, game.id, sender)
    if game.id in context.joined:
        # Asked on an earlier line of this mail: its answer goes to this sender anyway, so
        # the line is answered there (every line is), not set aside unsaid.
        why = f"only the first JOIN of game {game.id} in a mail is taken; it waits for CONFIRM"
        context.quarantine("join", why, reply_to=sender)
        return
    if waiting is not None and still_fresh(waiting.asked_at, context.now):
        log.info("JOIN %s from %s set aside: its CONFIRM is awaited already", game.id, sender)
        context.set_aside("join", f"a JOIN of {game.id} from {sender} waits for CONFIRM already")
        return
    code = new_code()
    request = waiting or JoinRequest(game_id=game.id, address=sender, seat="", password_hash="",
                                     code="", asked_at=utc(context.now))  # fmt: skip
    request.seat, request.code, request.asked_at = envelope.seat, code_hash(code), utc(context.now)
    request.misses = 0
    request.password_hash = hash_password(
        envelope.password, cost=context.settings.security.password_cost
    )
    context.work.games.add(request)
    context.joined.add(game.id)
    context.work.flush()  # a second JOIN of the game in the same mail finds it waiting
    audit(context.work, context.now, sender, "join-asked", game.id, envelope.seat)
    context.finish(MailStatus.ANSWERED, f"JOIN {game.id} as {envelope.seat}: waiting for CONFIRM")
    context.reply(
        sender, "join_confirm", game=game.id, seat=envelope.seat, code=code, hours=CONFIRM_HOURS
    )


def confirm_join(context: MailContext, code: str) -> bool:
    """Take the seat of the sender's JOIN whose code this is; False when no JOIN from the
    sender waits for it (the caller refuses)."""
    sender = context.mail.sender.lower()
    found = next((r for r in waiting_joins(context, sender) if matches(r.code, code)), None)
    if found is None:
        return False
    context.work.games.remove(found)
    game = find_game(context.work, found.game_id)
    if game is not None:  # two CONFIRMs for the last seat must not both get it
        context.work.games.lock_found(game)
    refusal = _refusal(context, found.game_id, found.seat, game)
    if refusal or game is None:
        context.quarantine("join", refusal or "no such game", reply_to=sender)
        return True
    _take_seat(context, game, found)
    return True


def _take_seat(context: MailContext, game: Game, request: JoinRequest) -> None:
    sender = request.address
    seat = add_seat(
        context.work, game, request.seat, sender, "", context.settings.security,
        password_hash=request.password_hash,
    )  # fmt: skip
    game.signup_seats -= 1
    context.inbound.game_id, context.inbound.seat = game.id, seat.name
    audit(context.work, context.now, sender, JOINED, game.id, seat.name)
    context.finish(MailStatus.ANSWERED, f"CONFIRM: JOIN {game.id} as {seat.name}")
    context.reply(
        sender,
        "joined",
        game=game.id,
        title=get_ruleset(game.ruleset).title,
        seat=seat.name,
        started=game.signup_seats == 0,
        free=game.signup_seats,
    )
    if game.signup_seats == 0:
        start_game(context.work, context.settings, game, now=context.now)


def _request(context: MailContext, game_id: str, address: str) -> JoinRequest | None:
    return context.work.games.join_request(game_id, address)


def _refusal(context: MailContext, game_id: str, seat: str, game: Game | None) -> str:
    if game is None:
        return no_game(context, game_id)
    if game.status != GameStatus.OPEN or game.signup_seats <= 0:
        return f"game {game.id} is not open to sign-up"
    if not context.mail.sender:
        return "the mail has no address to register"
    if seat_name_problem(seat):
        return seat_name_problem(seat)
    taken = {row.name for row in context.work.games.seats_of(game.id)}
    if seat in taken:
        return f"the seat name {seat} is taken; choose another"
    return ""
