"""What a stop and its end leave behind, the same whoever ends it (UNSTOP with the address's
code, pbem.intake.stop, or the operator's `pbem unstop`, pbem.console.stops): an entry in
the audit log of each game the address holds a seat in (or referees), and, at the end, what
changed for the address meanwhile: the seats it held at the stop that are no longer its (the
mail saying so was dropped with the rest, and is not sent later), and a notice to the
referees of the seats it holds."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from pbem.config import Settings
from pbem.games.audit import audit
from pbem.games.outbox import Letter, queue
from pbem.games.stops import unstop
from pbem.mail.compose import stable_message_id
from pbem.store import OutboxKind, Seat
from pbem.store.work import Work
from pbem.templates import render

MAIL_STOPPED = "mail-stopped"  # detail: the seat's name, or AS_REFEREE
MAIL_STARTED = "mail-started"
AS_REFEREE = "as referee"  # a seat's name has no space: never taken for one


def record_stop(
    work: Work, now: datetime, address: str, seats: list[Seat], refereed: list[str]
) -> None:
    """The stop of `address` in the log of each game where it holds a seat or referees."""
    for seat in seats:
        audit(work, now, address, MAIL_STOPPED, seat.game_id, seat.name)
    for game_id in refereed:
        audit(work, now, address, MAIL_STOPPED, game_id, AS_REFEREE)


@dataclass(frozen=True)
class Started:
    """An address whose mail comes again: the seats it holds, those it held at the stop that
    are no longer its (each "<seat> in game <game>"), and the games it referees."""

    seats: list[Seat]
    lost: list[str]
    refereed: list[str]

    def named(self) -> list[str]:
        return [f"{seat.name} in game {seat.game_id}" for seat in self.seats]


def start_again(
    work: Work, now: datetime, address: str, *, actor: str, why: str = ""
) -> Started | None:
    """End the stop of `address` (lower case), logged in each game where it holds a seat, by
    `actor` (`why`: the operator's reason); None if it was not stopped."""
    stopped_at = unstop(work, address)
    if stopped_at is None:
        return None
    seats = work.games.seats_in_play_at(address)
    held = work.games.seat_keys_at(address)
    stops = work.audit.by_actor_since(address, MAIL_STOPPED, stopped_at)
    lost = [
        f"{seat} in game {game}"
        for game, seat in stops
        if game is not None and seat != AS_REFEREE and (game, seat) not in held
    ]
    refereed = work.games.refereed_by(address)
    for game_id, what in [(seat.game_id, seat.name) for seat in seats] + [
        (game_id, AS_REFEREE) for game_id in refereed
    ]:
        audit(work, now, actor, MAIL_STARTED, game_id, f"{what}: {why}" if why else what)
    return Started(seats, lost, refereed)


def tell_referees(
    work: Work,
    settings: Settings,
    now: datetime,
    address: str,
    started: Started,
    *,
    key: str,
    operator: bool = False,
) -> None:
    """Tell the referees of each seat that it gets its mail again, and a referee's fellow
    referees (`operator`: the operator started it); `key` keeps the mails' Message-IDs apart
    from those of another start (the mail's, or the operator's run)."""
    for game_id in started.refereed:
        body = render(
            "unstop_co_referee",
            moderator=settings.mail.name,
            game=game_id,
            address=address,
            operator=operator,
        )
        subject = f"[{game_id}] referee {address} gets mail again"
        for referee in work.games.referees_of(game_id):
            if referee.address.lower() != address:
                _queue(work, settings, now, referee.address, subject, body, game_id, key)
    for seat in started.seats:
        body = render(
            "unstop_referee",
            moderator=settings.mail.name,
            game=seat.game_id,
            seat=seat.name,
            address=address,
            operator=operator,
        )
        subject = f"[{seat.game_id}] {seat.name} gets mail again"
        for referee in work.games.referees_of(seat.game_id):
            purpose = f"{key}:{seat.name}"
            _queue(work, settings, now, referee.address, subject, body, seat.game_id, purpose)


def _queue(
    work: Work,
    settings: Settings,
    now: datetime,
    to: str,
    subject: str,
    body: str,
    game_id: str,
    key: str,
) -> None:
    parts = ("unstop", key, game_id, to)
    message_id = stable_message_id(*parts, domain=settings.mail.domain)
    letter = Letter(OutboxKind.REFEREE, to, subject, body, message_id, game_id=game_id)
    queue(work, settings, letter, now=now)
