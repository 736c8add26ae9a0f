"""The daemon's loop on the maildir transport: passes and sleeps until asked to stop, sleeps
no longer than the next deadline or outbox retry allows, and survives a game whose turn
fails."""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from datetime import datetime, timedelta
from email.message import EmailMessage
from pathlib import Path
from time import monotonic, sleep
from typing import Any

import pytest
from sqlalchemy import Engine

from pbem.clock import run_due
from pbem.clock.control import pause
from pbem.config import Settings
from pbem.daemon.courier import Courier
from pbem.daemon.loop import ELSEWHERE_SECONDS, Daemon
from pbem.daemon.transport import MaildirPost, MaildirWatch
from pbem.games.service import Service
from pbem.intake.intake import receive
from pbem.intake.poll import PollReport
from pbem.logs import ContextFilter
from pbem.mail.delivery import TemporaryFailure
from pbem.store import OrderSet, transaction
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
    assert [row.sent_at for row in outbox(service)] == [None, None, None]  # no drain


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


def test_a_failing_pass_is_logged_and_the_loop_backs_off(
    settings: Settings, tmp_path: Path, now: datetime, caplog: pytest.LogCaptureFixture
) -> None:
    broken = Service(_missing_database(tmp_path), settings)  # no tables: every query fails
    time = FakeTime()
    inbox = MaildirWatch(tmp_path / "in", sleep=time.sleep, clock=time.clock)
    daemon = Daemon(
        broken,
        inbox,
        MaildirPost(tmp_path / "out"),
        clock=lambda: now,
        monotonic=time.clock,
        rest_step=time.sleep,
    )
    # A mail waits in the inbox all along (the one that met the fault): the rests must not end
    # because of it, or the loop would spin through passes as fast as they fail.
    inbox.deliver(order_mail("g1", "alice", "pw-alice", "ADD 2\n", message_id="a1@example.org"))
    Scripted(time, *[lambda: None] * 6, lambda: daemon.request_stop("test"))
    with caplog.at_level(logging.ERROR, "pbem"):
        daemon.run()
    messages = [r.getMessage() for r in caplog.records]
    assert messages[0] == "pass failed; trying again in 1s"  # with its traceback, once
    assert caplog.records[0].exc_info is not None
    assert messages[1:] == [
        "pass failed again (OperationalError: (sqlite3.OperationalError) no such table: "
        f"inbound_message); trying again in {n}s"  # looked up before the transaction
        for n in (2, 4)
    ]
    assert all(record.exc_info is None for record in caplog.records[1:])
    # Rests of 1, 2 and 4 s, looked at each second; the stop comes in the third.
    assert time.sleeps == [1.0] * 7


def _missing_database(folder: Path) -> Engine:
    from pbem.store import make_engine

    return make_engine(f"sqlite:///{folder / 'empty.db'}")


def test_json_lines_name_the_game_and_the_message(tmp_path: Path) -> None:
    from pbem.config import LoggingSettings
    from pbem.logs import configure_logging, log_context

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
        with transaction(service.db) as session:
            pause(session, service.settings, "g1", now=now, actor="cli", reason="a test")

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
    from dataclasses import replace

    return replace(settings, service=replace(settings.service, max_wait_seconds=seconds))


def test_a_deadline_wave_leaves_room_for_the_mail_that_comes_meanwhile(
    service: Service, now: datetime, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With many turns due at once, a pass resolves them for a while only (here: one turn a
    pass), then the loop takes its mail in again at once, without sleeping: a player who
    writes during the wave is answered before the last of the turns."""
    for game in ("g1", "g2", "g3"):
        new_game(service, now, game=game)
    new_game(service, now, game="g4", deadline_policy="interval:96h")
    time = FakeTime()
    inbox = MaildirWatch(tmp_path / "in", sleep=time.sleep, clock=time.clock)
    daemon = Daemon(service, inbox, MaildirPost(tmp_path / "out"), clock=lambda: now)
    daemon._clock = lambda: now + timedelta(hours=49)  # past the deadlines of g1 to g3
    monkeypatch.setattr("pbem.daemon.loop.TURN_SECONDS", 0.0)
    passes: list[tuple[int, list[str]]] = []
    real_pass = daemon._pass

    def recorded(*args: object) -> PollReport | None:
        report = real_pass(*args)  # type: ignore[arg-type]
        assert report is not None
        passes.append((report.received, [t.game for t in report.turns]))
        if len(passes) == 1:  # a player writes while the wave is on
            inbox.deliver(order_mail("g4", "alice", "pw-alice", "ADD 1\n", message_id="a@x"))
        return report

    monkeypatch.setattr(daemon, "_pass", recorded)
    Scripted(time, lambda: daemon.request_stop("test"))
    daemon.run()

    assert passes == [(0, ["g1"]), (1, ["g2"]), (0, ["g3"])]
    assert time.sleeps == [1.0]  # asleep only once the wave was over


def test_mail_another_daemon_has_in_hand_is_looked_at_again_after_a_short_rest(
    postgres_engine: Engine, settings: Settings, now: datetime, tmp_path: Path
) -> None:
    """Several daemons on PostgreSQL: the one that finds every waiting mail claimed by another
    rests a moment before it looks again, rather than fetch the same mail in a tight loop."""
    empty_all_tables(postgres_engine)
    service = Service(postgres_engine, settings)
    new_game(service, now)
    time = FakeTime()
    inbox = MaildirWatch(tmp_path / "in", sleep=time.sleep, clock=time.clock)
    daemon = Daemon(
        service,
        inbox,
        MaildirPost(tmp_path / "out"),
        clock=lambda: now,
        monotonic=time.clock,
        rest_step=time.sleep,
    )
    key = inbox.deliver(order_mail("g1", "alice", "pw-alice", "ADD 2\n", message_id="a1@x"))
    with Claims(postgres_engine) as other:
        assert other.take(key)
        Scripted(time, lambda: None, lambda: other.release(key), lambda: daemon.request_stop("t"))
        daemon.run()
    assert inbox.pending() == []
    assert [row.kind for row in outbox(service)] == ["report", "report", "reply"]
    assert time.sleeps == pytest.approx([ELSEWHERE_SECONDS, ELSEWHERE_SECONDS, 1.0])


def test_passes_that_only_take_mail_in_look_at_the_clocks_seconds_apart(
    service: Service, now: datetime, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Looking at the clocks reads every running game: order mail that leaves its turn
    waiting is taken in without a look, and the look comes CLOCK_SECONDS after the last. The
    orders that complete a turn get their look at once: the turn resolves then."""
    new_game(service, now)  # alice and bob; the turn resolves once both have sent orders
    daemon, time, inbox, looks = _looked_at(service, now, tmp_path, monkeypatch)
    mails = [_ordering(inbox, "alice", 1), _ordering(inbox, "bob", 1), _ordering(inbox, "alice", 2)]
    Scripted(time, *mails, *[lambda: None] * 4, daemon.request_stop)
    daemon.run()

    # At the start; not at alice's mail (1001); at bob's, which completes turn 1 (1002); not
    # at alice's for turn 2 (1003), but 5 s after the last look.
    assert looks == [1000.0, 1002.0, 1007.0]
    assert [turn.number for turn in turns(service)] == [1, 2]
    assert time.sleeps == [1.0] * 8


def test_a_look_at_the_clocks_takes_at_most_its_share_of_the_daemons_time(
    service: Service, now: datetime, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A look that finds nothing to do comes again CLOCK_SECONDS later, or later still if it
    took more than LOOK_SHARE of that: one that took 1 s (a site of many games, while mail
    that leaves its turn waiting keeps coming) comes again 20 s later."""
    new_game(service, now)
    daemon, time, inbox, looks = _looked_at(service, now, tmp_path, monkeypatch, taking=1.0)
    mails = [_ordering(inbox, "alice", number) for number in range(30)]
    Scripted(time, *mails, daemon.request_stop)
    daemon.run()

    assert looks == [1000.0, 1021.0]  # 5 s apart (1006, 1012...) without the share
    assert len(inbound(service)) == 30


def _looked_at(
    service: Service,
    now: datetime,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    taking: float = 0.0,
) -> tuple[Daemon, FakeTime, MaildirWatch, list[float]]:
    """A daemon on a fake clock, CLOCK_SECONDS 5, and when it looks at the clocks (each look
    `taking` that long)."""
    time = FakeTime()
    inbox = MaildirWatch(tmp_path / "in", sleep=time.sleep, clock=time.clock)
    daemon = Daemon(
        service, inbox, MaildirPost(tmp_path / "out"), clock=lambda: now, monotonic=time.clock
    )
    looks: list[float] = []
    real_run_due = run_due

    def counted(*args: Any, **kwargs: Any) -> Any:
        looks.append(time.clock())
        time.advance(taking)
        return real_run_due(*args, **kwargs)

    monkeypatch.setattr("pbem.intake.poll.run_due", counted)
    monkeypatch.setattr("pbem.daemon.loop.CLOCK_SECONDS", 5.0)
    return daemon, time, inbox, looks


def _ordering(inbox: MaildirWatch, seat: str, number: int) -> Callable[[], None]:
    """A step that delivers the seat's order mail number `number`."""
    raw = order_mail("g1", seat, f"pw-{seat}", "ADD 1\n", message_id=f"{seat}{number}@x")
    return lambda: inbox.deliver(raw) and None
