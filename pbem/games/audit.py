"""The audit log: who did what to which game, written in the transaction that did it."""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Session

from pbem.store import AuditLog, utc


def audit(
    session: Session, now: datetime, actor: str, action: str, game_id: str | None, detail: str = ""
) -> None:
    session.add(AuditLog(at=utc(now), actor=actor, action=action, game_id=game_id, detail=detail))
