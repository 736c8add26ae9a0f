"""The daemon's one clock: APScheduler jobs on a started BackgroundScheduler, each of which
wakes a runner (pbem.daemon.runners) and does no work of its own:

- `game:<id>`, one a game: its next wakeup (deadline plus grace, a reminder, an absence that
  ends), a one-shot date trigger, wakes the clocks for that game;
- `outbox`: the outbox's next send time (a deferred mail's retry), wakes the courier;
- `safety-poll`: every [service] max_wait_seconds, wakes intake (a server may drop an IDLE
  notice) and the clocks for every game;
- `outbox-watch`: every OUTBOX_LOOK_SECONDS, a look for mail queued since the last look: the
  courier sends it, and the clocks look at the games of its bulk mail (another process, a
  referee's command on the command line, may have changed them; a reply answers a mail, and
  the intake that took it in woke the clocks itself if it made work due);
- `retry:<runner>`: a runner's next try after work that failed as a whole;
- `look-again`: intake's next look when every mail it saw was in another daemon's hands.

The database is the truth. The game and outbox jobs are derived from it at start and after
each look of the clocks and each drain (`renew_games`, `refresh_outbox`), never kept
elsewhere, so a crash or a second daemon loses nothing: a job that is missing or stale costs
at most a safety poll.

The daemon's clock may be injected (tests, `--now`): a job's time is its distance from that
clock's now, laid on the real clock the scheduler runs on.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from apscheduler.executors.pool import ThreadPoolExecutor
from apscheduler.jobstores.base import JobLookupError
from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.triggers.date import DateTrigger
from apscheduler.triggers.interval import IntervalTrigger

from pbem.clock.due import Clock, wakeups, wakeups_of
from pbem.games.service import Service
from pbem.store import utc

log = logging.getLogger(__name__)

# A late job (the machine was suspended, the process busy) runs once, not never or twice.
JOB_DEFAULTS = {"coalesce": True, "misfire_grace_time": None, "max_instances": 1}
OUTBOX_LOOK_SECONDS = 2.0
# Mail another daemon has in hand (PostgreSQL, several daemons) is looked at again this long
# after: it is marked done or let go of within a mail's time, and looking at once would only
# fetch it again.
ELSEWHERE_SECONDS = 0.2
GAME_JOB = "game:"


@dataclass(frozen=True)
class Woken:
    """What the schedule's jobs wake: each runner's alarm."""

    mail_in: Callable[[], None]
    clocks: Callable[..., None]  # (*games): those games, or with none every game
    courier: Callable[[], None]


class DaemonSchedule:
    def __init__(
        self,
        service: Service,
        *,
        clock: Callable[[], datetime],
        safety_seconds: float,
        wake: Woken,
    ) -> None:
        self.service = service
        self._clock = clock
        self._safety_seconds = safety_seconds
        self.wake = wake
        self._moments: dict[str, datetime] = {}  # each game job's wakeup, as last added
        self._watch = OutboxWatch(service, wake)
        # One worker: the jobs only wake runners, and never run beside one another.
        self.scheduler = BackgroundScheduler(
            timezone=UTC, job_defaults=JOB_DEFAULTS, executors={"default": ThreadPoolExecutor(1)}
        )

    def start(self) -> None:
        every = IntervalTrigger(seconds=self._safety_seconds, timezone=UTC)
        self.scheduler.add_job(self._safety_poll, every, id="safety-poll", name="safety poll")
        look = IntervalTrigger(seconds=OUTBOX_LOOK_SECONDS, timezone=UTC)
        self._watch()  # where the queue stands: what was queued before goes by the first look
        self.scheduler.add_job(self._watch, look, id="outbox-watch", name="outbox watch")
        self.scheduler.start()

    def shutdown(self) -> None:
        if self.scheduler.running:
            # APScheduler 3.11 marks itself stopped without its lock: a date job it is running
            # just then is removed from the wrong list and its thread dies with JobLookupError.
            # Removing the jobs first (under the lock) leaves it nothing to run meanwhile.
            self.scheduler.remove_all_jobs()
            self.scheduler.shutdown(wait=True)

    def _safety_poll(self) -> None:
        self.wake.mail_in()
        self.wake.clocks()

    def retry(self, runner: str, seconds: float, wake: Callable[[], None]) -> None:
        """Wake `runner` again in `seconds` (after work that failed as a whole)."""
        self._in(f"retry:{runner}", seconds, wake, f"{runner}: next try")

    def look_again(self) -> None:
        """Wake intake in ELSEWHERE_SECONDS: every mail it saw was in another daemon's hands."""
        self._in("look-again", ELSEWHERE_SECONDS, self.wake.mail_in, "look again at the inbox")

    def renew_games(
        self, clocks: list[Clock] | None = None, only: frozenset[str] | None = None
    ) -> None:
        """Each game's job at its next wakeup, from the database, or from the running games'
        `clocks` if the look just read them and changed none; with `only`, the jobs of those
        games alone. Jobs of games with nothing ahead (ended, paused, no deadline) are
        removed."""
        now = self._clock()
        if clocks is not None:
            found = wakeups_of(clocks)
        else:
            with self.service.store.reading() as work:
                found = wakeups(work, now, only)
        wanted = {GAME_JOB + game_id: moment for game_id, moment in found.items()}
        looked = None if only is None else {GAME_JOB + game_id for game_id in only}
        standing = set()  # game jobs still laid at the moment wanted
        for job in self.scheduler.get_jobs():
            if not job.id.startswith(GAME_JOB) or (looked is not None and job.id not in looked):
                continue
            if job.id not in wanted:
                self._remove(job.id)
                self._moments.pop(job.id, None)
            elif self._moments.get(job.id) == wanted[job.id]:
                standing.add(job.id)
        # A job that stands at the same moment is left as it is (adding a thousand again
        # costs); one that ran is gone, and so added again.
        for job_id, moment in sorted(wanted.items()):
            if job_id not in standing:
                self._at(
                    job_id,
                    moment,
                    now,
                    self._game_wake(job_id[len(GAME_JOB) :]),
                    f"wake up for game {job_id[len(GAME_JOB) :]}",
                )
        if only is None:
            self._moments = wanted
        else:
            self._moments.update(wanted)

    def _game_wake(self, game_id: str) -> Callable[[], None]:
        return lambda: self.wake.clocks(game_id)

    def refresh_outbox(self) -> None:
        """The outbox's job at its next send time, from the database; none when nothing waits
        (new mail wakes the courier by other ways: a runner, the outbox watch)."""
        now = self._clock()
        with self.service.store.reading() as work:
            due = work.outbox.next_send_time()
        if due is None:
            self._remove("outbox")
            return
        self._at("outbox", due, now, self.wake.courier, "next outbox retry")

    def _remove(self, job_id: str) -> None:
        """The job gone, if it is still there: APScheduler removes a date job itself once it
        ran, which it may do (in its own thread) between our reading of the jobs and this."""
        with suppress(JobLookupError):
            self.scheduler.remove_job(job_id)

    def due_times(self) -> dict[str, datetime]:
        """When each job runs next (real time), for the logs and the tests."""
        times = {job.id: getattr(job, "next_run_time", None) for job in self.scheduler.get_jobs()}
        return {job_id: when for job_id, when in times.items() if when is not None}

    def _at(
        self, job_id: str, moment: datetime, now: datetime, run: Callable[[], None], name: str
    ) -> None:
        self._in(job_id, (utc(moment) - utc(now)).total_seconds(), run, name)
        log.debug("%s at %s", name, utc(moment))

    def _in(self, job_id: str, seconds: float, run: Callable[[], None], name: str) -> None:
        when = datetime.now(UTC) + timedelta(seconds=max(0.0, seconds))
        trigger = DateTrigger(run_date=when, timezone=UTC)
        # next_run_time given: a scheduler not started yet (tests) holds the job as pending,
        # with no run time of its own until start.
        self.scheduler.add_job(
            run, trigger, id=job_id, name=name, replace_existing=True, next_run_time=when
        )


class OutboxWatch:
    """The schedule's outbox watch: mail queued since the last look (by this daemon's runners,
    or by another process: a referee's command on the command line, `pbem game pause`) goes
    out now, and the clocks look at the games of its bulk mail, whose clocks that process may
    have changed (never for a reply: order mail wakes no look by it). Mail waiting for a
    retry or the rate limit has its own job."""

    def __init__(self, service: Service, wake: Woken) -> None:
        self.service = service
        self.wake = wake
        self.seen: int | None = None  # the newest row at the last look; None: no look yet

    def __call__(self) -> None:
        try:
            with self.service.store.reading() as work:
                newest, games = work.outbox.queued_since(self.seen)
        except Exception:  # noqa: BLE001 - the database away: the runners will say so
            return
        if self.seen is not None and newest > self.seen:
            self.wake.courier()
            if games:
                self.wake.clocks(*games)
        self.seen = newest
