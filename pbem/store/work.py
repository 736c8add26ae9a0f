"""One unit of work, as the domain sees it: an object per aggregate (a game with its seats,
turns and referees; the archived branches; the outbox and the stopped addresses; the
inbound mail; the site's reading of the games; the audit), each over the unit of work's one
session, which the domain never holds. New rows go in through the aggregate that keeps them
(`work.games.add(seat)`); a loaded row's attributes are changed in place, written at the
next `flush()` or at the commit.

Each store function of a session is implemented once, in its module (pbem.store.games and
the others), and bound here as a method of the same name: `work.games.seats_of(game_id)` is
`pbem.store.games.seats_of(session, game_id)`.

A unit of work also keeps what the domain remembers while it lasts: `work.memo` for the
session, a `PerTransaction` value for its transaction (what a command queued, for a later
command of the same transaction to revise), and the games noted as changed, handed on to the
watchers after the commit (`work.games.note_changed`, pbem.store.changes).

`work_of(session)` is the one Work of a session: the store hands out the Works of the
sessions it opens (pbem.store.engines), and the tests wrap a session they opened themselves.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, Concatenate, Generic, ParamSpec, TypeVar, overload
from weakref import WeakKeyDictionary

from sqlalchemy.orm import SessionTransaction
from sqlmodel import Session

from pbem.store import archive, changes, clock_rows, inbound, outbox_rows, press, site, site_key
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
T = TypeVar("T")


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
    all_games = _on(game_rows.all_games)
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
    first_turn = _on(game_rows.first_turn)
    turns_of = _on(game_rows.turns_of)
    note_changed = _on(changes.note_changed)
    lock_found = _on(game_rows.lock_found)
    lock_with_turn = _on(game_rows.lock_with_turn)
    seats_with_room = _on(game_rows.seats_with_room)
    games_known_to = _on(game_rows.games_known_to)
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
    archived_turns = _on(archive.archived_turns)


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
    count_unsent = _on(outbox_rows.count_unsent)
    next_send_time = _on(outbox_rows.next_send_time)
    reply_due = _on(outbox_rows.reply_due)
    queued_since = _on(outbox_rows.queued_since)
    listed = _on(outbox_rows.listed)
    first_of_kind_to = _on(outbox_rows.first_of_kind_to)
    mailed = _on(outbox_rows.mailed)
    last_queued_at = _on(outbox_rows.last_queued_at)


class Inbound(_Aggregate):
    """The mail received, and the quarantine (pbem.store.inbound)."""

    def add(self, row: InboundMessage | Quarantine) -> None:
        self._session.add(row)

    quarantined = _on(inbound.quarantined)
    first_recorded = _on(inbound.first_recorded)
    waiting_of_games = _on(inbound.waiting_of_games)
    quarantine_entries = _on(inbound.quarantine_entries)
    which_recorded = _on(inbound.which_recorded)
    count_refused = _on(inbound.count_refused)


class Site(_Aggregate):
    """The games as the web archive reads them, and the site's keys."""

    site_key = _on(site_key.site_key)
    game_by_id = _on(site.game_by_id)
    games_by_id = _on(site.games_by_id)
    resolved_turns = _on(site.resolved_turns)
    seat_by_name = _on(site.seat_by_name)
    seat_counts = _on(site.seat_counts)
    index_columns = _on(site.index_columns)
    referee_games = _on(site.referee_games)
    referee_addresses = _on(site.referee_addresses)


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
        """The session, for the store's own tests. The domain never holds one (its queries
        are the aggregates' methods; tests/store/test_storage_stays_in_the_store.py)."""
        return self._session


class PerTransaction(Generic[T]):
    """A value of each root transaction, made by `make` when first asked for: the same
    through a SAVEPOINT, gone with its transaction, committed or rolled back (held weakly), so
    that nothing of one transaction's mail reaches the next."""

    def __init__(self, make: Callable[[], T]) -> None:
        self._make = make
        self._values: WeakKeyDictionary[SessionTransaction, T] = WeakKeyDictionary()

    def of(self, work: Work) -> T:
        """The value of the unit of work's transaction; outside one, a new value kept by
        nobody (what is put in it is forgotten: there is no transaction to revise)."""
        transaction = work._session.get_transaction()
        if transaction is None:
            return self._make()
        if transaction not in self._values:
            self._values[transaction] = self._make()
        return self._values[transaction]


_WORK = "pbem_work"  # in a session's info: its Work


def work_of(session: Session) -> Work:
    """The one Work over `session`."""
    work: Work | None = session.info.get(_WORK)
    if work is None:
        work = session.info[_WORK] = Work(session)
    return work
