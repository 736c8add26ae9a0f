"""One unit of work, as the domain sees it: an object per aggregate (a game with its seats,
turns and referees; the archived branches; the outbox and the stopped addresses; the
inbound mail; the site's reading of the games; the audit), each over the unit of work's one
session, which the domain never holds. New rows go in through the aggregate that keeps them
(`work.games.add(seat)`); a loaded row's attributes are changed in place, written at the
next `flush()` or at the commit.

Each store function of a session is implemented once, in its module (pbem.store.games and
the others), and bound here as a method of the same name: `work.games.seats_of(game_id)` is
`pbem.store.games.seats_of(session, game_id)`.

`work_of(session)` is the one Work of a session, while code that still passes the session
around lives beside code that passes the Work (docs/architecture.md, the storage interface).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, Concatenate, Generic, ParamSpec, TypeVar, overload

from sqlalchemy.orm import SessionTransaction
from sqlmodel import Session

from pbem.store import archive, clock_rows, inbound, outbox_rows, press, site_key
from pbem.store import games as game_rows
from pbem.store.audit import AuditTrail
from pbem.store.db import savepoint
from pbem.store.models import (
    ClockReminder,
    Game,
    InboundMessage,
    JoinRequest,
    MailStop,
    OrderSet,
    Outbox,
    Press,
    Quarantine,
    Referee,
    RefereeNote,
    Seat,
    Turn,
)

P = ParamSpec("P")
R = TypeVar("R")


class _Aggregate:
    def __init__(self, session: Session) -> None:
        self._session = session


class _Bound(Generic[P, R]):
    """A store function of a session, as a method of an aggregate over that session."""

    def __init__(self, function: Callable[Concatenate[Session, P], R]) -> None:
        self._function = function

    def __set_name__(self, owner: type, name: str) -> None:
        self._name = name

    @overload
    def __get__(self, aggregate: None, owner: type) -> _Bound[P, R]: ...
    @overload
    def __get__(self, aggregate: _Aggregate, owner: type | None = None) -> Callable[P, R]: ...
    def __get__(
        self, aggregate: _Aggregate | None, owner: type | None = None
    ) -> _Bound[P, R] | Callable[P, R]:
        if aggregate is None:  # looked up on the class (a test replacing it)
            return self
        # Kept by the aggregate, so that the next call finds it without this descriptor; a
        # partial, not a function of ours: a call through it is one call, the store's.
        bound: Callable[P, R] = partial(self._function, aggregate._session)
        aggregate.__dict__[self._name] = bound
        return bound


_on = _Bound

_GameRow = (
    Game | Seat | Turn | Referee | RefereeNote | OrderSet | JoinRequest | ClockReminder | Press
)


class Games(_Aggregate):
    """The game aggregate: games, seats, turns, orders, referees, notes, joins, press."""

    def add(self, *rows: _GameRow) -> None:
        """New rows of the aggregate (or loaded ones, written again at the next flush)."""
        self._session.add_all(rows)

    def remove(self, row: OrderSet | Seat | JoinRequest | Referee | Turn | ClockReminder) -> None:
        """A row of the aggregate, deleted at the next flush."""
        self._session.delete(row)

    lock = _on(game_rows.lock)
    lock_fresh = _on(game_rows.lock_fresh)
    referees_of = _on(game_rows.referees_of)
    game_named = _on(game_rows.game_named)
    seats_of = _on(game_rows.seats_of)
    turn_of = _on(game_rows.turn_of)
    last_resolved_turn = _on(game_rows.last_resolved_turn)
    stored_orders = _on(game_rows.stored_orders)
    played_turns = _on(game_rows.played_turns)
    has_note = _on(game_rows.has_note)
    reminders_sent = _on(game_rows.reminders_sent)
    seats_in_play_at = _on(game_rows.seats_in_play_at)
    seat_keys_at = _on(game_rows.seat_keys_at)
    refereed_by = _on(game_rows.refereed_by)
    turns_after = _on(game_rows.turns_after)
    edit_notes = _on(game_rows.edit_notes)
    last_orders_before = _on(game_rows.last_orders_before)
    public_notes = _on(game_rows.public_notes)
    times_played_before = _on(game_rows.times_played_before)
    running_rows = _on(clock_rows.running_rows)
    lock_found = _on(game_rows.lock_found)
    lock_with_turn = _on(game_rows.lock_with_turn)
    seats_with_room = _on(game_rows.seats_with_room)
    games_known_to = _on(game_rows.games_known_to)
    first_turn = _on(game_rows.first_turn)
    open_for_signup = _on(game_rows.open_for_signup)
    seats_at = _on(game_rows.seats_at)
    seats_of_games = _on(game_rows.seats_of_games)
    join_request = _on(game_rows.join_request)
    joins_from = _on(game_rows.joins_from)
    forget_joins_from = _on(game_rows.forget_joins_from)
    seats_moving_to = _on(game_rows.seats_moving_to)
    press_by_message_ids = _on(press.press_by_message_ids)
    wrote_anonymously = _on(press.wrote_anonymously)
    press_sent_since = _on(press.press_sent_since)


class Branches(_Aggregate):
    """A game's turns rolled back, kept as archived branches (pbem.store.archive)."""

    latest_branch = _on(archive.latest_branch)
    archive_from = _on(archive.archive_from)
    live_orders_from = _on(archive.live_orders_from)
    branch_end = _on(archive.branch_end)
    times_archived = _on(archive.times_archived)
    archived_turn = _on(archive.archived_turn)
    restore_orders = _on(archive.restore_orders)


class Outgoing(_Aggregate):
    """The outbox and the addresses stopped from it (pbem.store.outbox_rows)."""

    def add(self, row: Outbox | MailStop) -> None:
        self._session.add(row)

    next_rows = _on(outbox_rows.next_rows)
    last_sent_before = _on(outbox_rows.last_sent_before)
    flush_deferred = _on(outbox_rows.flush_deferred)
    count_to = _on(outbox_rows.count_to)
    drop_topic = _on(outbox_rows.drop_topic)
    drop_topics_starting = _on(outbox_rows.drop_topics_starting)
    drop_waiting_to = _on(outbox_rows.drop_waiting_to)
    is_stop_recorded = _on(outbox_rows.is_stop_recorded)
    forget_stop = _on(outbox_rows.forget_stop)
    stopped_addresses = _on(outbox_rows.stopped_addresses)
    take_back_unsent = _on(outbox_rows.take_back_unsent)
    is_queued = _on(outbox_rows.is_queued)
    mailed = _on(outbox_rows.mailed)
    last_queued_at = _on(outbox_rows.last_queued_at)


class Inbound(_Aggregate):
    """The mail received, and the quarantine (pbem.store.inbound)."""

    def add(self, row: InboundMessage | Quarantine) -> None:
        self._session.add(row)

    quarantined = _on(inbound.quarantined)
    quarantine_entries = _on(inbound.quarantine_entries)
    which_recorded = _on(inbound.which_recorded)


class Site(_Aggregate):
    """The games as the web archive reads them, and the site's keys."""

    site_key = _on(site_key.site_key)


class Work:
    """One unit of work: its aggregates, over one session."""

    def __init__(self, session: Session) -> None:
        self._session = session
        self.games = Games(session)
        self.branches = Branches(session)
        self.outbox = Outgoing(session)
        self.inbound = Inbound(session)
        self.site = Site(session)
        self.audit = AuditTrail(session)

    def flush(self) -> None:
        """Write what the unit of work changed so far (rows added, attributes set), so that
        its next reads see it and new rows have their ids; the session does not autoflush."""
        self._session.flush()

    def savepoint(self) -> SessionTransaction:
        """A part of the unit of work that can fail alone (pbem.store.db.savepoint)."""
        return savepoint(self._session)

    @property
    def memo(self) -> dict[Any, Any]:
        """What the domain keeps for the rest of this unit of work (a cache of what it read,
        what it queued): gone with the unit of work."""
        return self._session.info

    @property
    def session(self) -> Session:
        """The session, for the hooks still outside the store that follow its commits
        (pbem.games.changes, pbem.games.per_transaction) and for the callers not converted
        yet. Not for queries: those are the aggregates' methods."""
        return self._session


_WORK = "pbem_work"  # in a session's info: its Work


def work_of(session: Session) -> Work:
    """The one Work over `session`."""
    work: Work | None = session.info.get(_WORK)
    if work is None:
        work = session.info[_WORK] = Work(session)
    return work
