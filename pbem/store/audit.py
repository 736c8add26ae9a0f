"""The audit aggregate: the log of who did what to which game (the domain's side, what an
entry says and how it reads: pbem.games.audit).

Its storage interface is an object over one unit of work (`AuditTrail(session)`, the session
of the transaction that makes the change an entry records): the domain records an entry and
reads a game's back, and never builds a row, adds it to a session or writes a query. This is
the pattern the other aggregates are to follow (docs/architecture.md, the storage interface)."""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Session, col, func, select

from pbem.store.db import utc
from pbem.store.models import AuditLog


class AuditTrail:
    """The audit log, as one unit of work writes and reads it."""

    def __init__(self, session: Session) -> None:
        self._session = session

    def record(
        self, at: datetime, actor: str, action: str, game_id: str | None, detail: str = ""
    ) -> None:
        """An entry, written with the change it records (committed with it, or not at all)."""
        entry = AuditLog(at=utc(at), actor=actor, action=action, game_id=game_id, detail=detail)
        self._session.add(entry)

    def details_and_actors(self, game_id: str, action: str) -> list[tuple[str, str]]:
        """(detail, actor) of each of the game's entries of `action`."""
        query = select(AuditLog.detail, AuditLog.actor).where(
            AuditLog.game_id == game_id, AuditLog.action == action
        )
        return list(self._session.exec(query))

    def by_actor_since(
        self, actor: str, action: str, since: datetime
    ) -> list[tuple[str | None, str]]:
        """(game, detail) of each entry of `action` by `actor` from `since` on, oldest first."""
        query = (
            select(AuditLog.game_id, AuditLog.detail)
            .where(AuditLog.actor == actor, AuditLog.action == action)
            .where(col(AuditLog.at) >= utc(since))
            .order_by(col(AuditLog.id))
        )
        return list(self._session.exec(query))

    def newest(self, game_id: str, count: int) -> tuple[list[AuditLog], int]:
        """The game's newest `count` entries, oldest first, and how many the game has in all."""
        mine = AuditLog.game_id == game_id
        total = self._session.exec(select(func.count()).select_from(AuditLog).where(mine)).one()
        query = select(AuditLog).where(mine).order_by(col(AuditLog.id).desc()).limit(count)
        return list(reversed(self._session.exec(query).all())), total
