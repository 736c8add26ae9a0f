"""A game's press (the players' messages to each other, pbem.intake.press), read."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime

from sqlmodel import Session, col, func, select

from pbem.store.models import Press


def press_by_message_ids(session: Session, message_ids: Collection[str]) -> list[Press]:
    """The press sent under any of the Message-IDs, newest first."""
    query = select(Press).where(col(Press.message_id).in_(message_ids))
    return list(session.exec(query.order_by(col(Press.id).desc())).all())


def wrote_anonymously(session: Session, game_id: str, sender: str, recipient: str) -> bool:
    """Has seat `sender` sent seat `recipient` anonymous press in the game?"""
    query = select(Press.id).where(
        Press.game_id == game_id,
        Press.sender == sender,
        Press.recipient == recipient,
        col(Press.anonymous).is_(True),
    )
    return session.exec(query.limit(1)).first() is not None


def press_sent_since(session: Session, game_id: str, sender: str, since: datetime) -> int:
    """How much press seat `sender` has sent in the game after `since`."""
    query = select(func.count()).where(
        Press.game_id == game_id,
        Press.sender == sender,
        col(Press.created_at) > since,
    )
    return int(session.exec(query).one())
