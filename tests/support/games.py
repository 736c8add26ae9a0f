"""Creating games and reading what the pipeline stored and queued, for tests."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlmodel import col, select

from pbem.games.lifecycle import GameSpec, SeatSpec, create_game
from pbem.games.outbox import as_message
from pbem.games.service import Service
from pbem.mail.compose import text_of
from pbem.store import Game, InboundMessage, OrderSet, Outbox, Quarantine, Turn, transaction

SEATS = (
    SeatSpec("alice", "alice@example.org", "pw-alice"),
    SeatSpec("bob", "bob@example.org", "pw-bob"),
)


def new_game(
    service: Service,
    now: datetime,
    *,
    game: str = "g1",
    ruleset: str = "counting",
    seats: Sequence[SeatSpec] = SEATS,
    seed: int = 1,
    **options: Any,
) -> None:
    # A fixed salt (a stored input like the seed) unless told: two databases given the same
    # games then store and mail the same bytes.
    options.setdefault("seed_salt", f"{seed:032x}")
    spec = GameSpec(id=game, ruleset=ruleset, seats=seats, seed=seed, **options)
    with service.store.transaction() as work:
        create_game(work, service.settings, spec, now=now)


def outbox(service: Service, kind: str | None = None) -> list[Outbox]:
    with transaction(service.db) as session:
        query = select(Outbox).order_by(col(Outbox.id))
        if kind:
            query = query.where(Outbox.kind == kind)
        return list(session.exec(query))


def body(row: Outbox) -> str:
    return text_of(as_message(row.raw))


def inbound(service: Service) -> list[InboundMessage]:
    with transaction(service.db) as session:
        return list(session.exec(select(InboundMessage).order_by(col(InboundMessage.id))))


def quarantined(service: Service) -> list[Quarantine]:
    with transaction(service.db) as session:
        return list(session.exec(select(Quarantine).order_by(col(Quarantine.id))))


def orders(service: Service) -> list[OrderSet]:
    with transaction(service.db) as session:
        return list(session.exec(select(OrderSet).order_by(col(OrderSet.id))))


def turns(service: Service, game: str = "g1") -> list[Turn]:
    with transaction(service.db) as session:
        query = select(Turn).where(Turn.game_id == game).order_by(col(Turn.number))
        return list(session.exec(query))


def game_row(service: Service, game: str = "g1") -> Game:
    with transaction(service.db) as session:
        row = session.get(Game, game)
        assert row is not None
        return row
