"""GameClock: every running game's next wakeup as an APScheduler job, rebuilt from the database.

The database is the truth: the clock keeps nothing of its own, so a restart loses no job.
`rebuild(now)` replaces every job with one per game, a one-shot date trigger at that game's
next wakeup (its deadline plus grace, its next reminder, the end of a seat's absence), and
`next_wakeup()` is the earliest of them. The serve loop rebuilds after every pass and sleeps
until `next_wakeup()` (or until mail comes); it may instead `start(on_wakeup)` the
scheduler, which then calls `on_wakeup()` from its own thread when a job's time comes.

APScheduler (3.x) details that matter here: jobs added before `start()` wait in the
scheduler's pending list with the `next_run_time` we give them, so a clock that is never
started is a plain, thread-free job list; `coalesce=True` and `misfire_grace_time=None` make
a late job (the process was busy or suspended) run once rather than be skipped or repeated.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from apscheduler.job import Job
from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.triggers.date import DateTrigger

from pbem.clock.due import wakeups
from pbem.games.service import Service
from pbem.store import transaction, utc

JOB_DEFAULTS = {"coalesce": True, "misfire_grace_time": None, "max_instances": 1}


class GameClock:
    def __init__(self, service: Service) -> None:
        self.service = service
        self.scheduler = BackgroundScheduler(timezone=UTC, job_defaults=JOB_DEFAULTS)
        self._on_wakeup: Callable[[], None] | None = None

    def rebuild(self, now: datetime) -> None:
        """Replace every job with one per game, from the database as it is at `now`."""
        with transaction(self.service.db) as session:
            found = wakeups(session, now)
        self.scheduler.remove_all_jobs()
        for game_id, moment in sorted(found.items()):
            self.scheduler.add_job(
                self._fire,
                DateTrigger(run_date=moment, timezone=UTC),
                args=(game_id,),
                id=game_id,
                name=f"wake up for game {game_id}",
                next_run_time=moment,
            )

    def jobs(self) -> dict[str, datetime]:
        """Each game's wakeup, as the scheduler holds it."""
        return {job.id: utc(_run_time(job)) for job in self.scheduler.get_jobs()}

    def next_wakeup(self) -> datetime | None:
        return min(self.jobs().values(), default=None)

    def start(self, on_wakeup: Callable[[], None]) -> None:
        """Run the jobs on the scheduler's thread: each calls `on_wakeup()` at its time
        (which should run a pass, and then `rebuild`)."""
        self._on_wakeup = on_wakeup
        self.scheduler.start()

    def shutdown(self) -> None:
        if self.scheduler.running:
            self.scheduler.shutdown(wait=True)

    def _fire(self, game_id: str) -> None:
        if self._on_wakeup is not None:
            self._on_wakeup()


def _run_time(job: Job) -> datetime:
    moment = job.next_run_time
    assert isinstance(moment, datetime), "every clock job has a run time"
    return moment


def next_wakeup(service: Service, now: datetime) -> datetime | None:
    """The next moment after `now` at which any game's clock has work (None: no deadline
    anywhere). Work due at `now` or before is run_due's, which the caller runs every pass."""
    clock = GameClock(service)
    clock.rebuild(now)
    return clock.next_wakeup()
