"""When the clocks next have work: the earliest of every running game's next wakeup (its
deadline plus grace, its next reminder, the end of a seat's absence), from the database.

The daemon schedules each game's wakeup as an APScheduler job of its own
(pbem.daemon.schedule); this is the same question asked once, for `pbem game show`, the
tests and anyone who wants the answer without a scheduler."""

from __future__ import annotations

from datetime import datetime

from pbem.clock.due import wakeups
from pbem.games.service import Service


def next_wakeup(service: Service, now: datetime) -> datetime | None:
    """The next moment after `now` at which any game's clock has work (None: no deadline
    anywhere). Work due at `now` or before is run_due's, which the caller runs every pass."""
    with service.store.transaction() as work:
        return min(wakeups(work, now).values(), default=None)
