"""Referees of a game: each with an address and a hashed password, mailed to them once."""

from __future__ import annotations

from datetime import datetime

from pbem.config import Settings
from pbem.games.outbox import Letter, queue
from pbem.games.site_links import desk_link
from pbem.mail.compose import stable_message_id
from pbem.passwords import hash_password, new_password, rehashed, verify_password
from pbem.referee.mails import password_body
from pbem.store import Game, OutboxKind, Referee
from pbem.store.work import Work


def add_referee(
    work: Work, settings: Settings, game: Game, address: str, *, now: datetime, salt: str = ""
) -> Referee:
    """A new referee with a new password, mailed to them (the only time it is sent in full).
    `salt` keeps the Message-ID of each promotion new."""
    referee = Referee(game_id=game.id, address=address.lower())
    work.games.add(referee)
    _give_password(work, settings, game, referee, now=now, salt=salt)
    return referee


def give_passwords(work: Work, settings: Settings, game: Game, *, now: datetime) -> int:
    """A password, by mail, for each referee of the game that has none yet (those named at
    `pbem game new`); how many were sent."""
    waiting = [r for r in work.games.referees_of(game.id) if r.password_hash == ""]
    for referee in waiting:
        _give_password(work, settings, game, referee, now=now)
    return len(waiting)


def _give_password(
    work: Work,
    settings: Settings,
    game: Game,
    referee: Referee,
    *,
    now: datetime,
    salt: str = "",
) -> None:
    password = new_password()
    referee.password_hash = hash_password(password, cost=settings.security.password_cost)
    work.games.add(referee)
    work.flush()
    parts = ("referee-password", game.id, referee.address, salt)
    letter = Letter(
        OutboxKind.REFEREE,
        referee.address,
        f"[{game.id}] you are a referee",
        password_body(settings, game, password, desk=desk_link(settings, referee.address)),
        stable_message_id(*parts, domain=settings.mail.domain),
        game_id=game.id,
    )
    queue(work, settings, letter, now=now)


def referee_by_password(work: Work, game_id: str, password: str, *, cost: int) -> Referee | None:
    """The referee of the game whose password this is. A seat's password is no referee's. A
    hash made at another `cost` is made anew (pbem.passwords.rehashed)."""
    if not password:
        return None
    for referee in work.games.referees_of(game_id):
        if verify_password(password, referee.password_hash):
            referee.password_hash = rehashed(password, referee.password_hash, cost=cost) or (
                referee.password_hash
            )
            return referee
    return None


def is_referee(work: Work, game_id: str, address: str) -> bool:
    return address.lower() in {referee.address for referee in work.games.referees_of(game_id)}
