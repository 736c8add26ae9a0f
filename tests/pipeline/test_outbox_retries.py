"""The drain's handling of the transport's two failures: a deferred mail waits a growing delay
and bounces when deferred too long; a refused one bounces at once, with an audit entry and one
notice to each referee of the game; a transport that is down stops the pass, holding nothing
against the mail. The sender here is a script of outcomes (the real servers are in
tests/servers); the rows are real."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest
from sqlmodel import col, select

from pbem.games.outbox import DrainReport, drain
from pbem.games.service import Service
from pbem.mail.delivery import PermanentFailure, TemporaryFailure
from pbem.mail.maildir import MaildirSender
from pbem.store import AuditLog, transaction
from pbem.store.outbox_rows import next_send_time
from tests.support.games import body, new_game, outbox

DEFERRED = TemporaryFailure("smtp: 451 4.3.0 try later", code=451)
REFUSED = PermanentFailure("smtp: 550 5.1.1 user unknown", code=550)
DOWN = TemporaryFailure("smtp: ConnectionRefusedError", transport_down=True)


class ScriptedSender:
    """Raises the scripted failures in turn, then takes every message."""

    def __init__(self, *outcomes: Exception | None) -> None:
        self._outcomes: Iterator[Exception | None] = iter(outcomes)
        self.taken: list[str] = []

    def send(self, message: EmailMessage) -> None:
        outcome = next(self._outcomes, None)
        if outcome is not None:
            raise outcome
        self.taken.append(str(message["To"]))


def _audit(service: Service) -> list[tuple[str, str | None, str]]:
    with transaction(service.db) as session:
        rows = session.exec(select(AuditLog).order_by(col(AuditLog.id)))
        return [(r.action, r.game_id, r.detail) for r in rows if r.action == "mail-bounced"]


def test_a_deferred_mail_waits_a_doubling_delay(service: Service, now: datetime) -> None:
    new_game(service, now)  # two start mails: alice's, then bob's
    sender = ScriptedSender(DEFERRED, None, DEFERRED)
    assert drain(service, sender, now=now) == DrainReport(sent=1, failed=1)
    alice, bob = outbox(service)
    assert (alice.attempts, alice.next_attempt_at, alice.last_error) == (
        1,
        now + timedelta(minutes=1),
        "smtp: 451 4.3.0 try later",
    )
    assert (bob.attempts, bob.sent_at) == (1, now)
    with transaction(service.db) as session:
        assert next_send_time(session) == now + timedelta(minutes=1)
    assert drain(service, sender, now=now + timedelta(seconds=59)) == DrainReport(0, 0)
    assert drain(service, sender, now=now + timedelta(minutes=1)) == DrainReport(0, 1)
    assert outbox(service)[0].next_attempt_at == now + timedelta(minutes=3)  # 1 + 2
    assert drain(service, sender, now=now + timedelta(minutes=3)) == DrainReport(1, 0)
    assert outbox(service)[0].attempts == 3
    assert sender.taken == ["bob@example.org", "alice@example.org"]
    with transaction(service.db) as session:
        assert next_send_time(session) is None


def test_a_refused_mail_bounces_and_each_referee_is_told_once(
    service: Service, now: datetime
) -> None:
    new_game(service, now, referees=["ref@example.org", "alice@example.org"])
    sender = ScriptedSender(REFUSED)
    # bob's start mail, then the notice queued meanwhile: in the same drain.
    assert drain(service, sender, now=now) == DrainReport(sent=2, failed=1, bounced=1)
    alice = outbox(service)[0]
    assert (alice.attempts, alice.bounced_at, alice.sent_at) == (1, now, None)
    assert _audit(service) == [
        ("mail-bounced", "g1", f"report {alice.message_id} to alice@example.org: "
         "smtp: 550 5.1.1 user unknown"),
    ]  # fmt: skip
    # alice is a referee too, but a notice to the address that bounced would bounce as well.
    [notice] = outbox(service, "bounce")
    assert (notice.recipient, notice.subject) == (
        "ref@example.org",
        "[g1] undeliverable: [g1] game begins: you are alice",
    )
    assert body(notice).startswith(
        "A mail of game g1 could not be delivered and will not be tried again.\n\n"
        "  To:       alice@example.org\n"
    )
    assert "The mail server said: smtp: 550 5.1.1 user unknown\n" in body(notice)
    assert drain(service, sender, now=now) == DrainReport(sent=0, failed=0)
    assert sender.taken == ["bob@example.org", "ref@example.org"]


def test_a_bounced_notice_starts_no_further_notice(service: Service, now: datetime) -> None:
    new_game(service, now, referees=["ref@example.org"])
    sender = ScriptedSender(REFUSED, None, REFUSED)  # alice's start mail, bob's, the notice
    # The notice, queued during the drain, goes in the same drain.
    assert drain(service, sender, now=now) == DrainReport(sent=1, failed=2, bounced=2)
    assert drain(service, sender, now=now) == DrainReport(sent=0, failed=0)
    assert [row.kind for row in outbox(service)] == ["report", "report", "bounce"]
    assert [row.bounced_at is not None for row in outbox(service)] == [True, False, True]
    assert len(_audit(service)) == 2


def test_a_mail_deferred_too_long_bounces(service: Service, now: datetime) -> None:
    new_game(service, now)
    sender = ScriptedSender(DEFERRED, None, DEFERRED)
    drain(service, sender, now=now)
    late = now + timedelta(hours=120)  # [outbox] give_up_hours
    assert drain(service, sender, now=late) == DrainReport(sent=0, failed=1, bounced=1)
    alice = outbox(service)[0]
    assert (alice.attempts, alice.bounced_at, alice.next_attempt_at) == (2, late, None)
    assert outbox(service, "bounce") == []  # no referees


def test_a_transport_that_is_down_stops_the_pass_without_counting(
    service: Service, now: datetime
) -> None:
    new_game(service, now)
    sender = ScriptedSender(DOWN)
    assert drain(service, sender, now=now) == DrainReport(
        sent=0, failed=1, stopped="smtp: ConnectionRefusedError"
    )
    alice, bob = outbox(service)
    assert (alice.attempts, alice.next_attempt_at, alice.last_error) == (
        0,
        None,
        "smtp: ConnectionRefusedError",
    )
    assert (bob.attempts, bob.last_error) == (0, "")
    assert drain(service, sender, now=now) == DrainReport(sent=2, failed=0)


def test_a_maildir_that_cannot_be_written_is_the_transport_down(tmp_path: Path) -> None:
    # The sender's contract (pbem.mail.delivery): a folder gone is the transport away, so the
    # outbox stops the pass and counts nothing against the mail, as with an SMTP server away.
    sender = MaildirSender(tmp_path / "gone")
    (tmp_path / "gone" / "tmp").rmdir()
    message = EmailMessage()
    message["Message-ID"] = "<x@pbem.localhost>"
    message.set_content("hello")
    with pytest.raises(TemporaryFailure) as failure:
        sender.send(message)
    assert failure.value.transport_down
