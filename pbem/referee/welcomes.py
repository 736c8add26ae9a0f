"""The mails that give a seat to a new player (a referee's `replace`), kept true until they are
sent: a welcome names the pending deadline and the orders on file for the seat, and a later
command of the same transaction (a referee mail's DEADLINE or RESUME after its REPLACE, or
its ORDERS for the seat) may change them. The welcome is then written
again with the deadline as it is, and the newcomer gets no notice of a change to a deadline
they were never told (docs/referee.md)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import datetime

from pbem.config import Settings
from pbem.games.outbox import Letter, queue
from pbem.store import Outbox
from pbem.store.work import PerTransaction, Work

Rebuild = Callable[[], str]  # the welcome's body, from the database as it is now

# The welcomes queued in a transaction: game -> seat -> (the letter queued, its row, how to
# write its body again).
_WELCOMES: PerTransaction[dict[str, dict[str, tuple[Letter, int, Rebuild]]]] = PerTransaction(dict)


def remember(work: Work, letter: Letter, row: Outbox, seat: str, rebuild: Rebuild) -> None:
    """A welcome to `seat` was queued as `row`: write it again should the deadline move."""
    if row.id is None or letter.game_id is None:
        return
    _WELCOMES.of(work).setdefault(letter.game_id, {})[seat] = (letter, row.id, rebuild)


def welcomed(work: Work, game_id: str) -> tuple[str, ...]:
    """The seats of `game_id` given to a new player in this transaction."""
    return tuple(_WELCOMES.of(work).get(game_id, {}))


def renew(work: Work, settings: Settings, game_id: str, *, now: datetime) -> None:
    """Write the game's welcomes of this transaction again, from the database as it is now
    (not sent yet: the transaction has not committed)."""
    seats = _WELCOMES.of(work).get(game_id, {})
    for seat, (letter, row_id, rebuild) in list(seats.items()):
        # The row is gone if a refused command's SAVEPOINT was undone.
        if not work.outbox.take_back_unsent(row_id):
            seats.pop(seat)
            continue
        again = replace(letter, body=rebuild())
        queued = queue(work, settings, again, now=now)
        seats[seat] = (again, queued.id or row_id, rebuild)
