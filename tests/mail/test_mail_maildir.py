"""The Maildir inbox and outbox: pending until marked done, atomic deliveries, stable keys."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pbem.mail.compose import compose
from pbem.mail.maildir import InboxItem, MaildirInbox, MaildirSender


def test_creates_the_folders(tmp_path: Path) -> None:
    MaildirInbox(tmp_path / "inbox")
    assert sorted(p.name for p in (tmp_path / "inbox").iterdir()) == ["cur", "new", "tmp"]


def test_deliver_pending_mark_done(tmp_path: Path) -> None:
    inbox = MaildirInbox(tmp_path)
    first = inbox.deliver(b"Subject: one\n\n1\n")
    second = inbox.deliver(b"Subject: two\n\n2\n")
    assert inbox.pending() == [
        InboxItem(first, b"Subject: one\n\n1\n"),
        InboxItem(second, b"Subject: two\n\n2\n"),
    ]
    inbox.mark_done(first)
    assert inbox.pending() == [InboxItem(second, b"Subject: two\n\n2\n")]
    assert os.listdir(tmp_path / "cur") == [f"{first}:2,S"]
    assert (tmp_path / "cur" / f"{first}:2,S").read_bytes() == b"Subject: one\n\n1\n"


def test_mark_done_is_idempotent(tmp_path: Path) -> None:
    inbox = MaildirInbox(tmp_path)
    key = inbox.deliver(b"x")
    inbox.mark_done(key)
    inbox.mark_done(key)
    assert os.listdir(tmp_path / "cur") == [f"{key}:2,S"]
    assert inbox.pending() == []


def test_mark_done_unknown_key(tmp_path: Path) -> None:
    with pytest.raises(KeyError):
        MaildirInbox(tmp_path).mark_done("no-such-key")
    with pytest.raises(KeyError):
        MaildirInbox(tmp_path).mark_done("../escape")


def test_keys_survive_a_restart(tmp_path: Path) -> None:
    key = MaildirInbox(tmp_path).deliver(b"x")
    again = MaildirInbox(tmp_path)
    assert [item.key for item in again.pending()] == [key]
    again.mark_done(key)
    assert MaildirInbox(tmp_path).pending() == []


def test_foreign_files_in_new_and_cur(tmp_path: Path) -> None:
    inbox = MaildirInbox(tmp_path)
    (tmp_path / "new" / "1700000002.M1P1.host").write_bytes(b"b")
    (tmp_path / "cur" / "1700000001.M1P1.host:2,F").write_bytes(b"a")  # flagged, not seen
    (tmp_path / "cur" / "1700000000.M1P1.host:2,S").write_bytes(b"done")
    (tmp_path / "new" / ".hidden").write_bytes(b"skip")
    assert inbox.pending() == [
        InboxItem("1700000001.M1P1.host", b"a"),
        InboxItem("1700000002.M1P1.host", b"b"),
    ]
    inbox.mark_done("1700000001.M1P1.host")
    assert sorted(os.listdir(tmp_path / "cur")) == [
        "1700000000.M1P1.host:2,S",
        "1700000001.M1P1.host:2,FS",
    ]


def test_pending_orders_by_delivery_time_as_a_number(tmp_path: Path) -> None:
    inbox = MaildirInbox(tmp_path)
    (tmp_path / "new" / "999999999.a").write_bytes(b"older")
    (tmp_path / "new" / "1000000000.a").write_bytes(b"newer")
    assert [item.raw for item in inbox.pending()] == [b"older", b"newer"]


def test_tmp_files_are_not_pending(tmp_path: Path) -> None:
    inbox = MaildirInbox(tmp_path)
    (tmp_path / "tmp" / "1700000000.half").write_bytes(b"half written")
    assert inbox.pending() == []


def test_sender_adds_date_to_a_copy(tmp_path: Path) -> None:
    sender = MaildirSender(tmp_path / "outbox")
    msg = compose(
        sender="pbem@moderator.example",
        to="alice@example.org",
        subject="Re: orders",
        body="ok\n",
        message_id="<a@moderator.example>",
        loop_token="pbem.moderator.example",
    )
    sender.send(msg)
    assert msg["Date"] is None
    files = os.listdir(tmp_path / "outbox" / "new")
    assert len(files) == 1
    raw = (tmp_path / "outbox" / "new" / files[0]).read_bytes()
    head, body = raw.split(b"\n\n", 1)
    assert head.startswith(bytes(msg).split(b"\n\n", 1)[0] + b"\nDate: ")
    assert body == b"ok\n"
    assert os.listdir(tmp_path / "outbox" / "tmp") == []


def test_sender_keeps_an_existing_date(tmp_path: Path) -> None:
    sender = MaildirSender(tmp_path)
    msg = compose(
        sender="a@b.example",
        to="c@d.example",
        subject="s",
        body="b\n",
        message_id="<m@b.example>",
        loop_token="b.example",
    )
    msg["Date"] = "Sat, 21 Nov 2026 10:00:00 +0000"
    sender.send(msg)
    outbox = MaildirInbox(tmp_path)
    assert [item.raw for item in outbox.pending()] == [bytes(msg)]


def test_sender_delivers_a_message_id_once(tmp_path: Path) -> None:
    """A resend after a crash (delivered, not yet marked sent) must not make a second copy,
    whether the first still waits in new/ or was already read into cur/."""
    sender = MaildirSender(tmp_path)
    first = compose(sender="a@b.example", to="c@d.example", subject="s", body="b\n",
                    message_id="<one@b.example>", loop_token="b.example")  # fmt: skip
    other = compose(sender="a@b.example", to="c@d.example", subject="s", body="b\n",
                    message_id="<two@b.example>", loop_token="b.example")  # fmt: skip
    sender.send(first)
    sender.send(first)
    outbox = MaildirInbox(tmp_path)
    [item] = outbox.pending()
    outbox.mark_done(item.key)
    sender.send(first)
    sender.send(other)
    assert len(outbox.pending()) == 1
    assert len(list((tmp_path / "cur").iterdir())) == 1
