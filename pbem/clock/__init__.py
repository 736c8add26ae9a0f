"""The clocks of every game: deadlines, grace, reminders, missed turns, absences, pause and
resume, outage push-back. See docs/pipeline.md ("Clocks").

For the serve loop (and `pbem poll`), two calls, both with an injected `now`:

- `run_due(service, now) -> ClockSummary`: all clock work due at `now`, each game in its own
  transaction; idempotent (a second call at the same `now` does nothing).
- `next_wakeup(service, now) -> datetime | None`: when the clocks next have work.

For referee commands and the CLI: `pbem.clock.control.pause` and `resume`.

Modules: policy (pure deadline arithmetic), due (what is due, read-only), run (doing it),
nmr (missed turns, inside turn resolution), absence (SET ABSENCE), control (pause, resume),
notices (the mails), scheduler (GameClock on APScheduler).
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pbem.clock.run import ClockSummary
    from pbem.pipeline.service import Service

# The imports below are made on call: pbem.pipeline.turns uses pbem.clock.due, and the
# modules here use the pipeline, so importing them with the package would be circular.


def run_due(service: Service, now: datetime) -> ClockSummary:
    """All clock work due at `now`; see pbem.clock.run."""
    from pbem.clock.run import run_due as run

    return run(service, now)


def next_wakeup(service: Service, now: datetime) -> datetime | None:
    """The next moment after `now` at which the clocks have work; see pbem.clock.scheduler."""
    from pbem.clock.scheduler import next_wakeup as wakeup

    return wakeup(service, now)


__all__ = ["next_wakeup", "run_due"]
