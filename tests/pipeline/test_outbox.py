"""The outbox: queued with the change that caused it, drained into the outbox maildir, each
row marked sent once; a failing transport leaves the row for the next drain."""

from __future__ import annotations

import email
import shutil
import sqlite3
from collections.abc import Callable
from datetime import datetime
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event
from sqlalchemy.exc import OperationalError

from pbem.games.outbox import READ_AHEAD, Letter, drain, queue
from pbem.games.service import Service
from pbem.games.stale import drop_turn_notices
from pbem.intake.intake import receive
from pbem.mail.compose import stable_message_id
from pbem.mail.maildir import MaildirSender
from pbem.store import Outbox, OutboxKind, make_engine, transaction, upgrade
from pbem.store.outbox_rows import next_rows
from pbem.store.work import work_of
from tests.conftest import quick_settings
from tests.support.games import new_game, outbox
from tests.support.mails import mail


def _files(folder: Path) -> list[Path]:
    return sorted((folder / "new").iterdir())


def test_drain_sends_each_row_once(service: Service, now: datetime, tmp_path: Path) -> None:
    new_game(service, now)
    receive(service, mail("HELP"), now=now)
    sender = MaildirSender(tmp_path / "out")
    assert drain(service, sender, now=now).sent == 3  # two start mails and the reply
    assert drain(service, sender, now=now).sent == 0
    assert all(row.sent_at == now and row.attempts == 1 for row in outbox(service))
    sent = [email.message_from_bytes(path.read_bytes()) for path in _files(tmp_path / "out")]
    assert sorted(m["Message-ID"] for m in sent) == sorted(r.message_id for r in outbox(service))
    assert {m["Auto-Submitted"] for m in sent} == {"auto-generated", "auto-replied"}
    assert {m["X-Loop"] for m in sent} == {"pbem.localhost"}


def test_reply_ids_are_stable(service: Service, now: datetime) -> None:
    receive(service, mail("HELP", message_id="help-1@example.org"), now=now)
    [row] = outbox(service)
    assert row.message_id == stable_message_id(
        "reply", "help-1@example.org", "1", "0", domain="pbem.localhost"
    )


def test_a_maildir_that_cannot_be_written_keeps_the_row_for_later(
    service: Service, now: datetime, tmp_path: Path
) -> None:
    # The sender's contract (pbem.mail.delivery): the maildir failing is the transport down,
    # as an SMTP server away is: the pass stops, nothing counts against the mail, and it goes
    # at the first pass once the folder can be written again.
    receive(service, mail("HELP"), now=now)
    sender = MaildirSender(tmp_path / "out")
    shutil.rmtree(tmp_path / "out" / "tmp")
    (tmp_path / "out" / "tmp").write_text("not a folder")  # deliveries now fail
    report = drain(service, sender, now=now)
    assert (report.sent, report.failed) == (0, 1)
    assert report.stopped.startswith("maildir: ")
    [row] = outbox(service)
    assert (row.sent_at, row.attempts, row.next_attempt_at) == (None, 0, None)
    assert row.last_error.startswith("maildir: ") and "Not a directory" in row.last_error
    (tmp_path / "out" / "tmp").unlink()
    (tmp_path / "out" / "tmp").mkdir()
    assert drain(service, sender, now=now).sent == 1


class Recording:
    """A sender that keeps the subjects it took, and calls `during` after the third."""

    def __init__(self, during: Callable[[], None]) -> None:
        self.subjects: list[str] = []
        self.during = during

    def send(self, message: EmailMessage) -> None:
        self.subjects.append(str(message["Subject"]))
        if len(self.subjects) == 3:
            self.during()


def test_a_reply_queued_during_a_long_drain_goes_after_a_few_more_mails(
    service: Service, now: datetime
) -> None:
    """A deadline wave's reports fill the outbox; a player who writes meanwhile must not wait
    for them all: the drain reads the queue a few rows at a time, replies first."""

    def letter(kind: str, n: int) -> Letter:
        return Letter(kind, f"p{n}@example.org", f"{kind} {n}", "text", f"<{kind}-{n}@x>")

    def queue_letter(kind: str, n: int) -> None:
        with service.store.transaction() as work:
            queue(work, service.settings, letter(kind, n), now=now)

    for n in range(40):
        queue_letter("report", n)
    sender = Recording(lambda: queue_letter("reply", 0))
    assert drain(service, sender, now=now).sent == 41
    position = sender.subjects.index("reply 0")
    assert position <= 3 + READ_AHEAD and position < 40  # not after every report
    assert [s for s in sender.subjects if s != "reply 0"] == [f"report {n}" for n in range(40)]


class Locking:
    """A sender that keeps the subjects it took and, having taken one, locks the database."""

    def __init__(self, database: Path) -> None:
        self.subjects: list[str] = []
        self.other = sqlite3.connect(database, isolation_level=None)

    def send(self, message: EmailMessage) -> None:
        self.subjects.append(str(message["Subject"]))
        self.other.execute("BEGIN EXCLUSIVE")


def test_a_mail_sent_whose_record_failed_is_recorded_later_not_sent_again(
    tmp_path: Path, now: datetime
) -> None:
    """SQLite, where a mail is sent before its row is written: the database failing just then
    (locked past its wait here; read-only or full alike) must not make every retry send the
    mail again while it lasts."""
    engine = make_engine(f"sqlite:///{tmp_path / 'pbem.db'}", busy_seconds=0.2)
    upgrade(engine)
    service = Service(engine, quick_settings())
    receive(service, mail("HELP"), now=now)
    sender = Locking(tmp_path / "pbem.db")
    for _ in range(2):  # the send, then a retry while the database is still locked
        with pytest.raises(OperationalError, match="database is locked"):
            drain(service, sender, now=now)
    assert len(sender.subjects) == 1
    sender.other.execute("ROLLBACK")
    report = drain(service, sender, now=now)
    assert (report.sent, len(sender.subjects)) == (1, 1)
    [row] = outbox(service)
    assert (row.sent_at, row.attempts) == (now, 1)
    sender.other.close()
    engine.dispose()


def test_a_drain_reads_the_waiting_rows_from_their_own_index(
    service: Service, now: datetime
) -> None:
    """The outbox keeps every mail ever sent; a drain, every READ_AHEAD mails, reads only the
    rows still to send: on PostgreSQL in its order (ix_outbox_waiting), on SQLite by the
    index of the rows not sent (its planner's choice, which the other would not change)."""
    new_game(service, now)
    read: list[tuple[str, Any]] = []

    def watch(_conn: object, _cursor: object, statement: str, parameters: Any, *_: object) -> None:
        if statement.startswith("SELECT"):  # not SQLite's BEGIN
            read.append((statement, parameters))

    with transaction(service.db) as session:
        event.listen(service.db, "before_cursor_execute", watch)
        try:
            assert len(next_rows(session, now, READ_AHEAD, skip=frozenset({1}))) == 1
        finally:
            event.remove(service.db, "before_cursor_execute", watch)
        [(statement, parameters)] = read
        explain = "EXPLAIN" if service.db.dialect.name == "postgresql" else "EXPLAIN QUERY PLAN"
        plan = session.connection().exec_driver_sql(f"{explain} {statement}", parameters)
        index = "ix_outbox_waiting" if explain == "EXPLAIN" else "ix_outbox_sent_at (sent_at=?)"
        assert index in " ".join(str(row) for row in plan)


def test_a_resolved_turns_notices_are_found_by_their_topics_index_not_by_the_waiting_mail(
    service: Service, now: datetime
) -> None:
    """Resolving a turn drops its unsent reminders (pbem.games.stale.drop_turn_notices). In a
    deadline wave thousands of reports wait to be sent: on SQLite the drop used to read each
    of them, bytes and all, at every resolved turn (LIKE uses no index there). It finds the
    notices by the topic's index alone, and drops those of its game only: not g10's for g1,
    nor a sent one."""

    def notice(number: int, game: str, topic: str, *, sent: bool = False) -> Outbox:
        return Outbox(
            message_id=f"n{number}@x",
            kind=OutboxKind.CLOCK,
            recipient="a@example.org",
            subject="s",
            raw=b"x",
            game_id=game,
            created_at=now,
            topic=topic,
            sent_at=now if sent else None,
        )

    read: list[tuple[str, Any]] = []

    def watch(_conn: object, _cursor: object, statement: str, parameters: Any, *_: object) -> None:
        read.append((statement, parameters))

    with transaction(service.db) as session:
        rows = [
            notice(1, "g1", "reminder g1 a@example.org"),
            notice(2, "g1", "deadline-moved g1 b@example.org"),
            notice(3, "g10", "reminder g10 a@example.org"),
            notice(4, "g1", "reminder g1 c@example.org", sent=True),
            notice(5, "g1", "REMINDER g1 a@example.org"),
        ]
        session.add_all(rows)
        session.flush()
        event.listen(service.db, "before_cursor_execute", watch)
        try:
            assert drop_turn_notices(work_of(session), "g1", 1, now=now) == 2
        finally:
            event.remove(service.db, "before_cursor_execute", watch)
        dropped = [row.message_id for row in rows if session.get(Outbox, row.id).dropped_at]
        assert dropped == ["n1@x", "n2@x"]
        if service.db.dialect.name != "sqlite":
            return  # LIKE there, and a planner of its own
        for statement, parameters in read:
            plan = session.connection().exec_driver_sql(
                f"EXPLAIN QUERY PLAN {statement}", parameters
            )
            steps = " ".join(str(row) for row in plan)
            assert "ix_outbox_topic" in steps or "PRIMARY KEY" in steps, steps
