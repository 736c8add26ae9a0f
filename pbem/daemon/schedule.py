"""The daemon's timers, as APScheduler jobs on a started BackgroundScheduler:

- `game:<id>`, one a game: its next wakeup (deadline plus grace, a reminder, an absence that
  ends), a one-shot date trigger;
- `outbox`: the outbox's next send time (a deferred mail's retry), a one-shot date trigger;
- `safety-poll`: every [service] max_wait_seconds, a pass whatever IDLE says (a server may
  drop an IDLE notice, and the clocks are looked at again);
- `outbox-watch`: every two seconds, a look for mail another process queued (a referee's
  command on the command line), and so for a change to the games it made.

The database is the truth. The date jobs are derived from it at start and again after each
pass and each drain (`refresh_games`, `refresh_outbox`), never kept elsewhere, so a crash or a
second daemon loses nothing: a job that is missing or stale costs at most a safety poll.

A job fires in the scheduler's thread and hands the work on to the thread that owns the
connection it needs, because neither connection may be used from two threads: a pass to the
intake loop (the IMAP connection; `wake_pass`), a drain to the courier (the SMTP sender;
`wake_courier`). The scheduler decides when; the loop and the courier do the work, one pass
and one drain at a time.

The daemon's clock may be injected (tests, `--now`): a job's time is its distance from that
clock's now, laid on the real clock the scheduler runs on.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from apscheduler.executors.pool import ThreadPoolExecutor
from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.triggers.date import DateTrigger
from apscheduler.triggers.interval import IntervalTrigger

from pbem.clock.due import Clock, wakeups, wakeups_of
from pbem.games.outbox_rows import next_send_time
from pbem.games.service import Service
from pbem.store import reading, utc

log = logging.getLogger(__name__)

# A late job (the machine was suspended, the process busy) runs once, not never or twice.
JOB_DEFAULTS = {"coalesce": True, "misfire_grace_time": None, "max_instances": 1}
OUTBOX_LOOK_SECONDS = 2.0
GAME_JOB = "game:"


class DaemonSchedule:
    def __init__(
        self,
        service: Service,
        *,
        clock: Callable[[], datetime],
        safety_seconds: float,
        wake_pass: Callable[[], None],
        wake_courier: Callable[[], None],
        look_outbox: Callable[[], None],
    ) -> None:
        self.service = service
        self._clock = clock
        self._safety_seconds = safety_seconds
        self._wake_pass = wake_pass
        self._wake_courier = wake_courier
        self._look_outbox = look_outbox
        self._moments: dict[str, datetime] = {}  # each game job's wakeup, as last added
        # One worker: the jobs only hand work on, and never run beside one another.
        self.scheduler = BackgroundScheduler(
            timezone=UTC, job_defaults=JOB_DEFAULTS, executors={"default": ThreadPoolExecutor(1)}
        )

    def start(self) -> None:
        every = IntervalTrigger(seconds=self._safety_seconds, timezone=UTC)
        self.scheduler.add_job(self._wake_pass, every, id="safety-poll", name="safety poll")
        look = IntervalTrigger(seconds=OUTBOX_LOOK_SECONDS, timezone=UTC)
        self.scheduler.add_job(self._look_outbox, look, id="outbox-watch", name="outbox watch")
        self.scheduler.start()

    def shutdown(self) -> None:
        if self.scheduler.running:
            # APScheduler 3.11 marks itself stopped without its lock: a date job it is running
            # just then is removed from the wrong list and its thread dies with JobLookupError.
            # Removing the jobs first (under the lock) leaves it nothing to run meanwhile.
            self.scheduler.remove_all_jobs()
            self.scheduler.shutdown(wait=True)

    def refresh_games(self, clocks: list[Clock] | None = None) -> None:
        """Each game's job at its next wakeup, from the database, or from the running games'
        `clocks` if the pass just read them (and changed none: reading every game again cost
        a look a third more at a thousand games); jobs of games with nothing ahead (ended,
        paused, no deadline) are removed."""
        now = self._clock()
        if clocks is not None:
            found = wakeups_of(clocks)
        else:
            with reading(self.service.db) as session:
                found = wakeups(session, now)
        wanted = {GAME_JOB + game_id: moment for game_id, moment in found.items()}
        standing = set()  # game jobs still laid at the moment wanted
        for job in self.scheduler.get_jobs():
            if not job.id.startswith(GAME_JOB):
                continue
            if job.id not in wanted:
                job.remove()
            elif self._moments.get(job.id) == wanted[job.id]:
                standing.add(job.id)
        # A job that stands at the same moment is left as it is: adding a thousand again took
        # a tenth of a look at a thousand games. One that ran is gone, and so added again.
        for job_id, moment in sorted(wanted.items()):
            if job_id not in standing:
                self._at(job_id, moment, now, self._wake_pass, f"wake up for game {job_id[5:]}")
        self._moments = wanted

    def refresh_outbox(self) -> None:
        """The outbox's job at its next send time, from the database; none when nothing waits
        (new mail wakes the courier by other ways: a pass, the outbox watch)."""
        now = self._clock()
        with reading(self.service.db) as session:
            due = next_send_time(session)
        if due is None:
            if self.scheduler.get_job("outbox"):
                self.scheduler.remove_job("outbox")
            return
        self._at("outbox", due, now, self._wake_courier, "next outbox retry")

    def due_times(self) -> dict[str, datetime]:
        """When each job runs next (real time), for the logs and the tests."""
        times = {job.id: getattr(job, "next_run_time", None) for job in self.scheduler.get_jobs()}
        return {job_id: when for job_id, when in times.items() if when is not None}

    def _at(
        self, job_id: str, moment: datetime, now: datetime, run: Callable[[], None], name: str
    ) -> None:
        delay = max(timedelta(0), utc(moment) - utc(now))
        when = datetime.now(UTC) + delay
        trigger = DateTrigger(run_date=when, timezone=UTC)
        # next_run_time given: a scheduler not started yet (tests) holds the job as pending,
        # with no run time of its own until start.
        self.scheduler.add_job(
            run, trigger, id=job_id, name=name, replace_existing=True, next_run_time=when
        )
        log.debug("%s at %s (in %s)", name, utc(moment), delay)
