"""Telling every seat at once that the pending turn's deadline (or the deadline policy)
changed: a referee moved it, or a new player got more time. (Pausing and resuming have their
own mails, pbem.clock.control; an outage's push-back too, pbem.clock.run.) Each seat
gets one mail with the new time in the game's zone; a seat the turn waits for reads in the
same mail that we have no orders from it yet, which stands in for every reminder whose time
the new deadline has already passed (recorded as sent, so the clock does not send them
again), and the reminders still ahead of the new deadline are armed again. A seat away that
the turn does not wait for is not asked for orders: it reads that the turn does not wait."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from pbem.clock.notices import News, deadline_letter, queue_news
from pbem.config import Settings
from pbem.deadlines.policy import format_duration, parse_offsets
from pbem.games.games import Awaited, awaited
from pbem.store import Game, GameStatus, Seat, Turn, utc
from pbem.store.models import ClockReminder
from pbem.store.work import Work


@dataclass(frozen=True)
class Announcement:
    """One change to tell every seat of: where it came from and why."""

    game: Game
    turn: Turn
    now: datetime
    reason: str
    origin: str  # unique per use: the mails' Message-IDs derive from it


def announce_deadline(
    work: Work,
    settings: Settings,
    news: Announcement,
    *,
    old: datetime | None,
    old_left: int | None = None,
    untold: tuple[str, ...] = (),
) -> Awaited:
    """Mail every seat with an address the new deadline of the turn (its deadline now), but
    the `untold` seats (a new player, whose welcome names it); whom the turn waits for, and
    the seats away it does not wait for (pbem.games.games.awaited, the one answer). An away
    seat is not asked for orders: it gets no reminders while away (the handbook)."""
    game, turn = news.game, news.turn
    ordered = work.games.stored_orders(game.id, turn.number)
    whom = awaited(work, game, turn, now=news.now)
    left = _left(turn.deadline, game, news.now)
    for seat in work.games.seats_of(game.id):
        if seat.name not in untold:
            orders = _orders_fact(seat.name, whom, ordered)
            facts = {"old": old, "old_left": old_left, "orders": orders, "left": left}
            _tell(work, settings, news, seat, **facts)
    _rearm_reminders(work, game, turn, [*whom.waiting, *whom.away], news.now)
    return whom


def _orders_fact(seat: str, whom: Awaited, ordered: Collection[str]) -> str:
    """What the notice says of the seat's orders: "missing" (the turn waits for them),
    "away" (it does not), "in", or nothing (the turn wants none from it)."""
    if seat in whom.waiting:
        return "missing"
    if seat in whom.away:
        return "away"
    # On file is not in for a seat the turn plays without them (civil disorder, the bot's).
    return "in" if seat in ordered and seat in whom.played else ""


def announce_policy(work: Work, settings: Settings, news: Announcement) -> None:
    """Mail every seat that later turns' deadlines follow the game's (new) policy."""
    policy = news.game.deadline_policy
    for seat in work.games.seats_of(news.game.id):
        _tell(work, settings, news, seat, old=news.turn.deadline, orders="", left="", policy=policy)


def _tell(work: Work, settings: Settings, news: Announcement, seat: Seat, **facts: Any) -> None:
    if not seat.address:
        return  # an ejected seat has nobody to tell
    letter = partial(
        deadline_letter,
        settings,
        news.game,
        news.turn.number,
        seat.address,
        news.origin,
        seat=seat.name,
        new=news.turn.deadline,
        reason=news.reason,
        **facts,
    )
    policy = facts.get("policy")
    told = News(
        "deadline policy changed" if policy else f"turn {news.turn.number}: new deadline",
        f"The deadline policy was changed to {policy}."
        if policy
        else f"The deadline of turn {news.turn.number} was moved.",
        news.reason,
    )
    key = (news.game.id, seat.address.lower())
    queue_news(work, settings, key, letter, told, now=news.now)


def _left(deadline: datetime | None, game: Game, now: datetime) -> str:
    """How long until the deadline, as players read it; '' without one (or while paused,
    when the clock stands still)."""
    if deadline is None or game.status == GameStatus.PAUSED:
        return ""
    return format_duration(max(utc(deadline) - utc(now), timedelta(0)))


def _rearm_reminders(work: Work, game: Game, turn: Turn, missing: list[str], now: datetime) -> None:
    """Reminder offsets whose moment the new deadline puts in the past count as sent to the
    seats without orders (this mail told them); those still ahead are sent again."""
    if turn.deadline is None:
        return
    sent = {
        (row.seat, row.before_seconds): row
        for row in work.games.reminders_sent(game.id, turn.number)
    }
    for offset in parse_offsets(game.reminders):
        seconds = int(offset.total_seconds())
        passed = utc(turn.deadline) - offset <= utc(now)
        for name in missing:
            row = sent.get((name, seconds))
            if passed and row is None:
                work.games.add(
                    ClockReminder(
                        game_id=game.id,
                        turn=turn.number,
                        seat=name,
                        before_seconds=seconds,
                        sent_at=utc(now),
                    )
                )
            elif not passed and row is not None:
                work.games.remove(row)
    work.flush()
