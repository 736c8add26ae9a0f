"""The audit aggregate: the log of who did what to which game (the domain's side, what an
entry says and how it reads: pbem.games.audit)."""

from __future__ import annotations

from sqlmodel import Session, col, func, select

from pbem.store.models import AuditLog


def details_and_actors(session: Session, game_id: str, action: str) -> list[tuple[str, str]]:
    """(detail, actor) of each of the game's entries of `action`."""
    query = select(AuditLog.detail, AuditLog.actor).where(
        AuditLog.game_id == game_id, AuditLog.action == action
    )
    return list(session.exec(query))


def newest_entries(session: Session, game_id: str, count: int) -> tuple[list[AuditLog], int]:
    """The game's newest `count` entries, oldest first, and how many the game has in all."""
    mine = AuditLog.game_id == game_id
    total = session.exec(select(func.count()).select_from(AuditLog).where(mine)).one()
    query = select(AuditLog).where(mine).order_by(col(AuditLog.id).desc()).limit(count)
    return list(reversed(session.exec(query).all())), total
