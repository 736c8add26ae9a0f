"""Pause and resume a game: small functions for the CLI and for referee commands.

Both work inside the caller's transaction (they lock the game row), write an audit entry and
(unless told not to) queue a notice to every seat. A paused game has the status "paused" and
keeps the time its pending turn had left (paused_left): resuming sets the deadline that far
after the moment of resuming. While paused, no turn resolves, no reminder goes out, no outage
moves its deadline; orders that come meanwhile are kept for the turn that resumes
(pbem.intake.orders), and a deadline moved meanwhile keeps its change (pbem.referee.clock).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import partial

from pbem.clock.notices import News, pause_letter, queue_news
from pbem.config import Settings
from pbem.errors import PbemError
from pbem.games.audit import audit
from pbem.store import Game, GameStatus, Turn, utc
from pbem.store.work import Work


class ClockError(PbemError, ValueError):
    """A pause or resume that cannot be done; the message says why."""


def pause(
    work: Work,
    settings: Settings,
    game_id: str,
    *,
    now: datetime,
    actor: str,
    reason: str,
    notify: bool = True,
) -> Game:
    """Pause the running game `game_id`, keeping its turn's remaining time."""
    game, turn = _locked(work, game_id)
    if game.status != GameStatus.RUNNING:
        raise ClockError(f"game {game.id} is {game.status}: only a running game pauses")
    game.status = GameStatus.PAUSED
    game.paused_at = utc(now)
    # A deadline already passed (the turn is in its grace) keeps no time: it resumes due.
    left = max(utc(turn.deadline) - utc(now), timedelta(0)) if turn.deadline else None
    game.paused_left = int(left.total_seconds()) if left is not None else None
    work.games.add(game)
    if notify:
        tell(work, settings, game, turn, paused=True, reason=reason, now=now)
    audit(work, now, actor, "game-paused", game.id, reason)
    return game


def resume(
    work: Work,
    settings: Settings,
    game_id: str,
    *,
    now: datetime,
    actor: str,
    reason: str = "",
    notify: bool = True,
) -> Game:
    """Resume the paused game `game_id`: its turn's deadline becomes now plus the time it
    had left when paused (a game paused with no recorded time keeps its deadline)."""
    game, turn = _locked(work, game_id)
    if game.status != GameStatus.PAUSED:
        raise ClockError(f"game {game.id} is {game.status}, not paused")
    if game.paused_left is not None:
        turn.deadline = utc(now) + timedelta(seconds=game.paused_left)
        work.games.add(turn)
    game.status = GameStatus.RUNNING
    game.paused_at = None
    game.paused_left = None
    work.games.add(game)
    if notify:
        tell(work, settings, game, turn, paused=False, reason=reason, now=now)
    audit(work, now, actor, "game-resumed", game.id, reason)
    return game


def _locked(work: Work, game_id: str) -> tuple[Game, Turn]:
    game = work.games.lock(game_id.lower())
    if game is None:
        raise ClockError(f"there is no game {game_id}")
    turn = work.games.turn_of(game.id, game.turn)
    if turn is None or turn.resolved_at is not None:
        raise ClockError(f"game {game.id} is {game.status}: it has no pending turn")
    return game, turn


def tell(
    work: Work,
    settings: Settings,
    game: Game,
    turn: Turn,
    *,
    paused: bool,
    reason: str,
    now: datetime,
) -> None:
    """Mail every seat that the game is paused, or running again with `turn` pending (one
    mail a seat with the other clock news of the transaction: pbem.clock.notices.queue_news)."""
    what = "paused" if paused else "resumed"
    news = News(f"game {what}", f"Game {game.id} was {what} at turn {turn.number}.", reason)
    for seat in work.games.seats_of(game.id):
        if not seat.address:
            continue
        letter = partial(
            pause_letter,
            settings,
            game,
            seat.address,
            paused=paused,
            turn=turn.number,
            reason=reason,
            deadline=turn.deadline,
            at=now,
        )
        key = (game.id, seat.address.lower())
        queue_news(work, settings, key, letter, news, now=now)
