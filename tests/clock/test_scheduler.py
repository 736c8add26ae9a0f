"""GameClock: one APScheduler job per game at its next wakeup, rebuilt from the database, so
a new clock on the same database (a restart) has the same jobs and the same next wakeup."""

from __future__ import annotations

import threading
from datetime import datetime

from apscheduler.events import EVENT_JOB_EXECUTED, EVENT_JOB_REMOVED, JobEvent

from pbem.clock import next_wakeup, run_due
from pbem.clock.scheduler import GameClock
from pbem.games.service import Service
from tests.clock.support import DEADLINE, HOUR, clock_game, command, orders
from tests.conftest import NOW


def _games(service: Service) -> None:
    clock_game(service, reminders="24h,2h")  # g1: first wakeup, the 24h reminder
    clock_game(service, game="g2", grace="2h")  # g2: its deadline plus grace
    clock_game(service, game="g3", deadline_policy="none")  # g3: nothing to wake up for


def test_one_job_per_game_at_its_next_wakeup(service: Service) -> None:
    _games(service)
    clock = GameClock(service)
    clock.rebuild(NOW)
    assert clock.jobs() == {"g1": DEADLINE - 24 * HOUR, "g2": DEADLINE + 2 * HOUR}
    assert clock.next_wakeup() == DEADLINE - 24 * HOUR
    assert [job.name for job in clock.scheduler.get_jobs()] == [
        "wake up for game g1",
        "wake up for game g2",
    ]


def test_a_new_clock_on_the_same_database_has_the_same_jobs(service: Service) -> None:
    _games(service)
    first = GameClock(service)
    first.rebuild(NOW + HOUR)
    restarted = GameClock(Service(service.db, service.settings))
    restarted.rebuild(NOW + HOUR)
    assert restarted.jobs() == first.jobs()
    assert next_wakeup(service, NOW + HOUR) == first.next_wakeup() == DEADLINE - 24 * HOUR


def test_the_wakeups_move_on_as_the_work_is_done(service: Service) -> None:
    _games(service)
    orders(service, "alice", "ADD 1", NOW)
    at = DEADLINE - 24 * HOUR
    run_due(service, at)  # bob's 24h reminder
    assert next_wakeup(service, at) == DEADLINE - 2 * HOUR
    orders(service, "bob", "ADD 1", at)  # g1 is resolved early by the next pass
    run_due(service, at)
    assert jobs_at(service, at) == {
        "g1": DEADLINE,  # turn 2, due 48h after it opened: its 24h reminder
        "g2": DEADLINE + 2 * HOUR,
    }


def test_an_absence_end_is_a_wakeup(service: Service) -> None:
    clock_game(service, deadline_policy="none")
    command(service, "bob", "SET ABSENCE 2026-03-01", NOW)
    assert next_wakeup(service, NOW) == NOW + 12 * HOUR  # midnight after 1 March, UTC
    assert next_wakeup(service, NOW + 12 * HOUR) is None


def test_a_started_clock_runs_a_job_whose_time_has_come(service: Service) -> None:
    # The test's `now` lies before the real clock, so APScheduler finds both jobs late; with
    # misfire_grace_time=None it still runs each, once, and drops it (a one-shot trigger).
    _games(service)
    clock = GameClock(service)
    clock.rebuild(NOW)
    woken: list[str] = []
    seen: list[int] = []
    done = threading.Event()

    def listen(event: JobEvent) -> None:
        seen.append(event.code)
        # Both ran and were dropped: shutting down now does not race the scheduler's loop.
        if seen.count(EVENT_JOB_EXECUTED) == seen.count(EVENT_JOB_REMOVED) == 2:
            done.set()

    clock.scheduler.add_listener(listen, EVENT_JOB_EXECUTED | EVENT_JOB_REMOVED)
    clock.start(lambda: woken.append("pass"))
    try:
        assert done.wait(timeout=10)
    finally:
        clock.shutdown()
    assert woken == ["pass", "pass"]
    assert not clock.scheduler.running


def jobs_at(service: Service, at: datetime) -> dict[str, datetime]:
    clock = GameClock(service)
    clock.rebuild(at)
    return clock.jobs()
