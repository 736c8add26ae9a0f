"""The Subject of a mail to the moderator may be anything, or nothing: it is not read (a
subject naming a command or another game changes nothing), and the answer keeps it with
"Re:" in front, as docs/players.md tells players."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from pbem.games.service import Service
from pbem.intake.intake import receive
from tests.support.games import new_game, orders, outbox
from tests.support.mails import order_mail

HANDBOOK = Path(__file__).resolve().parents[2] / "docs/players.md"


def test_the_subject_is_not_read_and_comes_back_with_re(service: Service, now: datetime) -> None:
    new_game(service, now)
    misleading = "STATUS g2 please"
    receipt = receive(
        service, order_mail("g1", "alice", "pw-alice", "ADD 2\n", subject=misleading), now=now
    )
    assert receipt.status == "accepted"
    assert [row.subject for row in outbox(service)[-1:]] == [f"Re: {misleading}"]
    empty = order_mail("g1", "alice", "pw-alice", "ADD 3\n", subject="", message_id="m2@x.org")
    assert receive(service, empty, now=now).status == "accepted"
    assert outbox(service)[-1].subject == "Re: your mail"
    assert [row.text for row in orders(service)][-1].startswith("ADD 3")


def test_the_handbook_says_so() -> None:
    text = " ".join(HANDBOOK.read_text().split())
    assert "The Subject may be anything, or empty: the moderator does not read it, except" in text
    assert '(one about a STOP says "Re: your mail")' in text
