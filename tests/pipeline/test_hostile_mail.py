"""Hostile mail through the real intake (issue 42): a player's mails that held intake for
minutes each are taken in from the inbox in well under a few seconds, on both databases;
the other player's orders behind them are answered in the same pass; and every reply quotes
the mail cut short (its Subject, its lines), under 64 kB."""

from __future__ import annotations

import time
from datetime import datetime
from pathlib import Path

from pbem.games.service import Service
from pbem.intake.intake import receive
from pbem.intake.poll import take_in
from pbem.mail.maildir import MaildirInbox
from tests.support.games import body, new_game, orders, outbox, quarantined
from tests.support.mails import mail, order_mail

ENVELOPE = "GAME g1 SEAT alice PASSWORD pw-alice"


def _html(message_id: str, junk: str) -> bytes:
    raw = mail("x", message_id=message_id, subject="html orders")
    head = raw.split(b"\n\n")[0].replace(b"text/plain", b"text/html")
    return head + b"\n\n" + f"<p>{ENVELOPE}</p><p>ADD 2</p>{junk}".encode()


def test_hostile_mails_cost_little_and_replies_quote_them_cut_short(
    service: Service, now: datetime, tmp_path: Path
) -> None:
    new_game(service, now)
    inbox = MaildirInbox(tmp_path / "inbox")
    inbox.deliver(_html("a@x.org", "<a " * 70_000))  # 210 kB: minutes on html.parser
    inbox.deliver(_html("c@x.org", "<!--" * 50_000))
    long_subject = "orders" + " A" * 30_000  # 60 kB, folded: under the 100 kB header
    inbox.deliver(order_mail("g1", "alice", "pw-alice", "ADD 3\n", message_id="s@x.org",
                             subject=long_subject))  # fmt: skip
    long_lines = ("ADD " + "9" * 3000 + "\n") * 300
    inbox.deliver(order_mail("g1", "alice", "pw-alice", long_lines, message_id="l@x.org"))
    inbox.deliver(mail("hello\n", message_id="q@x.org", subject="=?utf-8?q?a?= " * 6000))
    inbox.deliver(order_mail("g1", "bob", "pw-bob", "ADD 1\n", message_id="b@x.org"))

    began = time.process_time()
    statuses = take_in(service, inbox, now=now)
    assert time.process_time() - began < 10.0  # all six; the first alone took minutes
    assert statuses == {"accepted": 4, "answered": 1, "quarantined": 1}, statuses
    assert [row.text for row in orders(service)] == ["ADD 3", "ADD 1"]
    assert [row.reason for row in quarantined(service)] == ["envelope"]

    replies = outbox(service, "reply")
    assert len(replies) == 6
    assert all(len(row.raw) < 64_000 for row in replies)
    subjects = [row.subject for row in replies]
    assert subjects[2] == "Re: orders" + " A" * 96 + "…"  # 200 characters at most, cut
    rejected = body(replies[3])  # 300 lines of 3,000 characters, none accepted
    assert "Rejected (300):" in rejected and "9" * 500 not in rejected
    assert len(subjects[4]) == len("Re: ") + 200


def test_html_nested_past_the_tag_cap_is_refused_as_unreadable_not_as_empty(
    service: Service, now: datetime
) -> None:
    """Fresh-eyes test (issue 43): 50,000 nested <div> around a GAME line were cut at the
    50,000th tag before the GAME line, and the answer said the mail had no GAME line. It
    says the HTML could not be read whole, and asks for plain text."""
    new_game(service, now)
    raw = mail("x", message_id="deep@x.org", subject="deep")
    head = raw.split(b"\n\n")[0].replace(b"text/plain", b"text/html")
    depth = 50_000
    html = "<div>" * depth + f"{ENVELOPE}<br>ADD 2" + "</div>" * depth
    began = time.process_time()
    receipt = receive(service, head + b"\n\n" + html.encode(), now=now)
    assert time.process_time() - began < 5.0
    assert receipt.status == "quarantined"
    assert [row.reason for row in quarantined(service)] == ["too-big"]
    (reply,) = receipt.replies
    text = " ".join(body(reply).split())
    assert "has no GAME line" not in text
    assert "could not be read" in text and "50,000 elements deep" in text
    assert "Send your mail as plain text" in text
    assert orders(service) == []


def test_html_cut_after_its_orders_is_noted_within_72_columns(
    service: Service, now: datetime
) -> None:
    """The orders before the cut are read, and the check reply's note says the rest was
    not, wrapped at 72 columns like the rest of the reply."""
    new_game(service, now)
    raw = mail("x", message_id="cut@x.org", subject="cut")
    head = raw.split(b"\n\n")[0].replace(b"text/plain", b"text/html")
    html = f"<p>{ENVELOPE}</p><p>ADD 2</p>" + "<div>" * 60_000
    receipt = receive(service, head + b"\n\n" + html.encode(), now=now)
    assert receipt.status == "accepted"
    text = body(receipt.replies[0])
    assert [line for line in text.splitlines() if len(line) > 72] == []
    assert "the HTML part was not read whole" in text
    assert [row.text for row in orders(service)] == ["ADD 2"]
