"""Reading a game: its seats, its pending turn, the orders stored for it, who is missing."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, Protocol

from engine import get_ruleset
from pbem.config import SecuritySettings
from pbem.deadlines.policy import absence_end
from pbem.deadlines.stored import next_deadline
from pbem.games.seat_passwords import give_password
from pbem.store import Game, GameStatus, Seat, SeatStatus, Turn, dumps, loads, utc
from pbem.store.games import last_resolved_turn as last_resolved_turn
from pbem.store.games import seats_of as seats_of
from pbem.store.games import seats_of_games as seats_of_games
from pbem.store.games import stored_orders as stored_orders
from pbem.store.games import turn_of as turn_of
from pbem.store.work import Work

# Seat statuses of a seat a referee put into civil disorder or ejected the player of
# (pbem/referee): it plays with no orders, nobody waits for it, its password is refused.
NO_PLAYER = (SeatStatus.DISORDER, SeatStatus.EJECTED)


def find_seat(work: Work, game_id: str, name: str) -> Seat | None:
    return seat_named(work.games.seats_of(game_id), name)


def seat_named(seats: list[Seat], name: str) -> Seat | None:
    for seat in seats:
        if seat.name.lower() == name.lower():
            return seat
    return None


def find_game(work: Work, game_id: str, *, lock: bool = False) -> Game | None:
    """The game, `lock`ed: held and read again (pbem.store.games.lock_fresh), so that it is as
    the last commit left it and a turn being resolved in another process finishes first, or
    waits for this transaction."""
    # Game ids are stored lower-cased, and players may type them in any case.
    if lock:
        return work.games.lock_fresh(game_id)
    return work.games.game_named(game_id)


def taking_orders(game: Game, turn: Turn | None) -> Turn | None:
    """Of the game's current turn (`turn`, its `game.turn` row), the one orders go to:
    pending_turn's or paused_turn's, without reading it again."""
    if turn is None or game.status not in (GameStatus.RUNNING, GameStatus.PAUSED):
        return None
    return turn if game.status == GameStatus.RUNNING or turn.resolved_at is None else None


def pending_turn(work: Work, game: Game) -> Turn | None:
    if game.status != GameStatus.RUNNING:
        return None
    return work.games.turn_of(game.id, game.turn)


def paused_turn(work: Work, game: Game) -> Turn | None:
    """The turn a paused game will resume with: orders for it are kept meanwhile."""
    if game.status != GameStatus.PAUSED:
        return None
    return taking_orders(game, work.games.turn_of(game.id, game.turn))


@dataclass(frozen=True)
class Awaited:
    """Whom the pending turn waits for, and the seats without orders it does not wait for
    because they are away: what every reply and page that names them says."""

    waiting: list[str]
    away: list[str]
    # The seats whose orders on file the turn plays ("Orders in from"): of those it asks
    # orders of, not one in civil disorder, ejected or the bot's (plays_own_orders).
    played: list[str]


def awaited(
    work: Work,
    game: Game,
    turn: Turn,
    state: dict[str, Any] | None = None,
    *,
    now: datetime,
) -> Awaited:
    """The seats the pending turn still waits for at `now` (still_waiting), in the
    ruleset's order, and those away it does not wait for (away_unawaited). `state` saves
    parsing the turn's state again when the caller has it."""
    state = state if state is not None else loads(turn.state_before)
    expected = get_ruleset(game.ruleset).seats_to_order(state)
    have = work.games.stored_orders(game.id, turn.number)
    seats = work.games.seats_of(game.id)
    return Awaited(
        still_waiting(expected, have, seats, game, now),
        away_unawaited(expected, have, seats, game, now),
        [
            seat.name
            for seat in seats
            if seat.name in have and seat.name in expected and plays_own_orders(seat.status)
        ],
    )


def plays_own_orders(status: SeatStatus) -> bool:
    """Whether a seat of this status is played with the orders on file for it, as the turn's
    resolution decides (pbem.clock.turns): not one in civil disorder or ejected (no orders:
    its standing orders only), nor one given to the bot (the bot's orders)."""
    return status not in NO_PLAYER and status != SeatStatus.BOT


# Why a seat's orders on file are not played (pbem.clock.turns), as `game show` and the desk
# say it beside them.
NOT_PLAYED = {
    SeatStatus.DISORDER: "civil disorder",
    SeatStatus.EJECTED: "ejected",
    SeatStatus.BOT: "the bot's",
}


def not_played(
    have: Collection[str], seats: Sequence[SeatLike], expected: Collection[str]
) -> dict[str, str]:
    """The seats with orders on file that the turn does not play (of those it asks), and why:
    the preview's "Orders on file not played"."""
    return {
        seat.name: NOT_PLAYED[seat.status]
        for seat in seats
        if seat.name in have and seat.name in expected and not plays_own_orders(seat.status)
    }


def orders_line(work: Work, game: Game, turn: Turn, whom: Awaited) -> str:
    """`game show`'s line of whose orders the turn plays, and whose on file it does not."""
    expected = get_ruleset(game.ruleset).seats_to_order(loads(turn.state_before))
    have = work.games.stored_orders(game.id, turn.number)
    unplayed = not_played(have, work.games.seats_of(game.id), expected)
    filed = ", ".join(f"{name} ({why})" for name, why in unplayed.items())
    return f"orders in from: {', '.join(whom.played) or 'nobody'}" + (
        f"; on file, not played: {filed}" if filed else ""
    )


class SeatLike(Protocol):
    """What still_waiting reads of a seat: a Seat, or the clock's light read of one."""

    @property
    def name(self) -> str: ...

    @property
    def status(self) -> SeatStatus: ...

    @property
    def absent_until(self) -> date | None: ...


class GameLike(Protocol):
    """What still_waiting reads of a game: a Game, or the clock's light read of one."""

    @property
    def timezone(self) -> str: ...

    @property
    def wait_for_absent(self) -> bool: ...


def is_away(seat: SeatLike, zone: str, now: datetime) -> bool:
    """Is the seat away at `now` (SET ABSENCE, through a day in the game's zone `zone`)?"""
    until = seat.absent_until
    return until is not None and utc(now) < absence_end(until, zone)


def still_waiting(
    expected: Sequence[str],
    have: Collection[str],
    seats: Sequence[SeatLike],
    game: GameLike,
    now: datetime,
) -> list[str]:
    """The one answer to "whom does the turn wait for?", for the clock (early resolution)
    and for everything that tells it (check replies, STATUS, `game show`, the desk): of the
    seats the turn wants orders from (`expected`), those whose orders are not in (`have`),
    that somebody plays (`seats`: the game's) and, unless the game waits for absent seats,
    that are not away at `now`."""
    # Nobody waits for a seat in civil disorder or without a player (see pbem/referee), nor
    # for one abandoned after missed turns (pbem/clock/nmr.py): its orders still count.
    # Nor for a seat the bot plays (pbem/referee/bots.py).
    playing = {s.name: s for s in seats if s.status == SeatStatus.ACTIVE}
    return [
        name
        for name in expected
        if name not in have
        and name in playing
        and (game.wait_for_absent or not is_away(playing[name], game.timezone, now))
    ]


def away_unawaited(
    expected: Sequence[str],
    have: Collection[str],
    seats: Sequence[SeatLike],
    game: GameLike,
    now: datetime,
) -> list[str]:
    """The seats without orders in that the turn does not wait for because they are away:
    what a reply names beside still_waiting, so that nobody reads them as awaited."""
    waiting = set(still_waiting(expected, have, seats, game, now))
    playing = {s.name: s for s in seats if s.status == SeatStatus.ACTIVE}
    return [
        name for name in expected if name not in have and name in playing and name not in waiting
    ]


def add_seat(
    work: Work,
    game: Game,
    name: str,
    address: str,
    password: str,
    security: SecuritySettings,
    *,
    password_hash: str = "",
) -> Seat:
    """A new seat with `password`; or, given `password_hash`, with the password hashed
    already (a JOIN's, hashed when it was asked: its check is stored at its first use)."""
    position = len(work.games.seats_of(game.id))
    row = Seat(game_id=game.id, name=name, position=position, address=address.lower(),
               password_hash=password_hash)  # fmt: skip
    if not password_hash:
        give_password(row, password, security)
    work.games.add(row)
    work.flush()
    return row


def open_turn(
    work: Work,
    game: Game,
    state: dict[str, Any],
    *,
    now: Any,
    previous_deadline: datetime | None = None,
) -> Turn:
    """Store `state` as the pending turn's starting state, with its deadline (a weekly one
    comes after the `previous_deadline` too, see pbem.deadlines.policy)."""
    turn = Turn(
        game_id=game.id,
        number=get_ruleset(game.ruleset).turn_number(state),
        state_before=dumps(state),
        deadline=next_deadline(
            game.deadline_policy,
            utc(now),
            zone=game.timezone,
            previous=utc(previous_deadline) if previous_deadline else None,
        ),
        opened_at=utc(now),
    )
    game.turn = turn.number
    work.games.add(turn, game)
    work.flush()
    return turn
