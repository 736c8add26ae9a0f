"""The inbound mail aggregate: a mail recorded (InboundMessage, its Message-ID unique) and
its quarantine entries. The domain's side is pbem.intake (intake, quarantine, replay)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlmodel import Session, col, func, select

from pbem.store.models import InboundMessage, Quarantine


def first_recorded(session: Session, message_id: str) -> InboundMessage | None:
    """The mail recorded under this Message-ID (what a duplicate repeats), if any."""
    query = select(InboundMessage).where(InboundMessage.message_id == message_id)
    return session.exec(query).first()


def which_recorded(session: Session, message_ids: Sequence[str]) -> set[str]:
    """Those of the Message-IDs that are recorded."""
    query = select(InboundMessage.message_id).where(col(InboundMessage.message_id).in_(message_ids))
    return set(session.exec(query))


def quarantine_entries(
    session: Session, *, include_released: bool = False
) -> list[tuple[Quarantine, InboundMessage]]:
    """The quarantine's entries (those not replayed yet, unless `include_released`), each
    with its mail, in the order they were made."""
    query = select(Quarantine, InboundMessage).join(
        InboundMessage, col(Quarantine.inbound_id) == col(InboundMessage.id)
    )
    if not include_released:
        query = query.where(col(Quarantine.released_at).is_(None))
    return [(q, m) for q, m in session.exec(query.order_by(col(Quarantine.id)))]


def quarantined(session: Session, quarantine_id: int) -> tuple[Quarantine, InboundMessage] | None:
    """The quarantine entry and its mail; None if there is no such entry."""
    row = session.get(Quarantine, quarantine_id)
    if row is None:
        return None
    inbound = session.get(InboundMessage, row.inbound_id)
    assert inbound is not None  # a foreign key guarantees it
    return row, inbound


def waiting_of_games(
    session: Session, game_ids: Sequence[str], count: int
) -> list[tuple[Quarantine, str, str | None]]:
    """The newest `count` quarantine entries not replayed yet of mail to these games, newest
    first, each with its mail's sender and game (not the mail itself)."""
    query = (
        select(Quarantine)
        .join(InboundMessage, col(InboundMessage.id) == col(Quarantine.inbound_id))
        .where(col(Quarantine.released_at).is_(None))
        .where(col(InboundMessage.game_id).in_(list(game_ids)))
        .order_by(col(Quarantine.id).desc())
        .limit(count)
    )
    entries = list(session.exec(query))
    mails = select(InboundMessage.id, InboundMessage.sender, InboundMessage.game_id).where(
        col(InboundMessage.id).in_([entry.inbound_id for entry in entries])
    )
    whose = {mail_id: (sender, game) for mail_id, sender, game in session.exec(mails)}
    found = [(entry, whose.get(entry.inbound_id, ("", None))) for entry in entries]
    return [(entry, sender, game) for entry, (sender, game) in found]


def count_refused(
    session: Session, game_id: str, seat: str, reasons: Sequence[str], *, since: datetime | None
) -> int:
    """How many mails for the seat were quarantined for one of `reasons` (after `since`)."""
    query = (
        select(func.count())
        .select_from(Quarantine)
        .join(InboundMessage, col(InboundMessage.id) == col(Quarantine.inbound_id))
        .where(
            InboundMessage.game_id == game_id,
            InboundMessage.seat == seat,
            col(Quarantine.reason).in_(reasons),
        )
    )
    if since is not None:
        query = query.where(col(Quarantine.created_at) > since)
    return session.exec(query).one()
