"""Branches: a rollback copies the turns and orders it undoes into the archive tables under a
new branch number before it takes them out of play. Nothing is ever deleted from the archive,
and a rerun takes its inputs (orders, edits) from there. The referee's rollback and rerun
(pbem.referee.turns) and the game export (pbem.proof.export) read and write it here."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import func
from sqlmodel import Session, col, select

from pbem.store.db import utc
from pbem.store.models import ArchivedOrderSet, ArchivedTurn, OrderSet, Turn


def next_branch(session: Session, game_id: str) -> int:
    query = select(func.max(ArchivedTurn.branch)).where(ArchivedTurn.game_id == game_id)
    return (session.exec(query).one() or 0) + 1


def latest_branch(session: Session, game_id: str) -> int:
    return next_branch(session, game_id) - 1


def archive_from(session: Session, game_id: str, number: int, now: datetime) -> tuple[int, int]:
    """Copy every live turn and order set from turn `number` on into a new branch; return the
    branch and the last turn it holds as played (`number` - 1 if none was: the branch holds
    the pending turn, never played, and its orders)."""
    branch = next_branch(session, game_id)
    # In turn order: without ORDER BY, PostgreSQL returns rows in their physical order, which
    # earlier updates of the table can change (the archive's ids would follow it).
    query = select(Turn).where(Turn.game_id == game_id, col(Turn.number) >= number)
    turns = session.exec(query.order_by(col(Turn.number))).all()
    for turn in turns:
        session.add(
            ArchivedTurn(game_id=game_id, branch=branch, archived_at=utc(now), **_turn(turn))
        )
    for row in live_orders_from(session, game_id, number):
        session.add(ArchivedOrderSet(game_id=game_id, branch=branch, **_orders(row)))
    session.flush()
    played = [turn.number for turn in turns if turn.resolved_at is not None]
    return branch, max(played, default=number - 1)


def live_orders_from(session: Session, game_id: str, number: int) -> list[OrderSet]:
    query = select(OrderSet).where(OrderSet.game_id == game_id, col(OrderSet.turn) >= number)
    return list(session.exec(query.order_by(col(OrderSet.id))))


def branch_end(session: Session, game_id: str, branch: int) -> int:
    query = select(func.max(ArchivedTurn.number)).where(
        ArchivedTurn.game_id == game_id, ArchivedTurn.branch == branch
    )
    return session.exec(query).one() or 0


def times_archived(session: Session, game_id: str, number: int) -> int:
    """How many times the turn opened before and a rollback took it back (each such time is
    an archived copy of it): orders held for it again after a rollback, in a mail numbered
    as the first, get a check reply of their own when it opens again."""
    query = select(func.count()).where(
        ArchivedTurn.game_id == game_id, ArchivedTurn.number == number
    )
    return session.exec(query).one()


def archived_turn(session: Session, game_id: str, branch: int, number: int) -> ArchivedTurn | None:
    query = select(ArchivedTurn).where(
        ArchivedTurn.game_id == game_id,
        ArchivedTurn.branch == branch,
        ArchivedTurn.number == number,
    )
    return session.exec(query).first()


def restore_orders(session: Session, game_id: str, branch: int, number: int) -> list[str]:
    """Put the branch's orders for turn `number` back in play, for every seat that has no
    live orders for it (a referee's correction wins); the seats restored."""
    live = {row.seat for row in live_orders_from(session, game_id, number) if row.turn == number}
    query = select(ArchivedOrderSet).where(
        ArchivedOrderSet.game_id == game_id,
        ArchivedOrderSet.branch == branch,
        ArchivedOrderSet.turn == number,
    )
    restored = []
    for row in session.exec(query.order_by(col(ArchivedOrderSet.id))):
        if row.seat not in live:
            session.add(OrderSet(game_id=game_id, **_orders(row)))
            restored.append(row.seat)
    session.flush()
    return restored


def _turn(turn: Turn) -> dict[str, Any]:
    return {
        "number": turn.number,
        "state_before": turn.state_before,
        "state_after": turn.state_after,
        "record": turn.record,
        "deadline": turn.deadline,
        "resolved_at": turn.resolved_at,
    }


def _orders(row: OrderSet | ArchivedOrderSet) -> dict[str, Any]:
    return {
        "turn": row.turn,
        "seat": row.seat,
        "text": row.text,
        "line_map": row.line_map,
        "message_id": row.message_id,
        "version": row.version,
        "received_at": row.received_at,
    }


def archived_turns(session: Session, game_id: str) -> list[ArchivedTurn]:
    """Every archived turn of the game, by branch and number."""
    query = select(ArchivedTurn).where(ArchivedTurn.game_id == game_id)
    return list(session.exec(query.order_by(col(ArchivedTurn.branch), col(ArchivedTurn.number))))
