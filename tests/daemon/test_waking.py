"""The daemon's races, each driven directly (the schedule, the runners), no long sleeps: a
game's job gone before the schedule removes it, the outbox watch and replies, the archive
and the clocks' looks, and a reply at a start whose first look fails."""

from __future__ import annotations

import threading
from datetime import datetime
from pathlib import Path
from time import sleep
from typing import Any, cast

import pytest

from pbem.clock.control import pause
from pbem.clock.run import ClockSummary
from pbem.daemon.courier import Courier
from pbem.daemon.loop import Daemon
from pbem.daemon.schedule import DaemonSchedule, OutboxWatch, Woken
from pbem.daemon.transport import MaildirPost, MaildirWatch
from pbem.daemon.wake import Wake
from pbem.games.service import Service
from pbem.intake.intake import receive
from pbem.mail.bell import rung
from tests.support.games import new_game, outbox
from tests.support.mails import order_mail
from tests.support.waiting import wait_until


def test_renewing_the_games_jobs_survives_a_job_that_ran_meanwhile(now: datetime) -> None:
    """APScheduler removes a date job itself once it ran: one that ran between the schedule's
    reading of its jobs and its removal of the stale ones is no failed look."""
    schedule = DaemonSchedule(
        cast(Service, None),
        clock=lambda: now,
        safety_seconds=60,
        wake=Woken(lambda: None, lambda *games: None, lambda: None),
    )
    schedule._in("game:g1", 10.0, lambda: None, "wake up for game g1")
    read_jobs = schedule.scheduler.get_jobs

    def read_then_run() -> list[Any]:
        jobs = read_jobs()
        schedule.scheduler.remove_job("game:g1")  # it ran, and APScheduler let it go
        return jobs

    schedule.scheduler.get_jobs = read_then_run  # type: ignore[method-assign]
    schedule.renew_games([])  # g1 has nothing ahead: its job goes
    del schedule.scheduler.get_jobs  # read the jobs as they are
    assert "game:g1" not in schedule.due_times()


def test_the_outbox_watch_wakes_no_look_for_a_reply(service: Service, now: datetime) -> None:
    """Order mail is answered at once (a reply): the watch sends it, and wakes no look of the
    clocks, which intake wakes itself when the mail made work due. Mail another process
    queued for a game (a pause on the command line) wakes a look at that game."""
    new_game(service, now)
    woken: list[tuple[str, ...]] = []
    sends: list[None] = []
    watch = OutboxWatch(
        service, Woken(lambda: None, lambda *games: woken.append(games), lambda: sends.append(None))
    )
    watch()  # where the queue stands
    receive(service, order_mail("g1", "alice", "pw-alice", "ADD 1\n", subject="t1"), now=now)
    watch()
    assert len(sends) == 1 and woken == []
    with service.store.transaction() as work:
        pause(work, service.settings, "g1", now=now, actor="cli", reason="a test")
    watch()
    assert len(sends) == 2 and woken == [("g1",)]


def test_the_archive_never_writes_while_the_clocks_look(
    service: Service, now: datetime, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The clocks may be woken just as the archive found them idle: the look waits for the
    game being written, and the archive never draws during a look."""
    looking = threading.Event()
    during_look: list[bool] = []

    def look(*_args: Any, **_kwargs: Any) -> ClockSummary:
        looking.set()
        sleep(0.2)
        looking.clear()
        return ClockSummary()

    monkeypatch.setattr("pbem.daemon.runners.run_due", look)
    daemon = Daemon(
        service,
        MaildirWatch(tmp_path / "in"),
        MaildirPost(tmp_path / "out"),
        clock=lambda: now,
        archive=lambda game: during_look.append(looking.is_set()),
    )
    archive = daemon.archive
    assert archive is not None
    asked: list[bool] = []

    def clocks_woken_just_then() -> bool:
        if not asked:  # between finding the clocks idle and writing: they are woken
            asked.append(True)
            daemon.clocks.wake.set()
            looking.wait(0.5)
        return daemon.stopping()

    monkeypatch.setattr(archive, "_stopping", clocks_woken_just_then)
    daemon.clocks.start()
    archive.start()
    try:
        archive.changed("g1")
        wait_until(lambda: bool(during_look))
        wait_until(lambda: not daemon.clocks.wake.is_set() and not looking.is_set())
    finally:
        daemon.request_stop("test")
        assert daemon.clocks.stop(timeout=5) and archive.stop(timeout=5)
    assert during_look == [False]


def test_a_reply_goes_out_while_the_clocks_first_look_fails(
    service: Service, now: datetime, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A start's first look of the clocks may fail (a fault in it, retried later and later):
    the check reply to an order mail is sent all the same. The start's bulk mail (stale
    notices an outage may have left) waits for a look that succeeds."""
    new_game(service, now)  # its start mails: bulk

    def failing(*_args: Any, **_kwargs: Any) -> ClockSummary:
        raise RuntimeError("a fault in the look")

    monkeypatch.setattr("pbem.daemon.runners.run_due", failing)
    inbox = MaildirWatch(tmp_path / "in")
    daemon = Daemon(service, inbox, MaildirPost(tmp_path / "out"), clock=lambda: now)
    thread = threading.Thread(target=daemon.run)
    thread.start()
    try:
        inbox.deliver(order_mail("g1", "alice", "pw-alice", "ADD 1\n", subject="t1"))
        wait_until(lambda: any(row.sent_at for row in outbox(service, "reply")), timeout=10)
    finally:
        daemon.request_stop("test")
        thread.join(timeout=10)
    assert not any(row.sent_at for row in outbox(service) if row.kind != "reply")


def test_a_courier_held_for_the_first_look_sends_replies_alone(
    service: Service, now: datetime, tmp_path: Path
) -> None:
    """Held (the daemon's courier until the clocks' first look): a drain sends the replies
    and leaves bulk mail queued; let go (`send_bulk`), the next drain sends the rest."""
    new_game(service, now)  # the start mails: bulk
    receive(service, order_mail("g1", "alice", "pw-alice", "ADD 1\n", subject="t1"), now=now)
    courier = Courier(
        service, MaildirPost(tmp_path / "out"), clock=lambda: now, cap=60.0, bulk=threading.Event()
    )
    assert courier._drain() == 60.0  # nothing more it may send: it sleeps until woken
    assert [row.kind for row in outbox(service) if row.sent_at] == ["reply"]
    courier.send_bulk()
    courier._drain()
    assert all(row.sent_at for row in outbox(service))


def test_a_wake_is_a_bell_readable_exactly_while_it_is_set() -> None:
    """Intake listens to its Wake beside the IMAP socket (pbem.mail.bell): the descriptor
    must be readable after a set, also one made before it was first asked for, and quiet
    again once the wake is taken, however many sets came."""
    wake = Wake()
    wake.set("g1")
    assert rung(wake)  # set before the descriptor existed
    assert wake.take().games == frozenset({"g1"})
    assert not rung(wake)
    for _ in range(100_000):  # more sets than a pipe holds bytes: one byte while set
        wake.set()
    assert rung(wake)
    assert wake.take().everything
    assert not rung(wake)
