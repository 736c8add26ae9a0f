"""Whether a mail proves the seat it claims, decided from what was read: no session. A mail
that does not prove its seat is refused to its sender alone; the seat's registered address,
if it did not send it, is told that someone tried, but never by whom nor what they wrote
(after a replacement, the new player must not read the old player's mail); not of a wrong
password from the player the seat was taken from, nor of a mail written before its player
took it. pbem.intake.auth reads the seats and the facts below, and does what this decides."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pbem.games.games import NO_PLAYER
from pbem.store import Game, Seat, SeatStatus


@dataclass(frozen=True)
class Claim:
    """What was read of the mail's claim on a seat."""

    sender: str
    wanted: str  # the seat its GAME line names ('' for none)
    proves: bool  # its password holds (or an earlier command of the mail proved the seat)
    former: bool = False  # wrong: the sender is a player the seat was taken from
    before: bool = False  # wrong: the mail was written before the seat's player took it


@dataclass(frozen=True)
class Refused:
    """A quarantine reason and its error, told to `reply_to`; `tell`: the seat's address,
    to be told that someone tried its seat ('' for nobody)."""

    reason: str
    error: str
    reply_to: str
    details: tuple[str, ...] = ()
    tell: str = ""


def judge(game: Game, seat: Seat | None, seats: Sequence[Seat], claim: Claim) -> Refused | None:
    """Why the mail does not prove `seat` (the one of `seats` it names), or None: it does."""
    sender = claim.sender
    if seat is None:
        names = f"The seats are: {', '.join(s.name for s in seats)}"
        error = f"game {game.id} has no seat {claim.wanted or '(none)'}"
        return Refused("unknown-seat", error, sender, (names,))
    if not claim.proves:
        # The seat's player is not told of a mail from the player it was taken from (who
        # hears so), nor of one written before they took it: neither tried their seat.
        tried = not claim.former and not claim.before
        return _tried(seat, sender, "password", _wrong_password(game, seat, claim.former), tried)
    if seat.status in NO_PLAYER:
        error = f"seat {seat.name} is in civil disorder; only a referee can give it a player again"
        return Refused("seat-disorder", error, seat.address)
    if seat.status == SeatStatus.BOT:
        error = f"seat {seat.name} is played by the bot; only a referee can give it back to you"
        return Refused("seat-bot", error, seat.address)
    if game.address_check and sender != seat.address:
        error = f"orders for {seat.name} come only from its registered address"
        return _tried(seat, sender, "address", error, True)
    return None


def _tried(seat: Seat, sender: str, reason: str, error: str, tried: bool) -> Refused:
    """A claim on the seat not proved: refused to its sender; the seat's own address, if
    that is not the sender, told that someone tried."""
    tell = seat.address if tried and seat.address.lower() != sender.lower() else ""
    return Refused(reason, error, sender, tell=tell)


def _wrong_password(game: Game, seat: Seat, former: bool) -> str:
    """The refusal of a wrong password. A sender the seat was taken from (`former`) is told
    so again; anyone else hears only that the password is wrong, so that a stranger learns
    nothing of the seat's players."""
    wrong = f"wrong password for seat {seat.name} in game {game.id}"
    if not former:
        return wrong
    return (
        f"{wrong}: you no longer play {seat.name}; the referee gave the seat to another "
        "player, as you were told by mail, and your old password is refused. Ask the "
        "referee if this is a mistake."
    )
