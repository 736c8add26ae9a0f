"""The daemon's loop on the maildir transport: passes and sleeps until asked to stop, sleeps
no longer than the next deadline or outbox retry allows, and survives a game whose turn
fails."""

from __future__ import annotations

import itertools
import json
import logging
import threading
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime, timedelta
from email.message import EmailMessage
from pathlib import Path
from time import monotonic, sleep
from typing import Any

import pytest
from sqlalchemy import Engine
from sqlalchemy.exc import OperationalError

from pbem.clock import run_due
from pbem.clock import turns as turns_module
from pbem.clock.control import pause
from pbem.config import LoggingSettings, Settings
from pbem.daemon.courier import Courier
from pbem.daemon.loop import Daemon
from pbem.daemon.runners import Archive, Retries
from pbem.daemon.schedule import ELSEWHERE_SECONDS
from pbem.daemon.transport import MaildirPost, MaildirWatch
from pbem.daemon.wake import Foreground
from pbem.games.service import Service
from pbem.intake.intake import receive
from pbem.intake.poll import PollReport
from pbem.logs import ContextFilter, configure_logging, log_context
from pbem.mail.delivery import TemporaryFailure
from pbem.store import OrderSet, make_engine, transaction
from pbem.store.claims import Claims
from tests.servers.fake_time import FakeTime
from tests.support.databases import empty_all_tables
from tests.support.games import game_row, inbound, new_game, outbox, turns
from tests.support.mails import order_mail
from tests.support.waiting import wait_until


class Scripted:
    """The sleeps of a MaildirWatch, each running the next scripted step."""

    def __init__(self, time: FakeTime, *steps: object) -> None:
        self.steps = list(steps)
        time.on_sleep = self.step

    def step(self, _seconds: float) -> None:
        if self.steps:
            action = self.steps.pop(0)
            assert callable(action)
            action()


def test_the_loop_passes_sleeps_and_stops(service: Service, now: datetime, tmp_path: Path) -> None:
    new_game(service, now)
    time = FakeTime()
    inbox = MaildirWatch(tmp_path / "in", sleep=time.sleep, clock=time.clock)
    daemon = Daemon(service, inbox, MaildirPost(tmp_path / "out"), clock=lambda: now)
    mail = order_mail("g1", "alice", "pw-alice", "ADD 2\n", message_id="a1@example.org")

    def all_sent_then_stop() -> None:
        # The courier sends from its own thread, woken after the pass that took the mail in.
        wait_until(lambda: all(row.sent_at == now for row in outbox(service)))
        daemon.request_stop("test")

    Scripted(time, lambda: inbox.deliver(mail), all_sent_then_stop)

    daemon.run()

    assert [row.kind for row in outbox(service)] == ["report", "report", "reply"]
    assert inbox.pending() == []
    # Looked once a second: after 1 s the mail was there; then asleep until a job of the
    # schedule asks for a pass (the deadline is 48 h away) or, as here, a stop is asked.
    assert time.sleeps == [1.0, 1.0]


def test_a_stop_during_intake_finishes_the_current_mail_only(
    service: Service, now: datetime, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    new_game(service, now)
    inbox = MaildirWatch(tmp_path / "in")
    daemon = Daemon(service, inbox, MaildirPost(tmp_path / "out"), clock=lambda: now)
    for n in (1, 2):
        inbox.deliver(order_mail("g1", "alice", "pw-alice", "ADD 1\n", message_id=f"{n}@x"))

    def receive_then_stop(*args: Any, **kwargs: Any) -> Any:
        receipt = receive(*args, **kwargs)
        daemon.request_stop("test")
        return receipt

    monkeypatch.setattr("pbem.intake.poll.receive", receive_then_stop)
    daemon.run()
    assert len(inbox.pending()) == 1
    assert [row.kind for row in outbox(service)] == ["report", "report", "reply"]


def test_one_games_failing_turn_does_not_stop_the_others(
    service: Service, now: datetime, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    new_game(service, now, game="bad", ruleset="counting-broken")
    new_game(service, now, game="good")
    with transaction(service.db) as session:
        session.add(
            OrderSet(game_id="bad", turn=1, seat="alice", text="EXPLODE\n", line_map="[1]",
                     message_id="x@y", received_at=now)
        )  # fmt: skip
    inbox = MaildirWatch(tmp_path / "in")
    daemon = Daemon(service, inbox, MaildirPost(tmp_path / "out"), clock=lambda: now)
    daemon._clock = lambda: now + timedelta(hours=49)  # past both deadlines
    caplog.handler.addFilter(ContextFilter())
    with caplog.at_level(logging.ERROR, "pbem"):
        report = daemon.run_once()
    assert report is not None and [t.game for t in report.turns] == ["good"]
    assert [len(turns(service, g)) for g in ("bad", "good")] == [1, 2]
    assert (game_row(service, "bad").turn, game_row(service, "good").turn) == (1, 2)
    [record] = caplog.records
    assert (record.getMessage(), record.game, record.exc_info[0]) == (  # type: ignore[attr-defined,index]
        "turn not resolved",
        "bad",
        RuntimeError,
    )


def test_a_runner_whose_work_fails_logs_it_once_and_is_woken_again_later_and_later(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Work that fails as a whole (the database is away) is logged with its traceback once,
    then a line a try while the same fault lasts, and the runner asks the schedule to wake
    it after delays that double."""
    delays: list[float] = []
    retries = Retries("intake", 8.0, delays.append)
    with caplog.at_level(logging.ERROR, "pbem"):
        for _ in range(5):
            retries.failed(OperationalError("SELECT 1", {}, Exception("no such table: x")))
        retries.succeeded()
        retries.failed(ValueError("another fault"))
    assert delays == [1.0, 2.0, 4.0, 8.0, 8.0, 1.0]
    messages = [record.getMessage() for record in caplog.records]
    assert messages[0] == "intake failed; trying again in 1s"
    assert messages[1] == (
        "intake failed again (OperationalError: (builtins.Exception) no such table: x); "
        "trying again in 2s"
    )
    assert [record.exc_info is not None for record in caplog.records] == [
        True, False, False, False, False, True
    ]  # fmt: skip


def test_a_daemon_on_a_database_gone_rests_between_tries_whatever_the_inbox_holds(
    settings: Settings, tmp_path: Path, now: datetime
) -> None:
    """A mail waits in the inbox all along (the one that met the fault): intake must wait for
    its retry's job, not for mail, or it would spin through tries as fast as they fail."""
    broken = Service(_missing_database(tmp_path), settings)  # no tables: every query fails
    inbox = MaildirWatch(tmp_path / "in")
    daemon = Daemon(broken, inbox, MaildirPost(tmp_path / "out"), clock=lambda: now)
    inbox.deliver(order_mail("g1", "alice", "pw-alice", "ADD 2\n", message_id="a1@example.org"))
    tries: list[float] = []
    real_step = daemon.mail_in.step

    def counted() -> PollReport | None:
        tries.append(monotonic())
        return real_step()

    daemon.mail_in.step = counted  # type: ignore[method-assign]
    thread = threading.Thread(target=daemon.run)
    thread.start()
    sleep(4.5)
    daemon.request_stop("test")
    thread.join(timeout=10)
    assert not thread.is_alive()
    # At once, then 1 s and 2 s later (the next, 4 s later, after the stop).
    assert len(tries) == 3, tries
    assert [round(b - a) for a, b in itertools.pairwise(tries)] == [1, 2]


def _missing_database(folder: Path) -> Engine:
    return make_engine(f"sqlite:///{folder / 'empty.db'}")


def test_json_lines_name_the_game_and_the_message(tmp_path: Path) -> None:
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        configure_logging(LoggingSettings(format="json", file=str(tmp_path / "log")))
        with log_context(game="g1", message="m1@x"):
            logging.getLogger("pbem.test").info("hello %s", "there")
        logging.getLogger("pbem.test").debug("not at INFO")
        logging.getLogger("aiosmtplib").info("not from libraries below WARNING")
    finally:
        for handler in [h for h in root.handlers if h not in handlers]:
            root.removeHandler(handler)
            handler.close()
        root.setLevel(level)
    [line] = (tmp_path / "log").read_text().splitlines()
    entry = json.loads(line)
    assert {k: v for k, v in entry.items() if k != "time"} == {
        "level": "INFO",
        "logger": "pbem.test",
        "game": "g1",
        "message_id": "m1@x",
        "message": "hello there",
    }


def test_mail_queued_by_others_while_it_sleeps_goes_out_at_once(
    service: Service, now: datetime, tmp_path: Path
) -> None:
    """A referee pauses the game from the command line while the daemon sleeps (60 s until
    its next wake-up): the daemon notices the new outbox rows within seconds and sends them,
    rather than at its next pass."""
    new_game(service, now)
    time = FakeTime()
    inbox = MaildirWatch(tmp_path / "in", sleep=time.sleep, clock=time.clock)
    daemon = Daemon(service, inbox, MaildirPost(tmp_path / "out"), clock=lambda: now)

    def pause_by_hand() -> None:
        with service.store.transaction() as work:
            pause(work, service.settings, "g1", now=now, actor="cli", reason="a test")

    def paused_mail_sent() -> bool:
        paused = [row for row in outbox(service) if row.subject == "[g1] game paused"]
        return len(paused) == 2 and all(row.sent_at is not None for row in paused)

    def stop_once_sent() -> None:
        # The courier thread sends; give it real seconds (the sleep itself is fake time).
        deadline = monotonic() + 5.0
        while not paused_mail_sent() and monotonic() < deadline:
            sleep(0.02)
        daemon.request_stop("test")

    Scripted(time, lambda: None, pause_by_hand, lambda: None, stop_once_sent)
    daemon.run()
    assert paused_mail_sent()


class _BulkLimited:
    """A sender at the rate limit as bulk mail sees it (30 s to go), with room for replies."""

    connections = 1

    def __init__(self) -> None:
        self.sent: list[str] = []

    def ready_in(self) -> float:
        return 30.0

    def close(self) -> None:
        pass

    def send(self, message: EmailMessage) -> None:
        if message["Auto-Submitted"] != "auto-replied":
            raise TemporaryFailure("rate limit", transport_down=True)
        self.sent.append(str(message["Subject"]))


def test_the_courier_sends_a_reply_while_bulk_mail_waits_for_the_rate_limit(
    service: Service, now: datetime
) -> None:
    new_game(service, now)  # the start mails: bulk
    receive(service, order_mail("g1", "alice", "pw-alice", "ADD 1\n", subject="t1"), now=now)
    sender = _BulkLimited()
    courier = Courier(service, sender, clock=lambda: now, cap=60.0)
    assert courier._drain() == 30.0  # then waits as long as bulk mail must
    assert sender.sent == ["Re: t1"]
    assert courier._drain() == 30.0  # nothing for a reply: no try at all
    assert sender.sent == ["Re: t1"]


def test_the_schedule_wakes_the_sleeping_loop_at_a_deadline(
    service: Service, now: datetime, tmp_path: Path
) -> None:
    # The daemon's clock runs three seconds short of g1's deadline. Nothing else would wake
    # the loop (no mail comes; the safety poll is an hour away): the game's APScheduler job
    # does, and the pass it asks for resolves the turn and the courier sends the reports.
    service = Service(service.db, _with_safety_poll(service.settings, 3600))
    new_game(service, now)  # interval:48h
    started, start = monotonic(), now + timedelta(hours=48, seconds=-3)
    inbox = MaildirWatch(tmp_path / "in")
    daemon = Daemon(
        service,
        inbox,
        MaildirPost(tmp_path / "out"),
        clock=lambda: start + timedelta(seconds=monotonic() - started),
    )
    thread = threading.Thread(target=daemon.run)
    thread.start()
    try:
        wait_until(lambda: len(turns(service)) == 2, timeout=20)  # turn 1 resolved
        assert monotonic() - started >= 2.5  # not before the deadline
        wait_until(lambda: all(row.sent_at for row in outbox(service)))
    finally:
        daemon.request_stop("test")
        thread.join(timeout=10)
    assert not thread.is_alive()
    assert [row.kind for row in outbox(service)].count("report") == 4  # start + turn 1


def _with_safety_poll(settings: Settings, seconds: int) -> Settings:
    return replace(settings, service=replace(settings.service, max_wait_seconds=seconds))


def test_a_deadline_wave_leaves_room_for_the_mail_that_comes_meanwhile(
    service: Service, now: datetime, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The clocks resolve a wave of due turns in a thread of their own, a game at a time,
    while intake goes on: a player who writes during the wave is answered before the last of
    the turns."""
    for game in ("g1", "g2", "g3"):
        new_game(service, now, game=game)
    new_game(service, now, game="g4", deadline_policy="interval:96h")
    inbox = MaildirWatch(tmp_path / "in")
    daemon = Daemon(
        service, inbox, MaildirPost(tmp_path / "out"), clock=lambda: now + timedelta(hours=49)
    )
    real_resolve = turns_module.resolve_turn
    resolved: list[str] = []

    def slow(*args: Any, **kwargs: Any) -> Any:
        if not resolved:  # the wave has begun: a player writes
            inbox.deliver(order_mail("g4", "alice", "pw-alice", "ADD 1\n", message_id="a@x"))
        sleep(1.5)  # a turn of a big game
        summary = real_resolve(*args, **kwargs)
        resolved.append(args[2])
        return summary

    monkeypatch.setattr(turns_module, "resolve_turn", slow)
    thread = threading.Thread(target=daemon.run)
    thread.start()
    try:
        wait_until(lambda: any(row.kind == "reply" for row in outbox(service)), timeout=10)
        replied_while = list(resolved)
        wait_until(lambda: len(resolved) == 3, timeout=10)
    finally:
        daemon.request_stop("test")
        thread.join(timeout=10)
    assert len(replied_while) < 3, replied_while


def test_mail_another_daemon_has_in_hand_is_looked_at_again_after_a_short_rest(
    postgres_engine: Engine, settings: Settings, now: datetime, tmp_path: Path
) -> None:
    """Several daemons on PostgreSQL: the one that finds every waiting mail claimed by another
    is woken by the schedule a moment later to look again, rather than fetch the same mail in
    a tight loop."""
    empty_all_tables(postgres_engine)
    service = Service(postgres_engine, settings)
    new_game(service, now)
    inbox = MaildirWatch(tmp_path / "in")
    daemon = Daemon(service, inbox, MaildirPost(tmp_path / "out"), clock=lambda: now)
    key = inbox.deliver(order_mail("g1", "alice", "pw-alice", "ADD 2\n", message_id="a1@x"))
    looks: list[int] = []
    real_step = daemon.mail_in.step

    def counted() -> PollReport | None:
        report = real_step()
        looks.append(report.elsewhere if report else -1)
        return report

    daemon.mail_in.step = counted  # type: ignore[method-assign]
    thread = threading.Thread(target=daemon.run)
    with Claims(postgres_engine) as other:
        assert other.take(key)
        thread.start()
        sleep(1.0)
        other.release(key)
        try:
            wait_until(lambda: inbox.pending() == [], timeout=10)
        finally:
            daemon.request_stop("test")
            thread.join(timeout=10)
    assert [row.kind for row in outbox(service)] == ["report", "report", "reply"]
    # A look every ELSEWHERE_SECONDS while the other daemon held it (about 5 in the second),
    # not a tight loop of fetches (hundreds).
    held = looks.count(1)
    assert 2 <= held <= 2 * (1.0 / ELSEWHERE_SECONDS), looks


def test_a_mail_that_completes_a_turn_wakes_the_clocks_for_its_game_alone(
    service: Service, now: datetime, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Order mail that leaves its turn waiting wakes no look of the clocks; the mail that
    completes the turn wakes a look at its game only, and the turn resolves then."""
    new_game(service, now)  # alice and bob; the turn resolves once both have sent orders
    new_game(service, now, game="g2")
    inbox = MaildirWatch(tmp_path / "in")
    daemon = Daemon(service, inbox, MaildirPost(tmp_path / "out"), clock=lambda: now)
    looks: list[object] = []
    real_run_due = run_due

    def counted(*args: Any, **kwargs: Any) -> Any:
        looks.append(kwargs.get("only"))
        return real_run_due(*args, **kwargs)

    monkeypatch.setattr("pbem.daemon.runners.run_due", counted)
    thread = threading.Thread(target=daemon.run)
    thread.start()
    try:
        wait_until(lambda: looks == [None])  # every game, at the start
        _ordering(inbox, "alice", 1)()
        wait_until(lambda: len(inbound(service)) == 1)
        _ordering(inbox, "bob", 1)()
        wait_until(lambda: len(turns(service)) == 2)
    finally:
        daemon.request_stop("test")
        thread.join(timeout=10)
    # Every game at the start; then g1 alone: the mail that completed its turn, and the
    # outbox watch seeing the reply and the reports queued for g1.
    assert looks[0] is None and set(looks[1:]) == {frozenset({"g1"})}, looks
    assert [turn.number for turn in turns(service)] == [1, 2]


def _ordering(inbox: MaildirWatch, seat: str, number: int) -> Callable[[], None]:
    """A step that delivers the seat's order mail number `number`."""
    raw = order_mail("g1", seat, f"pw-{seat}", "ADD 1\n", message_id=f"{seat}{number}@x")
    return lambda: inbox.deliver(raw) and None


def test_the_archive_runner_writes_each_game_once_however_often_it_was_named() -> None:
    written: list[tuple[str, str]] = []
    started = threading.Event()

    def write(game_id: str) -> None:
        started.wait(5)  # the first write waits until every change is noted
        written.append((game_id, threading.current_thread().name))

    archive = Archive(write, stopping=lambda: False)
    archive.start()
    for game in ("g2", "g1", "g2", "g1"):
        archive.changed(game)
    started.set()
    wait_until(lambda: len(written) >= 2)
    archive.changed("g1")
    wait_until(lambda: len(written) >= 3)
    assert written == [("g1", "pbem-archive"), ("g2", "pbem-archive"), ("g1", "pbem-archive")]


def test_the_daemon_hands_a_changed_game_to_its_archive_runner_after_the_commit(
    service: Service, now: datetime, tmp_path: Path
) -> None:
    """The turn resolved by the clocks is written to the archive by the archive's runner,
    not by the clocks' thread, and only after its commit (the new turn is there to read)."""
    new_game(service, now)  # interval:48h
    written: list[tuple[str, str, int]] = []

    def write(game_id: str) -> None:
        name = threading.current_thread().name
        written.append((game_id, name, len(turns(service, game_id))))

    inbox = MaildirWatch(tmp_path / "in")
    daemon = Daemon(
        service,
        inbox,
        MaildirPost(tmp_path / "out"),
        clock=lambda: now + timedelta(hours=49),
        archive=write,
    )
    thread = threading.Thread(target=daemon.run)
    thread.start()
    try:
        wait_until(lambda: bool(written))
    finally:
        daemon.request_stop("test")
        thread.join(timeout=10)
    assert written[0] == ("g1", "pbem-archive", 2)


def test_the_archive_waits_while_the_clocks_have_a_look_in_hand() -> None:
    """Background work: a deadline wave's turns are all resolved before the archive draws."""
    written: list[str] = []
    foreground = Foreground()
    look = foreground.look()
    look.__enter__()  # a look in hand
    archive = Archive(written.append, stopping=lambda: False, foreground=foreground)
    archive.start()
    archive.changed("g1")
    sleep(0.3)
    assert written == []
    look.__exit__(None, None, None)
    wait_until(lambda: written == ["g1"])
