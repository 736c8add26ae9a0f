"""Who sent this: the game, the seat and its password (and, by game option, its registered
address). Every failure quarantines the mail; whether the seat is proved, and who is told
when it is not, is decided by pbem.intake.seat_check. Once the seat is proved, its answers
go to its registered address."""

from __future__ import annotations

from datetime import UTC
from email.utils import parsedate_to_datetime

from engine.words import nearest, normal
from pbem.games.games import find_game, seat_named
from pbem.games.seat_passwords import password_holds
from pbem.intake.context import MailContext
from pbem.intake.seat_check import Claim, Refused, judge
from pbem.intake.seat_tried import tell_seat_tried
from pbem.mail.envelope import Envelope
from pbem.store import Game, GameStatus, Seat, utc

# The outcomes (quarantine reasons) of a mail whose seat was not proved by authenticate.
REFUSED_SEAT = tuple(
    f"{reason}:"
    for reason in (
        "envelope", "unknown-game", "not-started", "game-over", "unknown-seat", "password",
        "seat-disorder", "seat-bot", "address",
    )
)  # fmt: skip


def find_running_game(
    context: MailContext, envelope: Envelope, *, allow_ended: bool = False, turn: bool = False
) -> Game | None:
    """The game the mail names, unless it is not running. `turn`: read the game's current
    turn with it, into context.turn (orders)."""
    sender = context.mail.sender
    if not envelope.game:
        context.quarantine("envelope", "the mail names no game (GAME <game> ...)", reply_to=sender)
        return None
    game = locked_game(context, envelope.game, turn=turn)
    if game is None:
        return None
    if game.status == GameStatus.OPEN:
        context.quarantine(
            "not-started", f"game {game.id} has not begun; it is open to JOIN", reply_to=sender
        )
        return None
    if game.status == GameStatus.ENDED and not allow_ended:
        context.quarantine("game-over", f"game {game.id} has ended", reply_to=sender)
        return None
    return game


def authenticate(
    context: MailContext, envelope: Envelope, *, allow_ended: bool = False, turn: bool = False
) -> tuple[Game, Seat] | None:
    """The game and seat the mail proves, or None (the mail quarantined, the seat told).
    `allow_ended`: an ended game's seats are still proved (press after the end). `turn`: the
    game's current turn is read with it, into context.turn."""
    game = find_running_game(context, envelope, allow_ended=allow_ended, turn=turn)
    if game is None:
        return None
    seat = prove_seat(context, game, envelope)
    return (game, seat) if seat is not None else None


def prove_claim(context: MailContext, envelope: Envelope) -> bool:
    """Does the mail prove the seat its GAME line claims, in a game of any status (HELP and
    STATUS are answered for a game still open to JOIN, or ended)? Asked before its commands
    run; each asks for what it needs of the game (authenticate)."""
    game = locked_game(context, envelope.game)
    return game is not None and prove_seat(context, game, envelope) is not None


def locked_game(context: MailContext, name: str, *, turn: bool = False) -> Game | None:
    """The game the mail names, or None (the mail quarantined). Locked at its first read:
    whatever the mail does to the game, no turn of it is resolved meanwhile (orders are
    never stored for a turn resolved in between). `turn`: its current turn is read with it,
    into context.turn."""
    if turn:
        game, context.turn = context.work.games.lock_with_turn(name) or (None, None)
    else:
        game = find_game(context.work, name, lock=True)
    if game is None:
        context.quarantine("unknown-game", no_game(context, name), reply_to=context.mail.sender)
        return None
    context.inbound.game_id = game.id
    return game


def prove_seat(context: MailContext, game: Game, envelope: Envelope) -> Seat | None:
    """The seat of `game` the mail proves, or None (the mail quarantined, the seat told):
    decided by pbem.intake.seat_check from the seats and what is read of the claim."""
    seats = context.read_seats(game.id)
    seat = seat_named(seats, envelope.seat) if envelope.seat else None
    password = envelope.password or ""
    claim = _claim(context, seat, envelope.seat, password)
    if seat is not None:
        context.inbound.seat = seat.name
    if claim.proves and password not in context.passwords:
        context.passwords.append(password)
    refused = judge(game, seat, seats, claim)
    if refused is not None:
        _refuse(context, refused, seat)
        return None
    assert seat is not None
    context.proved.add((game.id, seat.name))
    if seat.address:
        context.proved_to.add(seat.address.lower())
    return seat


def _refuse(context: MailContext, refused: Refused, seat: Seat | None) -> None:
    """The claim refused; the seat's own address told that someone tried, if it is to be."""
    details = refused.details
    context.quarantine(refused.reason, refused.error, reply_to=refused.reply_to, details=details)
    if refused.tell and seat is not None:
        right = refused.reason == "address"
        tell_seat_tried(context, seat, refused.tell, password_right=right)


def _claim(context: MailContext, seat: Seat | None, wanted: str, password: str) -> Claim:
    """What the claim's judgement needs: whom the seat was taken from and when, read only
    for a wrong password, and only as far as it tells."""
    sender = context.mail.sender
    if seat is None or _proves(context, seat, password):
        return Claim(sender, wanted, proves=seat is not None)
    former = _former_player(context, seat)
    return Claim(sender, wanted, False, former, not former and _sent_before_taken(context, seat))


def _proves(context: MailContext, seat: Seat, password: str) -> bool:
    """Does the mail prove the seat: by its password, or by having proved it before (an
    earlier command of the same mail)?"""
    if (seat.game_id, seat.name) in context.proved:
        return True
    return password_holds(seat, password, context.settings.security)


def no_game(context: MailContext, name: str) -> str:
    """The refusal of a game id that names no game, with "did you mean" for a near id the
    sender may know: a game open to JOIN (LIST names those to anyone), or one where the
    sender's address holds a seat or is a referee. A game the sender has no part in is never
    named, so that a stranger learns no game's id by guessing near it."""
    known = context.work.games.games_known_to(context.mail.sender.lower())
    near = nearest(normal(name), {normal(game_id): game_id for game_id in known})
    return f"there is no game {name}" + (f"; did you mean {near}?" if near else "")


def _former_player(context: MailContext, seat: Seat) -> bool:
    """Is the sender a player the seat was taken from: a referee's replace or eject mailed
    them "you no longer play" at this very address?"""
    sender = context.mail.sender.lower()
    if seat.address.lower() == sender:
        return False
    farewell = f"[{seat.game_id}] you no longer play {seat.name}"
    return context.work.outbox.mailed(seat.game_id, sender, farewell)


def _sent_before_taken(context: MailContext, seat: Seat) -> bool:
    """Was the mail written (its Date) before the seat's player took the seat (the mail that
    gave it to them)? Then it was no try at their seat; a mail without a readable Date is
    taken as written now."""
    welcome = f"[{seat.game_id}] you now play {seat.name}"
    at = context.work.outbox.last_queued_at(seat.game_id, seat.address.lower(), welcome)
    if at is None:
        return False
    try:
        written = parsedate_to_datetime(context.mail.headers.get("date", ""))
    except (TypeError, ValueError):
        return False
    if written.tzinfo is None:  # "-0000": UTC, as RFC 5322 reads it
        written = written.replace(tzinfo=UTC)
    return written < utc(at)
