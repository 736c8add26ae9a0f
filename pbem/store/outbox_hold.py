"""Holding one outbox row while its mail is handed to the transport: the storage side of the
courier's one unit of work. The courier asks for the row, sends, and records what became of
it; how the row is kept from a second sender while the transport works is this module's
business, and differs with the database:

- PostgreSQL, where several daemons may drain one outbox: the row is claimed with FOR UPDATE
  SKIP LOCKED and stays locked while the transport works, so no other daemon sends it
  meanwhile (it skips the row for the next). The lock is the row's alone. A daemon killed
  mid-send lets go of it with its connection, and another sends the row: at least once, never
  lost.
- SQLite, where one daemon drains (pbem.store.daemon_lock): no transaction is open while the
  transport works, as SQLite's write lock is the whole database's and a slow server must hold
  up nothing else. The row is read, sent, then recorded. A mail sent whose record failed (the
  database failed just then) is remembered in this process and recorded, not sent, the next
  time: without that a read-only or full database sent a player the same mail at every retry
  for as long as it lasted. Forgotten with the process: a mail sent just before a crash goes
  again (at least once, one Message-ID).

A mail sent is read and recorded through a connection alone: on the courier's path, a mail
at a time, a session costs as much again as the statements. Anything else that becomes of the
row (a deferral, a bounce, a stale notice dropped) is done through a session, on the row
locked.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from sqlalchemy import Connection, Engine, Row, Update
from sqlalchemy.orm import defer
from sqlmodel import Session, col, select

from pbem.store.db import reading_rows, transaction
from pbem.store.engines import Databases
from pbem.store.models import Outbox
from pbem.store.outbox_rows import sent
from pbem.store.work import Work, work_of

R = TypeVar("R")
Change = Callable[[Work, Outbox], R]

# The SQLite rows this process sent but could not record as sent, by database and row. Set
# operations are atomic: the courier and `pbem outbox flush` may both drain.
_SENT_UNRECORDED: set[tuple[str, int]] = set()


@dataclass
class HeldRow:
    """One outbox row in the courier's hands. `sending`: the columns asked for, or None when
    the row is gone or another daemon holds it. `sent_unrecorded`: this process sent the mail
    already and could not record it; record it, do not send it again."""

    sending: Row[Any] | None
    sent_unrecorded: bool
    _record_sent: Callable[[Update], bool]
    _change: Callable[[Change[Any]], Any]
    row_id: int

    def record_sent(self, now: datetime) -> bool:
        """Record the row sent at `now`, in one statement (the hot path of a drain), if it
        is still waiting; whether it changed the row (False: another drain recorded it
        meanwhile)."""
        return self._record_sent(sent(self.row_id, now))

    def change(self, act: Change[R]) -> R | None:
        """`act(work, row)` on the row locked, in a unit of work; None if the row is gone."""
        result: R | None = self._change(act)
        return result


@contextmanager
def hold_outbox_row(databases: Databases, row_id: int, columns: Sequence[Any]) -> Iterator[HeldRow]:
    """The row `row_id` held while the block sends its mail (see the module docstring)."""
    db = databases.db
    if db.dialect.name == "postgresql":
        with db.begin() as connection:
            yield _claimed(connection, row_id, columns)
        return
    yield _alone(db, row_id, columns)


def _claimed(connection: Connection, row_id: int, columns: Sequence[Any]) -> HeldRow:
    claim = select(*columns).where(col(Outbox.id) == row_id).with_for_update(skip_locked=True)
    sending = connection.execute(claim).first()

    def record_sent(statement: Update) -> bool:
        return connection.execute(statement).rowcount == 1

    def change(act: Change[R]) -> R | None:
        with Session(bind=connection) as session:
            row = session.get(Outbox, row_id)
            if row is None:
                return None
            done = act(work_of(session), row)
            session.flush()
            return done

    return HeldRow(sending, False, record_sent, change, row_id)


def _alone(db: Engine, row_id: int, columns: Sequence[Any]) -> HeldRow:
    key = (db.url.render_as_string(), row_id)
    with reading_rows(db) as connection:
        sending = connection.execute(select(*columns).where(col(Outbox.id) == row_id)).first()

    def record_sent(statement: Update) -> bool:
        _SENT_UNRECORDED.add(key)  # until the commit: a failure of the database leaves it
        with db.begin() as recording:
            recorded = recording.execute(statement).rowcount == 1
        _SENT_UNRECORDED.discard(key)
        return recorded

    def change(act: Change[R]) -> R | None:
        with transaction(db) as session:
            # The mail itself is not read again: only what became of it is written.
            keep = [defer(Outbox.raw)]  # type: ignore[arg-type]
            row = session.get(Outbox, row_id, with_for_update=True, options=keep)
            return None if row is None else act(work_of(session), row)

    return HeldRow(sending, key in _SENT_UNRECORDED, record_sent, change, row_id)
