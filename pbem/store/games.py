"""The game aggregate's locks: a game's row held for the rest of the transaction, so that a
turn being resolved in another process finishes first, or waits for this transaction.

On PostgreSQL each is a row lock (FOR UPDATE, released at the commit); on SQLite the write
transaction holds the whole database already (pbem.store.db), and the lock adds nothing.
The domain says which game it needs held, and whether what its session holds of it is read
again; how is the store's."""

from __future__ import annotations

from sqlmodel import Session, col, select

from pbem.store.models import Game, Referee, Turn


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
