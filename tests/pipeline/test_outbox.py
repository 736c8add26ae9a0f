"""The outbox: queued with the change that caused it, drained into the outbox maildir, each
row marked sent once; a failing transport leaves the row for the next drain."""

from __future__ import annotations

import email
import shutil
from datetime import datetime
from pathlib import Path

from pbem.games.outbox import drain
from pbem.games.service import Service
from pbem.intake.intake import receive
from pbem.mail.compose import stable_message_id
from pbem.mail.maildir import MaildirSender
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
