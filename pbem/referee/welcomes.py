"""The mails that give a seat to a new player (a referee's `replace`), kept true until they are
sent: a welcome names the pending deadline, and a later command of the same transaction (a
referee mail's DEADLINE or RESUME after its REPLACE) may move it. The welcome is then written
again with the deadline as it is, and the newcomer gets no notice of a change to a deadline
they were never told (docs/referee.md)."""

from __future__ import annotations

import weakref
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime

from sqlalchemy.orm import SessionTransaction
from sqlmodel import Session

from pbem.config import Settings
from pbem.games.outbox import Letter, queue
from pbem.store import Outbox
from pbem.store.outbox_rows import take_back_unsent

Rebuild = Callable[[], str]  # the welcome's body, from the database as it is now

# The welcomes queued in a transaction, by its root transaction (held weakly: gone with it):
# game -> seat -> (the letter queued, its row, how to write its body again).
_WELCOMES: weakref.WeakKeyDictionary[
    SessionTransaction, dict[str, dict[str, tuple[Letter, int, Rebuild]]]
] = weakref.WeakKeyDictionary()


def remember(session: Session, letter: Letter, row: Outbox, seat: str, rebuild: Rebuild) -> None:
    """A welcome to `seat` was queued as `row`: write it again should the deadline move."""
    transaction = session.get_transaction()
    if transaction is None or row.id is None or letter.game_id is None:
        return
    games = _WELCOMES.setdefault(transaction, {})
    games.setdefault(letter.game_id, {})[seat] = (letter, row.id, rebuild)


def welcomed(session: Session, game_id: str) -> tuple[str, ...]:
    """The seats of `game_id` given to a new player in this transaction."""
    transaction = session.get_transaction()
    found = _WELCOMES.get(transaction, {}) if transaction is not None else {}
    return tuple(found.get(game_id, {}))


def renew(session: Session, settings: Settings, game_id: str, *, now: datetime) -> None:
    """Write the game's welcomes of this transaction again, from the database as it is now
    (not sent yet: the transaction has not committed)."""
    transaction = session.get_transaction()
    if transaction is None:
        return
    seats = _WELCOMES.get(transaction, {}).get(game_id, {})
    for seat, (letter, row_id, rebuild) in list(seats.items()):
        # The row is gone if a refused command's SAVEPOINT was undone.
        if not take_back_unsent(session, row_id):
            seats.pop(seat)
            continue
        again = replace(letter, body=rebuild())
        queued = queue(session, settings, again, now=now)
        seats[seat] = (again, queued.id or row_id, rebuild)
