"""The clocks of every game: deadlines, grace, reminders, missed turns, absences, pause and
resume, outage push-back. See docs/pipeline.md ("Clocks").

For every pass of `pbem serve` and for the daemon's schedule, two calls, both with an
injected `now`:

- `run_due(service, now) -> ClockSummary`: all clock work due at `now`, each game in its own
  transaction; idempotent (a second call at the same `now` does nothing).
- `next_wakeup(service, now) -> datetime | None`: when the clocks next have work.

For referee commands and the CLI: `pbem.clock.control.pause` and `resume`.

Modules: due (what is due, read-only), run (doing it), turns (resolving a turn), nmr (missed
turns, inside turn resolution), control (pause, resume), notices and announce (the mails),
scheduler (the next wakeup; the daemon's APScheduler jobs are pbem.daemon.schedule's). The
deadline arithmetic is pbem.deadlines'; SET ABSENCE is a mail command (pbem.intake.absence).
"""

from pbem.clock.run import ClockSummary, run_due
from pbem.clock.scheduler import next_wakeup

__all__ = ["ClockSummary", "next_wakeup", "run_due"]
