"""`pbem serve` as a process, as systemd runs it: woken by IMAP IDLE, killed with SIGKILL
between receiving mail and answering it and at a random moment, restarted, and finally
stopped with SIGTERM. Nothing is lost, nothing is applied or sent twice, and the log names
no password."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine

from pbem.config import Settings
from pbem.store import utcnow
from tests.servers.moderated import SEATS, Table, inbound_rows, seated_table, turn_of_game, unsent
from tests.servers.test_daemon_on_real_mail import expected
from tests.servers.world import MailWorld, read_folder
from tests.support.waiting import wait_until

REPO = Path(__file__).resolve().parents[2]


class Daemons:
    """Starts `pbem serve --config FILE` processes, one at a time, through the crash test's
    fork server (tests/e2e/crash_worker.py): each is a fresh process forked from a parent that
    has imported pbem once, so a restart costs no interpreter start-up."""

    def __init__(self, config: Path) -> None:
        self.config = config
        self.server = subprocess.Popen(
            [sys.executable, "-m", "tests.e2e.crash_worker"],
            cwd=REPO,
            text=True,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )
        self.pid: int | None = None
        assert self._line() == "ready"

    def start(self) -> None:
        assert self.pid is None and self.server.stdin is not None
        self.server.stdin.write(f"run serve --config {self.config}\n")
        self.server.stdin.flush()
        self.pid = int(self._line().removeprefix("child "))

    def stop(self, signum: int) -> int:
        """Send the running daemon `signum`; its exit code (-signal if the signal ended it)."""
        assert self.pid is not None
        os.kill(self.pid, signum)
        self.pid = None
        return os.waitstatus_to_exitcode(int(self._line().removeprefix("exit ")))

    def close(self) -> None:
        if self.pid is not None:
            self.stop(signal.SIGKILL)
        assert self.server.stdin is not None
        self.server.stdin.close()
        self.server.wait(timeout=10)

    def _line(self) -> str:
        assert self.server.stdout is not None
        return self.server.stdout.readline().strip()


@pytest.fixture
def table(world: MailWorld, db: Engine, settings: Settings, tmp_path: Path) -> Table:
    return seated_table(world, db, settings, utcnow(), tmp_path)


@pytest.fixture
def daemons(table: Table) -> Iterator[Daemons]:
    daemons = Daemons(table.config)
    yield daemons
    daemons.close()


def received_and_resolved(table: Table, turn: int) -> Callable[[], bool]:
    """The turn's three order mails committed and marked done, and the turn resolved."""

    def check() -> bool:
        inbox = read_folder(table.world, table.moderator, "INBOX")
        return turn_of_game(table.service) == turn + 1 and not inbox

    return check


def delivered(table: Table, seat: str) -> int:
    return table.world.relay.delivered_to(table.players[seat].address)


def test_killed_between_receiving_and_answering_then_restarted(
    world: MailWorld, table: Table, daemons: Daemons
) -> None:
    daemons.start()
    assert table.wait_for_subjects(1) == expected(0)

    world.smtp["starttls"].stop()  # the answers cannot leave ...
    table.send_orders()
    wait_until(received_and_resolved(table, 1))
    assert daemons.stop(signal.SIGKILL) == -signal.SIGKILL  # ... when the process dies
    assert (unsent(table.service), table.wait_for_subjects(1, timeout=0)) == (6, expected(0))

    world.smtp["starttls"].start()
    daemons.start()
    assert table.wait_for_subjects(3) == expected(1)

    table.send_orders()
    time.sleep(random.uniform(0.0, 1.0))  # somewhere in intake, resolution or sending
    assert daemons.stop(signal.SIGKILL) == -signal.SIGKILL
    daemons.start()
    # SMTP cannot take part in our transaction: a kill between a delivery and the commit
    # that records it sends that one mail again after the restart, with the same Message-ID
    # (at least once, never lost). So from here mail is counted by Message-ID.
    wait_until(lambda: table.distinct_subjects() == expected(2))
    # The killed daemon may have sent all of turn 2 already: wait until the new one serves
    # (its signal handlers are in place) before asking it to stop.
    wait_until(lambda: table.log.read_text().count("serving (") == 3)  # the third start
    # A mail the killed daemon delivered but had not yet recorded as sent is sent again by the
    # new one (same Message-ID): wait for its sending thread to get there before the stop.
    wait_until(lambda: unsent(table.service) == 0)
    assert daemons.stop(signal.SIGTERM) == 0

    assert inbound_rows(table.service) == [("accepted", 1)] * 6
    assert (turn_of_game(table.service), unsent(table.service)) == (3, 0)
    assert [delivered(table, seat) - len(table.mail_of(seat)) for seat in SEATS] == [0, 0, 0]
    assert table.distinct_subjects() == expected(2)
    log = table.log.read_text()
    assert "SIGTERM: stopping" in log and log.rstrip().endswith("stopped")
    assert [secret for secret in table.passwords() if secret in log] == []
    assert [seat for seat in SEATS if f"pw-{seat}" in log] == []
