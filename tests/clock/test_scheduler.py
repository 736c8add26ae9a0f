"""The daemon's schedule (pbem.daemon.schedule): one APScheduler job per game at its next
wakeup and one at the outbox's next retry, derived from the database, so that a new schedule
on the same database (a restart, a second daemon) has the same jobs; a started schedule runs
a job whose time has come and hands the work on."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

from apscheduler.events import EVENT_JOB_EXECUTED, JobEvent

from pbem.clock import next_wakeup, run_due
from pbem.clock.control import pause
from pbem.clock.due import wakeups, wakeups_of
from pbem.daemon.schedule import DaemonSchedule, OutboxWatch, Woken
from pbem.games.outbox import drain
from pbem.games.service import Service
from pbem.intake.intake import receive
from pbem.mail.delivery import TemporaryFailure
from tests.clock.support import DEADLINE, HOUR, clock_game, command, orders
from tests.conftest import NOW
from tests.support.mails import mail


def _games(service: Service) -> None:
    clock_game(service, reminders="24h,2h")  # g1: first wakeup, the 24h reminder
    clock_game(service, game="g2", grace="2h")  # g2: its deadline plus grace
    clock_game(service, game="g3", deadline_policy="none")  # g3: nothing to wake up for


def _schedule(service: Service, at: datetime, wake: list[str] | None = None) -> DaemonSchedule:
    woken = wake if wake is not None else []
    return DaemonSchedule(
        service,
        clock=lambda: at,
        safety_seconds=3600,
        wake=Woken(
            mail_in=lambda: woken.append("intake"),
            clocks=lambda *games: woken.append(f"clocks {' '.join(games) or 'all'}"),
            courier=lambda: woken.append("courier"),
        ),
    )


def jobs_at(service: Service, at: datetime) -> dict[str, timedelta]:
    """Each job's distance from `at`, as the schedule laid it on the real clock (to the
    second: the real clock moves on while the test runs)."""
    schedule = _schedule(service, at)
    real_now = datetime.now(UTC)
    schedule.renew_games()
    schedule.refresh_outbox()
    return {
        job_id: timedelta(seconds=round((when - real_now).total_seconds()))
        for job_id, when in schedule.due_times().items()
    }


def test_one_job_per_game_at_its_next_wakeup(service: Service) -> None:
    _games(service)
    jobs = jobs_at(service, NOW)
    assert {k: v for k, v in jobs.items() if k.startswith("game:")} == {
        "game:g1": DEADLINE - 24 * HOUR - NOW,
        "game:g2": DEADLINE + 2 * HOUR - NOW,
    }
    assert next_wakeup(service, NOW) == DEADLINE - 24 * HOUR


def test_a_new_schedule_on_the_same_database_has_the_same_jobs(service: Service) -> None:
    _games(service)
    first = jobs_at(service, NOW + HOUR)
    restarted = jobs_at(Service(service.db, service.settings), NOW + HOUR)
    assert restarted == first
    assert next_wakeup(service, NOW + HOUR) == DEADLINE - 24 * HOUR


def test_the_wakeups_move_on_as_the_work_is_done(service: Service) -> None:
    _games(service)
    orders(service, "alice", "ADD 1", NOW)
    at = DEADLINE - 24 * HOUR
    run_due(service, at)  # bob's 24h reminder
    assert next_wakeup(service, at) == DEADLINE - 2 * HOUR
    orders(service, "bob", "ADD 1", at)  # g1 is resolved early by the next pass
    run_due(service, at)
    jobs = jobs_at(service, at)
    assert (jobs["game:g1"], jobs["game:g2"]) == (
        DEADLINE - at,  # turn 2, due 48h after it opened: its 24h reminder
        DEADLINE + 2 * HOUR - at,
    )


def test_a_game_with_nothing_ahead_loses_its_job(service: Service) -> None:
    _games(service)
    schedule = _schedule(service, NOW)
    schedule.renew_games()
    assert {"game:g1", "game:g2"} <= set(schedule.due_times())
    with service.store.transaction() as work:  # a paused game waits for no deadline
        pause(work, service.settings, "g2", now=NOW, actor="cli", reason="test")
    schedule.renew_games()
    assert "game:g2" not in schedule.due_times() and "game:g1" in schedule.due_times()


def test_the_outbox_job_is_at_the_next_retry(service: Service) -> None:
    class Deferring:
        def send(self, _message: object) -> None:
            raise TemporaryFailure("451 later", code=451)

    receive(service, mail("HELP"), now=NOW)
    assert jobs_at(service, NOW)["outbox"] == timedelta(0)  # due now
    drain(service, Deferring(), now=NOW)  # type: ignore[arg-type]
    assert jobs_at(service, NOW)["outbox"] == timedelta(minutes=1)  # [outbox] retry_first


def test_an_absence_end_is_a_wakeup(service: Service) -> None:
    clock_game(service, deadline_policy="none")
    command(service, "bob", "SET ABSENCE 2026-03-01", NOW)
    assert next_wakeup(service, NOW) == NOW + 12 * HOUR  # midnight after 1 March, UTC
    assert next_wakeup(service, NOW + 12 * HOUR) is None


def test_a_started_schedule_runs_a_job_when_its_time_comes(service: Service) -> None:
    # One second before g1's reminder: its job runs a second later, wakes the clocks for g1
    # and is dropped (a one-shot trigger); g2's job and the interval jobs stay.
    _games(service)
    woken: list[str] = []
    schedule = _schedule(service, DEADLINE - 24 * HOUR - timedelta(seconds=1), woken)
    ran = threading.Event()

    def listen(event: JobEvent) -> None:
        if event.job_id == "game:g1":
            ran.set()

    schedule.scheduler.add_listener(listen, EVENT_JOB_EXECUTED)
    schedule.start()
    try:
        schedule.renew_games()
        assert ran.wait(timeout=10)
        jobs = set(schedule.due_times())
    finally:
        schedule.shutdown()
    assert "clocks g1" in woken
    assert jobs == {"game:g2", "safety-poll", "outbox-watch"}
    assert not schedule.scheduler.running


def test_a_look_that_changed_nothing_gives_the_schedule_its_clocks(service: Service) -> None:
    """A look at the clocks that changed no game hands the games it read to the
    schedule, which then reads none again and lays the same jobs; a look that changed one
    (a reminder sent) hands none, and the schedule reads the games anew."""
    _games(service)
    quiet = run_due(service, NOW)
    assert not quiet.changed and quiet.games is not None
    assert sorted(facts.game.id for facts in quiet.games) == ["g1", "g2", "g3"]
    from_clocks, from_database = _schedule(service, NOW), _schedule(service, NOW)
    from_clocks.renew_games(quiet.games)
    from_database.renew_games()
    assert _game_jobs(from_clocks) == _game_jobs(from_database) == {"game:g1", "game:g2"}
    with service.store.reading() as work:
        assert wakeups_of(quiet.games) == wakeups(work, NOW)
    reminding = run_due(service, DEADLINE - 24 * HOUR)  # g1's 24h reminders
    assert reminding.reminders == 2 and reminding.games is None


def _game_jobs(schedule: DaemonSchedule) -> set[str]:
    return {job_id for job_id in schedule.due_times() if job_id.startswith("game:")}


def test_a_renewal_leaves_the_jobs_whose_moment_stands_and_lays_the_rest_again(
    service: Service,
) -> None:
    """Renewing after every look re-added a thousand jobs: a job at the same moment stands
    (the same job, its run time kept); one whose moment moved, or that ran, is laid anew."""
    _games(service)
    schedule = _schedule(service, NOW)
    schedule.renew_games()
    first = {job.id: job for job in schedule.scheduler.get_jobs()}
    schedule.renew_games()
    again = {job.id: job for job in schedule.scheduler.get_jobs()}
    assert again.keys() == first.keys() == {"game:g1", "game:g2"}
    assert all(again[job_id] is first[job_id] for job_id in again)

    schedule.scheduler.remove_job("game:g2")  # as a one-shot job is once it has run
    orders(service, "alice", "ADD 1", NOW + HOUR)
    orders(service, "bob", "ADD 1", NOW + HOUR)
    run_due(service, NOW + HOUR)  # g1 resolved early: its next wakeup is turn 2's, an hour on
    schedule.renew_games()
    last = {job.id: job for job in schedule.scheduler.get_jobs()}
    assert last.keys() == {"game:g1", "game:g2"}
    assert last["game:g1"] is not first["game:g1"] and last["game:g2"] is not first["game:g2"]
    assert last["game:g1"].next_run_time > first["game:g1"].next_run_time


def test_a_look_at_some_games_renews_their_jobs_alone(service: Service) -> None:
    """After the clocks looked at the games a job or a mail named, the schedule reads and
    lays those games' jobs only; the others stand as they were."""
    _games(service)
    schedule = _schedule(service, NOW)
    schedule.renew_games()
    first = {job.id: job for job in schedule.scheduler.get_jobs()}
    with service.store.transaction() as work:  # both paused: neither waits for a deadline
        for game in ("g1", "g2"):
            pause(work, service.settings, game, now=NOW, actor="cli", reason="test")
    schedule.renew_games(only=frozenset({"g2"}))
    assert set(_game_jobs(schedule)) == {"game:g1"}
    assert schedule.scheduler.get_job("game:g1") is first["game:g1"]


def test_the_outbox_watch_sends_what_another_process_queued_and_looks_at_its_games(
    service: Service,
) -> None:
    """A referee's command on the command line queues mail: the watch's next look wakes the
    courier and the clocks for that game; a look with nothing new wakes nothing."""
    _games(service)
    woken: list[str] = []
    schedule = _schedule(service, NOW, woken)
    watch = OutboxWatch(service, schedule.wake)
    watch()  # where the queue stands
    watch()
    assert woken == []
    with service.store.transaction() as work:
        pause(work, service.settings, "g2", now=NOW, actor="cli", reason="test")
    watch()
    assert woken == ["courier", "clocks g2"]
