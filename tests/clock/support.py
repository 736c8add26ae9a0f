"""Helpers for the clock tests: games with clock options, order mails, and what was queued."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlmodel import col, select

from pbem.clock import run_due
from pbem.clock.run import ClockSummary
from pbem.deadlines.options import ClockOptions
from pbem.games.service import Service
from pbem.intake.intake import receive
from pbem.store import Outbox, Seat, transaction
from pbem.store.models import ClockReminder
from tests.conftest import NOW
from tests.support.games import body, new_game
from tests.support.mails import mail, order_mail

HOUR = timedelta(hours=1)
DEADLINE = NOW + 48 * HOUR  # the first deadline of a game made at NOW with interval:48h
SIGNATURE = "\n-- \nPBEM Moderator - send HELP for the mail commands.\n"


def clock_game(service: Service, game: str = "g1", **clock: Any) -> None:
    """A counting game for alice and bob made at NOW, with these clock options."""
    options: dict[str, Any] = {}
    for key in ("early_processing", "referees", "deadline_policy"):
        if key in clock:
            options[key] = clock.pop(key)
    new_game(service, NOW, game=game, clock=ClockOptions(**clock), **options)


def orders(service: Service, seat: str, text: str, at: datetime, game: str = "g1") -> None:
    """`seat` mails `text` as its orders at `at`; they must be accepted."""
    key = "-".join(text.split())
    raw = order_mail(
        game,
        seat,
        f"pw-{seat}",
        text,
        sender=f"{seat}@example.org",
        message_id=f"{game}-{seat}-{key}-{at:%Y%m%d%H%M}@x",
    )
    assert receive(service, raw, now=at).status == "accepted"


def command(service: Service, seat: str, line: str, at: datetime, game: str = "g1") -> str:
    """Send `line` as a mail command of `seat`; the mail's status."""
    key = "-".join(line.split())
    raw = mail(
        f"GAME {game} SEAT {seat} PASSWORD pw-{seat}\n{line}\n",
        sender=f"{seat}@example.org",
        message_id=f"cmd-{seat}-{key}-{at:%Y%m%d%H%M}@x",
    )
    return receive(service, raw, now=at).status


def run(service: Service, at: datetime) -> ClockSummary:
    return run_due(service, at)


def clock_mail(service: Service) -> list[tuple[str, str]]:
    """(recipient, subject) of every mail the clocks queued, in order."""
    with transaction(service.db) as session:
        query = select(Outbox).where(Outbox.kind == "clock").order_by(col(Outbox.id))
        return [(row.recipient, row.subject) for row in session.exec(query)]


def clock_bodies(service: Service) -> list[str]:
    with transaction(service.db) as session:
        query = select(Outbox).where(Outbox.kind == "clock").order_by(col(Outbox.id))
        return [body(row) for row in session.exec(query)]


def reminders(service: Service) -> list[tuple[int, str, int]]:
    with transaction(service.db) as session:
        rows = session.exec(select(ClockReminder).order_by(col(ClockReminder.id)))
        return [(row.turn, row.seat, row.before_seconds) for row in rows]


def seat(service: Service, name: str, game: str = "g1") -> Seat:
    with transaction(service.db) as session:
        row = session.exec(select(Seat).where(Seat.game_id == game, Seat.name == name)).one()
        return row
