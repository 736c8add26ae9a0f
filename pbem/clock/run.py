"""One pass of the clocks: everything due at `now`, each game's work in its own transaction.

In this order, so that an outage is noticed before its overdue turns would be resolved:

1. Outage push-back: a turn due by time more than [clock] outage_threshold ago (the daemon
   was not running) gets its deadline moved to now + [clock] outage_grace, and every seat
   and referee is told once.
2. Turns: every due turn is resolved (pbem.clock.turns, with the NMR handling), and then
   every turn that opened due (its held orders all in).
3. Reminders: seats without orders get the reminder of the nearest offset that has come.
4. Retention: the bytes of mail sent more than [outbox] keep_sent_days ago are dropped
   (pbem.games.outbox_prune), a few minutes apart, in batches; never in the middle of a wave.

Every step re-reads what it changes under the game's row lock and is recorded in the same
transaction as its mail, so a second pass at the same `now` does nothing (idempotent) and a
crash at any point loses or repeats nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import partial
from typing import TypeVar

from pbem.clock.due import (
    Clock,
    Facts,
    facts_of,
    reminders_due,
    running_facts,
    sent_reminders,
)
from pbem.clock.notices import outage_letter, queue_once, reminder_letter
from pbem.clock.turns import TurnSummary, resolve_some
from pbem.deadlines.policy import format_duration, parse_duration
from pbem.deadlines.stored import describe
from pbem.games.audit import audit
from pbem.games.outbox_prune import Pruned, prune_when_due
from pbem.games.service import Service
from pbem.logs import log_context
from pbem.store import Game, Seat, Turn, utc
from pbem.store.models import ClockReminder
from pbem.store.work import Work

log = logging.getLogger(__name__)
T = TypeVar("T")


@dataclass
class ClockSummary:
    """What one pass did."""

    moved: list[str] = field(default_factory=list)  # games whose deadline an outage moved
    turns: list[TurnSummary] = field(default_factory=list)
    reminders: int = 0  # reminder mails queued
    failed: list[str] = field(default_factory=list)  # games whose clock work raised
    left: list[str] = field(default_factory=list)  # due games `enough` left for the next call
    pruned: Pruned = field(default_factory=Pruned)  # sent mail whose bytes were dropped
    # The running games' clocks as the pass read them, if it changed none of them (the
    # daemon's schedule then needs no reading of its own); else None. What the pass read,
    # not what it did: left out of comparisons.
    games: list[Clock] | None = field(default=None, compare=False, repr=False)

    @property
    def unfinished(self) -> bool:
        return bool(self.left)

    @property
    def changed(self) -> bool:
        """Did the pass change a game's clock (or fail to look at one)?"""
        return bool(self.moved or self.turns or self.reminders or self.failed or self.left)


def run_due(
    service: Service,
    now: datetime,
    *,
    only: Collection[str] | None = None,
    enough: Callable[[], bool] = lambda: False,
) -> ClockSummary:
    """Do all clock work due at `now` (see the module docstring), in every running game or
    in those `only` names (a deadline's job, a mail that completed a turn's orders). With
    `enough` (a stop asked), turns are resolved until it says so; then `left` names the games
    not reached, and their reminders wait for the next look."""
    summary = ClockSummary()
    threshold = parse_duration(service.settings.clock.outage_threshold)
    # One read of every running game's clock for the whole pass; each change below reads its
    # game again under the game's lock, so a look that went stale meanwhile changes nothing.
    games = _running(service, now, only)
    for game_id in [facts.game.id for facts in games if _overdue(facts, threshold)]:
        if _guarded(service, summary, game_id, partial(_push_back, service, game_id, now)):
            summary.moved.append(game_id)
    if summary.moved:
        games = _running(service, now, only)
    due = [facts.game.id for facts in games if facts.is_due()]
    summary.turns, summary.left = _resolve_all(service, due, now, enough)
    if summary.left:
        return summary
    resolved = {turn.game for turn in summary.turns}  # a new turn: its reminders from scratch
    for game_id in [f.game.id for f in games if f.game.id in resolved or reminders_due(f, set())]:
        sent = _guarded(service, summary, game_id, partial(_remind, service, game_id, now))
        summary.reminders += sent or 0
    summary.pruned = prune_when_due(service, now, enough=enough)
    summary.games = None if summary.changed else games
    return summary


def _resolve_all(
    service: Service, due: list[str], now: datetime, enough: Callable[[], bool]
) -> tuple[list[TurnSummary], list[str]]:
    """Resolve the due turns, and then every turn that opened due: one whose every order was
    in when it opened (held advance orders, pbem.games.held) resolves in the same pass, as
    it would the moment its last order came in, not at the next mail or at its deadline (no
    wakeup is laid for a turn due now). Held orders reach a few turns ahead, so this ends."""
    done: list[TurnSummary] = []
    while due:
        turns, left = resolve_some(service, due, now=now, enough=enough)
        done += turns
        if left:
            return done, left
        due = [turn.game for turn in turns if turn.next_due]
    return done, []


def _running(service: Service, now: datetime, only: Collection[str] | None) -> list[Clock]:
    with service.store.reading() as work:
        return list(running_facts(work, now, only))


def _overdue(facts: Clock, threshold: timedelta) -> bool:
    """Did the deadline pass more than `threshold` ago (the daemon was not running)?"""
    late = facts.overdue_by()
    return late is not None and late > threshold


def _guarded(
    service: Service, summary: ClockSummary, game_id: str, act: Callable[[Work], T]
) -> T | None:
    """`act(work)` in a unit of work of its own: one game's failure must not stop the
    others. It is logged, rolled back whole, and tried again by the next pass."""
    try:
        with service.store.transaction() as work:
            return act(work)
    except Exception:
        log.exception("clock work for game %s failed", game_id)
        summary.failed.append(game_id)
        return None


def _locked_facts(work: Work, game_id: str, now: datetime) -> Facts[Game, Turn, Seat] | None:
    game = work.games.lock(game_id)
    return facts_of(work, game, now) if game is not None else None


def _push_back(service: Service, game_id: str, now: datetime, work: Work) -> bool:
    """Move an overdue deadline to now + outage grace and tell everyone, if still overdue
    once the game is locked (another process may have got here first)."""
    settings = service.settings
    facts = _locked_facts(work, game_id, now)
    late = facts.overdue_by() if facts else None
    if facts is None or late is None or late <= parse_duration(settings.clock.outage_threshold):
        return False
    turn = facts.turn
    old = utc(turn.deadline) if turn.deadline else utc(now)
    turn.deadline = utc(now) + parse_duration(settings.clock.outage_grace)
    work.games.add(turn)
    for address in _everyone(work, game_id):
        letter = outage_letter(settings, facts.game, turn.number, old, turn.deadline, address)
        queue_once(work, settings, letter, now=now)
    zone = facts.game.timezone
    detail = (
        f"turn {turn.number}: deadline {describe(old, zone)} -> {describe(turn.deadline, zone)}"
    )
    audit(work, now, "clock", "deadline-moved", game_id, detail)
    with log_context(game=game_id):
        log.warning(
            "outage: the deadline of turn %d was pushed back from %s to %s: the moderator "
            "was not running when it passed %s ago; every seat and referee is told",
            turn.number,
            _minute(old),
            _minute(turn.deadline),
            format_duration(late),
        )
    return True


def _minute(moment: datetime) -> str:
    return utc(moment).strftime("%Y-%m-%d %H:%M UTC")


def _everyone(work: Work, game_id: str) -> list[str]:
    seats = [seat.address for seat in work.games.seats_of(game_id)]
    referees = [referee.address for referee in work.games.referees_of(game_id)]
    return seats + [address for address in referees if address not in seats]


def _remind(service: Service, game_id: str, now: datetime, work: Work) -> int:
    """Queue and record the reminders due in `game_id`; how many."""
    facts = _locked_facts(work, game_id, now)
    if facts is None:
        return 0
    turn = facts.turn
    due = reminders_due(facts, sent_reminders(work, game_id, turn.number))
    for seat, before in due:
        assert turn.deadline is not None
        letter = reminder_letter(
            service.settings, facts.game, turn.number, turn.deadline, seat, before
        )
        queue_once(work, service.settings, letter, now=now)
        work.games.add(
            ClockReminder(
                game_id=game_id,
                turn=turn.number,
                seat=seat.name,
                before_seconds=int(before.total_seconds()),
                sent_at=utc(now),
            )
        )
    return len(due)
