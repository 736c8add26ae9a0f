"""Who sent this: the game, the seat and its password (and, by game option, its registered
address). Every failure quarantines the mail; a seat's failure is told to its registered
address, never to whoever claims to be it."""

from __future__ import annotations

from pbem.games.games import (
    NO_PLAYER,
    find_game,
    find_seat,
    game_with_turn,
    seat_named,
)
from pbem.games.played import BOT
from pbem.games.seat_passwords import password_holds
from pbem.intake.context import MailContext
from pbem.mail.envelope import Envelope
from pbem.store import Game, Seat

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
    # Locked at its first read: whatever the mail does to the game, no turn of it is
    # resolved meanwhile (orders are never stored for a turn resolved in between).
    if turn:
        game, context.turn = game_with_turn(context.session, envelope.game) or (None, None)
    else:
        game = find_game(context.session, envelope.game, lock=True)
    if game is None:
        context.quarantine("unknown-game", f"there is no game {envelope.game}", reply_to=sender)
        return None
    context.inbound.game_id = game.id
    if game.status == "open":
        context.quarantine(
            "not-started", f"game {game.id} has not begun; it is open to JOIN", reply_to=sender
        )
        return None
    if game.status == "ended" and not allow_ended:
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
    sender = context.mail.sender
    seat = seat_named(context.read_seats(game.id), envelope.seat) if envelope.seat else None
    if seat is None:
        names = ", ".join(s.name for s in context.seats)
        wanted = envelope.seat or "(none)"
        context.quarantine(
            "unknown-seat",
            f"game {game.id} has no seat {wanted}",
            reply_to=sender,
            details=[f"The seats are: {names}"],
        )
        return None
    context.inbound.seat = seat.name
    password = envelope.password or ""
    if not password_holds(seat, password, context.settings.security):
        context.quarantine(
            "password",
            f"wrong password for seat {seat.name} in game {game.id}",
            reply_to=seat.address,
            details=[f"The mail came from {sender or 'an unknown address'}."],
        )
        return None
    context.passwords.append(password)
    if seat.status in NO_PLAYER:
        context.quarantine(
            "seat-disorder",
            f"seat {seat.name} is in civil disorder; only a referee can give it a player again",
            reply_to=seat.address,
        )
        return None
    if seat.status == BOT:
        context.quarantine(
            "seat-bot",
            f"seat {seat.name} is played by the bot; only a referee can give it back to you",
            reply_to=seat.address,
        )
        return None
    if game.address_check and sender != seat.address:
        context.quarantine(
            "address",
            f"orders for {seat.name} come only from its registered address",
            reply_to=seat.address,
            details=[f"The mail came from {sender or 'an unknown address'}."],
        )
        return None
    return game, seat


def find_seat_of(context: MailContext, envelope: Envelope) -> tuple[Game, Seat] | None:
    """The game and seat of a mail authenticate has proved already."""
    game = find_game(context.session, envelope.game)
    seat = find_seat(context.session, game.id, envelope.seat) if game else None
    return (game, seat) if game and seat else None
