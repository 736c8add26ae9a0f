"""The game aggregate (a game with its seats, turns, orders and referees), read and held.

A game's row is held (`lock`...) for the rest of the transaction, so that a turn being
resolved in another process finishes first, or waits for this transaction. On PostgreSQL
each is a row lock (FOR UPDATE, released at the commit); on SQLite the write transaction
holds the whole database already (pbem.store.db), and the lock adds nothing.
The domain says which game it needs held, and whether what its session holds of it is read
again; how is the store's."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime

from sqlmodel import Session, col, delete, func, select

from pbem.store.models import (
    ArchivedTurn,
    ClockReminder,
    Game,
    JoinRequest,
    OrderSet,
    Referee,
    RefereeNote,
    Seat,
    Turn,
)
from pbem.store.outbox_rows import room_for_replies
from pbem.store.statuses import GameStatus


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


def first_turn(session: Session, game_id: str) -> Turn | None:
    query = select(Turn).where(Turn.game_id == game_id).order_by(col(Turn.number))
    return session.exec(query).first()


def open_for_signup(session: Session) -> list[Game]:
    """The games open with seats to take by JOIN, by id."""
    query = select(Game).where(Game.status == GameStatus.OPEN, Game.signup_seats > 0)
    return list(session.exec(query.order_by(col(Game.id))).all())


def seats_at(session: Session, address: str) -> list[tuple[Seat, Game]]:
    """The seats registered at `address` (lower case), each with its game, by game and
    position."""
    query = (
        select(Seat, Game)
        .join(Game, col(Game.id) == col(Seat.game_id))
        .where(Seat.address == address)
        .order_by(col(Game.id), col(Seat.position))
    )
    return [(seat, game) for seat, game in session.exec(query).all()]


def join_request(session: Session, game_id: str, address: str) -> JoinRequest | None:
    """The JOIN from `address` waiting for its CONFIRM in the game."""
    query = select(JoinRequest).where(
        JoinRequest.game_id == game_id, JoinRequest.address == address
    )
    return session.exec(query).first()


def reminders_sent(session: Session, game_id: str, turn: int) -> list[ClockReminder]:
    """The reminders recorded sent for the game's turn."""
    query = select(ClockReminder).where(
        ClockReminder.game_id == game_id, ClockReminder.turn == turn
    )
    return list(session.exec(query))


def seats_with_room(
    session: Session, game_id: str, turn: int | None, *, since: datetime, limit: int
) -> list[tuple[Seat, bool, OrderSet | None]]:
    """The game's seats by position, in one statement: each with whether its address had
    fewer than `limit` mails queued after `since` (room for a reply under the limit:
    outbox_rows.room_for_replies), and with `turn` the orders stored for it that turn."""
    room = room_for_replies(Seat.__table__.c.address, since, limit)  # type: ignore[attr-defined]
    of_seat = (
        (col(OrderSet.game_id) == col(Seat.game_id))
        & (col(OrderSet.turn) == turn)
        & (col(OrderSet.seat) == col(Seat.name))
    )
    query = (
        select(Seat, room, OrderSet)
        .outerjoin(OrderSet, of_seat)  # no row of it without a turn
        .where(Seat.game_id == game_id)
        .order_by(col(Seat.position))
    )
    return [(seat, under, orders) for seat, under, orders in session.exec(query).all()]


def joins_from(session: Session, address: str) -> list[JoinRequest]:
    """The JOINs from `address` (lower case) waiting for their CONFIRM, in any game."""
    return list(session.exec(select(JoinRequest).where(JoinRequest.address == address)))


def forget_joins_from(session: Session, address: str) -> None:
    """Forget every JOIN from `address` (lower case) waiting for its CONFIRM."""
    session.exec(delete(JoinRequest).where(col(JoinRequest.address) == address))


def seats_moving_to(session: Session, address: str) -> list[Seat]:
    """The seats whose address is to change to `address` (lower case) once confirmed."""
    query = select(Seat).where(col(Seat.pending_address) == address, col(Seat.pending_code) != "")
    return list(session.exec(query))


def seats_in_play_at(session: Session, address: str) -> list[Seat]:
    """The seats registered at `address` (lower case) in games not ended, by game and
    position."""
    query = (
        select(Seat)
        .join(Game, col(Game.id) == col(Seat.game_id))
        .where(col(Seat.address) == address, col(Game.status) != GameStatus.ENDED)
        .order_by(col(Seat.game_id), col(Seat.position))
    )
    return list(session.exec(query))


def seat_keys_at(session: Session, address: str) -> set[tuple[str, str]]:
    """(game, seat) of every seat registered at `address` (lower case), in any game."""
    query = select(Seat.game_id, Seat.name).where(func.lower(Seat.address) == address)
    return {(game, name) for game, name in session.exec(query)}


def refereed_by(session: Session, address: str) -> list[str]:
    """The games not ended that `address` (lower case) referees, by id."""
    query = (
        select(Referee.game_id)
        .join(Game, col(Game.id) == col(Referee.game_id))
        .where(func.lower(Referee.address) == address, col(Game.status) != GameStatus.ENDED)
        .order_by(col(Referee.game_id))
    )
    return list(session.exec(query))


def turns_after(session: Session, game_id: str, number: int) -> list[Turn]:
    """The game's turns after turn `number`."""
    query = select(Turn).where(Turn.game_id == game_id, col(Turn.number) > number)
    return list(session.exec(query).all())


def edit_notes(session: Session, game_id: str, turn: int | None = None) -> list[RefereeNote]:
    """The referee's notes of the edits made to the game's turn `turn` (None: to any turn),
    in their order."""
    query = select(RefereeNote).where(RefereeNote.game_id == game_id, RefereeNote.edit_path != "")
    if turn is not None:
        query = query.where(RefereeNote.turn == turn)
    return list(session.exec(query.order_by(col(RefereeNote.id))))


def turns_of(session: Session, game_id: str) -> list[Turn]:
    """The game's turns in play, in order."""
    query = select(Turn).where(Turn.game_id == game_id).order_by(col(Turn.number))
    return list(session.exec(query).all())


def all_games(session: Session) -> list[Game]:
    """Every game, by id."""
    return list(session.exec(select(Game).order_by(col(Game.id))))


def games_known_to(session: Session, address: str) -> set[str]:
    """The ids of the games `address` (lower case) may know of: those open to JOIN, and
    those where it holds a seat or is a referee (either stored in any case)."""
    open_to_all = select(Game.id).where(Game.status == GameStatus.OPEN, Game.signup_seats > 0)
    seated = select(Seat.game_id).where(func.lower(Seat.address) == address)
    refereed = select(Referee.game_id).where(func.lower(Referee.address) == address)
    return {game_id for query in (open_to_all, seated, refereed) for game_id in session.exec(query)}


def last_orders_before(
    session: Session, game_id: str, seat: str, before: int, since: int = 0
) -> OrderSet | None:
    """The seat's latest orders stored for a turn before turn `before`, and not before turn
    `since`."""
    query = (
        select(OrderSet)
        .where(OrderSet.game_id == game_id, OrderSet.seat == seat, OrderSet.turn < before)
        .where(OrderSet.turn >= since)
        .order_by(col(OrderSet.turn).desc())
    )
    return session.exec(query).first()


def public_notes(session: Session, game_id: str, turn: int) -> list[RefereeNote]:
    """The referee's public notes of the game's turn, in their order."""
    query = select(RefereeNote).where(
        RefereeNote.game_id == game_id, RefereeNote.turn == turn, col(RefereeNote.public)
    )
    return list(session.exec(query.order_by(col(RefereeNote.id))))


def times_played_before(session: Session, game_id: str, number: int) -> int:
    """How many times turn `number` was played and then rolled back (archived resolved)."""
    query = select(func.count()).where(
        ArchivedTurn.game_id == game_id,
        ArchivedTurn.number == number,
        col(ArchivedTurn.resolved_at).is_not(None),
    )
    return session.exec(query).one()
