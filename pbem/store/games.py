"""The game aggregate (a game with its seats, turns, orders and referees), read and held.

A game's row is held (`lock`...) for the rest of the transaction, so that a turn being
resolved in another process finishes first, or waits for this transaction. On PostgreSQL
each is a row lock (FOR UPDATE, released at the commit); on SQLite the write transaction
holds the whole database already (pbem.store.db), and the lock adds nothing.
The domain says which game it needs held, and whether what its session holds of it is read
again; how is the store's."""

from __future__ import annotations

from collections.abc import Collection

from sqlmodel import Session, col, select

from pbem.store.models import Game, OrderSet, Referee, RefereeNote, Seat, Turn


def lock(session: Session, game_id: str) -> Game | None:
    """The game `game_id` (as stored: lower case) held. A game this session holds already
    keeps what it holds, changes not yet flushed included."""
    return session.exec(select(Game).where(Game.id == game_id).with_for_update()).first()


def lock_fresh(session: Session, game_id: str) -> Game | None:
    """The game held and read again, as the last commit left it (ids in any case)."""
    return session.get(Game, game_id.lower(), with_for_update=True, populate_existing=True)


def lock_found(session: Session, game: Game) -> None:
    """Hold `game`, found already in this session, and read it again."""
    session.refresh(game, with_for_update=True)


def lock_with_turn(session: Session, game_id: str) -> tuple[Game, Turn | None] | None:
    """lock_fresh and the game's current turn (its `game.turn` row, if any) in one
    statement: an order mail reads both, and a deadline wave has thousands."""
    current = (col(Turn.game_id) == col(Game.id)) & (col(Turn.number) == col(Game.turn))
    query = (
        select(Game, Turn)
        .outerjoin(Turn, current)
        .where(col(Game.id) == game_id.lower())
        .with_for_update(of=Game)  # not the turn: it may be missing (the outer join)
        .execution_options(populate_existing=True)
    )
    found = session.exec(query).first()
    return (found[0], found[1]) if found is not None else None


def referees_of(session: Session, game_id: str) -> list[Referee]:
    """The game's referees, in the order they were added."""
    query = select(Referee).where(Referee.game_id == game_id).order_by(col(Referee.id))
    return list(session.exec(query))


def game_named(session: Session, game_id: str) -> Game | None:
    """The game `game_id`, in any case (ids are stored lower-cased)."""
    return session.get(Game, game_id.lower())


def seats_of(session: Session, game_id: str) -> list[Seat]:
    query = select(Seat).where(Seat.game_id == game_id).order_by(col(Seat.position))
    return list(session.exec(query))


def seats_of_games(session: Session, game_ids: Collection[str]) -> dict[str, list[Seat]]:
    """The seats of each of the games, in one query (a game with none is left out)."""
    query = select(Seat).where(col(Seat.game_id).in_(game_ids)).order_by(col(Seat.position))
    seats: dict[str, list[Seat]] = {}
    for seat in session.exec(query):
        seats.setdefault(seat.game_id, []).append(seat)
    return seats


def turn_of(session: Session, game_id: str, number: int) -> Turn | None:
    query = select(Turn).where(Turn.game_id == game_id, Turn.number == number)
    return session.exec(query).first()


def last_resolved_turn(session: Session, game_id: str) -> Turn | None:
    query = (
        select(Turn)
        .where(Turn.game_id == game_id, col(Turn.resolved_at).is_not(None))
        .order_by(col(Turn.number).desc())
    )
    return session.exec(query).first()


def stored_orders(session: Session, game_id: str, turn: int) -> dict[str, OrderSet]:
    query = select(OrderSet).where(OrderSet.game_id == game_id, OrderSet.turn == turn)
    return {row.seat: row for row in session.exec(query)}


def played_turns(session: Session, game_id: str) -> list[Turn]:
    """The game's turns played (their state after stored), in order."""
    query = select(Turn).where(Turn.game_id == game_id, col(Turn.state_after).is_not(None))
    return list(session.exec(query.order_by(col(Turn.number))).all())


def has_note(session: Session, game_id: str, turn: int, action: str) -> bool:
    """Has the game a referee's note of `action` for `turn`?"""
    query = select(RefereeNote.id).where(
        RefereeNote.game_id == game_id, RefereeNote.turn == turn, RefereeNote.action == action
    )
    return session.exec(query).first() is not None
