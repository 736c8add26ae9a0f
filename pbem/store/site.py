"""What the web archive reads (pbem.web.archive): the site's games, a game's resolved turns,
the columns of the site's index, and who referees which game. Reads only: the archive writes
files, never rows. (The turns and orders a rollback archived under a branch are another
archive: pbem.store.archive.)"""

from __future__ import annotations

from collections.abc import Collection

from sqlmodel import Session, col, func, select

from pbem.store.models import Game, Referee, Seat, Turn


def game_by_id(session: Session, game_id: str) -> Game | None:
    """The game `game_id`, as stored (the archive is given the ids the database holds)."""
    return session.get(Game, game_id)


def games_by_id(session: Session, only: Collection[str] | None = None) -> list[Game]:
    """Every game, or those of `only`, by id."""
    query = select(Game).order_by(col(Game.id))
    if only is not None:
        query = query.where(col(Game.id).in_(sorted(only)))
    return list(session.exec(query))


def resolved_turns(session: Session, game_id: str) -> list[Turn]:
    """The game's resolved turns in play, in order."""
    query = select(Turn).where(Turn.game_id == game_id, col(Turn.resolved_at).is_not(None))
    return list(session.exec(query.order_by(col(Turn.number))))


def seat_by_name(session: Session, game_id: str, name: str) -> Seat | None:
    """The game's seat `name`, as stored."""
    return session.exec(select(Seat).where(Seat.game_id == game_id, Seat.name == name)).first()


def seat_counts(session: Session) -> dict[str, int]:
    """How many seats each game has (a game with none is left out)."""
    query = select(Seat.game_id, func.count()).group_by(col(Seat.game_id))
    return dict(session.exec(query).all())


def index_columns(session: Session) -> list[tuple[str, str, str, int]]:
    """Each game's id, ruleset, status and turn, by id: a column query, not every game read
    whole (the index is read again after each game's turn)."""
    query = select(Game.id, Game.ruleset, Game.status, Game.turn).order_by(col(Game.id))
    return [(game, ruleset, status, turn) for game, ruleset, status, turn in session.exec(query)]


def referee_games(session: Session) -> list[tuple[str, str]]:
    """(address as stored, game id) of every referee of every game."""
    return list(session.exec(select(Referee.address, Referee.game_id)))


def referee_addresses(session: Session, game_id: str) -> list[str]:
    """The addresses of the game's referees, as stored."""
    return list(session.exec(select(Referee.address).where(Referee.game_id == game_id)).all())
