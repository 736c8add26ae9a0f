"""The courier in a process of its own (pbem.daemon.courier_process): `pbem serve` sends from
it, and it ends with the daemon however the daemon ends, so that a daemon killed and started
again never has two couriers sending from one SQLite file."""

from __future__ import annotations

import logging
import os
import re
import signal
import subprocess
import sys
import threading
from datetime import timedelta
from pathlib import Path

import pytest

from pbem.cli import main
from pbem.config import DatabaseSettings, MaildirSettings, Settings
from pbem.daemon.courier_process import CourierProcess
from pbem.games.outbox import Letter, queue
from pbem.games.service import Service
from pbem.mail.maildir import MaildirInbox
from pbem.store import transaction, upgrade, utcnow
from pbem.store.work import work_of
from tests.support.mails import order_mail
from tests.support.waiting import wait_until


def _gone(pid: int) -> bool:
    """Ended (a zombie not reaped yet counts as ended)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


def _parent_of(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


def _couriers(log: Path) -> list[int]:
    text = log.read_text() if log.exists() else ""
    return [int(pid) for pid in re.findall(r"courier: process (\d+) \(fork\)", text)]


def _sent(workdir: Path) -> int:
    folder = workdir / "var/mail/outbox/new"
    return len(list(folder.iterdir())) if folder.exists() else 0


def _serve(workdir: Path) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "pbem", "serve", "--config", "pbem.toml"]
    return subprocess.Popen(command, cwd=workdir)


def test_serve_sends_from_a_courier_process_that_ends_with_the_daemon(workdir: Path) -> None:
    assert main(["--config", "pbem.toml", "init"]) == 0
    sent_before = 0
    inbox = MaildirInbox(workdir / "var/mail/inbox")
    inbox.deliver(order_mail("g1", "alice", "pw-alice", "ADD 1\n"))

    daemon = _serve(workdir)
    try:
        wait_until(lambda: _sent(workdir) > sent_before, timeout=30)  # the check reply
        (courier,) = _couriers(workdir / "pbem.log")
        assert courier != daemon.pid and _parent_of(courier) == daemon.pid
    finally:
        daemon.kill()
        daemon.wait(10)
    wait_until(lambda: _gone(courier), timeout=5)  # the kernel ended it with the daemon

    sent_before = _sent(workdir)
    daemon = _serve(workdir)  # started again at once: one courier, the new one
    try:
        inbox.deliver(order_mail("g1", "bob", "pw-b", "ADD 2\n", message_id="m2@example.org"))
        wait_until(lambda: _sent(workdir) > sent_before, timeout=30)
        first, second = _couriers(workdir / "pbem.log")
        assert first == courier and _parent_of(second) == daemon.pid
    finally:
        daemon.send_signal(signal.SIGTERM)
        assert daemon.wait(30) == 0
    assert _gone(second)  # stopped by the daemon before it ended


def test_a_courier_process_that_ended_is_started_again_and_sends(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    settings = Settings(
        database=DatabaseSettings(url=f"sqlite:///{tmp_path / 'pbem.db'}"),
        maildir=MaildirSettings(inbox=str(tmp_path / "in"), outbox=str(tmp_path / "out")),
    )
    caplog.set_level(logging.INFO, logger="pbem.daemon.courier_process")
    service = Service.from_settings(settings)
    upgrade(service.db)
    courier = CourierProcess(service, cap=60.0, monotonic=lambda: 0.0)
    courier.start()
    busy = threading.Event()  # a thread of the daemon's at work (the schedule's, IMAP's)
    beside = threading.Thread(target=busy.wait)
    beside.start()
    try:
        first = courier._process.pid
        os.kill(first, signal.SIGKILL)
        wait_until(lambda: not courier._process.is_alive())
        with transaction(service.db) as session:
            letter = Letter("reply", "a@example.org", "s", "text", "<m@example.org>")
            queue(work_of(session), settings, letter, now=utcnow() - timedelta(seconds=1))
        courier.wake()  # finds it ended: a new one, in a fresh interpreter, which sends
        assert courier._process.pid != first
        assert f"courier: process {courier._process.pid} (spawn)" in caplog.text
        wait_until(lambda: len(list((tmp_path / "out/new").glob("*"))) == 1, timeout=30)
        second = courier._process.pid
        courier.wake()  # while it runs, a wake starts nothing
        assert courier._process.pid == second
    finally:
        busy.set()
        beside.join()
        assert courier.stop(10)
    service.db.dispose()
