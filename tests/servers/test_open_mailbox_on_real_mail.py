"""An open mailbox made safe, on the real servers (Dovecot, the SMTP relay) through `pbem
serve`: a stranger's wrong passwords for a seat cannot silence its player's check replies;
thanking for the answer to an UNSTOP stops nothing; orders over a long quoted thread are
read."""

from __future__ import annotations

import re

import pytest
from sqlmodel import select

from pbem.mail.compose import text_of
from pbem.store import MailStop, transaction
from tests.servers.moderated import Table
from tests.servers.test_conversation_on_real_mail import table_orders
from tests.servers.test_daemon_on_real_mail import serve_once
from tests.servers.test_daemon_on_real_mail import table as table  # the fixture

_MAILTO = re.compile(r"subject=STOP%20([A-Z2-7]{16})>")


def test_a_strangers_wrong_passwords_leave_the_seat_its_check_reply(
    table: Table, capsys: pytest.CaptureFixture[str]
) -> None:
    config = table.config.read_text().replace(
        "replies_per_sender = 1000", "replies_per_sender = 30"
    )
    table.config.write_text(config)
    serve_once(table, capsys)
    table.wait_for_subjects(1)
    mallory, bob = table.world.player("mallory"), table.players["bob"]
    for number in range(30):
        mallory.send(table.moderator.address, f"GAME g1 SEAT bob PASSWORD wrong{number}\n")
    serve_once(table, capsys)
    bob.send(table.moderator.address, table_orders(table, "bob"), subject="turn 1")
    serve_once(table, capsys)
    subjects = [str(m["Subject"]) for m in bob.wait_for_mail(3)]
    assert subjects.count("[g1] a mail for bob was refused") == 1
    assert "Re: turn 1" in subjects
    assert len(mallory.wait_for_mail(30)) == 30  # each refused to its sender


def test_thanks_for_the_answer_to_an_unstop_stops_nothing(
    table: Table, capsys: pytest.CaptureFixture[str]
) -> None:
    serve_once(table, capsys)
    table.wait_for_subjects(1)
    alice = table.players["alice"]
    [start] = alice.wait_for_mail(1)
    found = _MAILTO.search(str(start["List-Unsubscribe"]))
    assert found is not None
    code = found.group(1)
    alice.send(table.moderator.address, "", subject=f"STOP {code}")
    serve_once(table, capsys)
    alice.send(table.moderator.address, f"UNSTOP {code}", subject=f"Re: STOP {code}")
    serve_once(table, capsys)
    answer = alice.wait_for_mail(3)[-1]
    assert str(answer["Subject"]) == "Re: your mail"
    assert "goes to alice" in " ".join(text_of(answer).split())
    alice.send(table.moderator.address, "thanks", subject=f"Re: {answer['Subject']}")
    alice.send(table.moderator.address, "thanks", subject=f"Re: Re: STOP {code}")
    serve_once(table, capsys)
    with transaction(table.service.db) as session:
        assert list(session.exec(select(MailStop))) == []


def test_orders_over_a_long_quoted_thread_are_answered(
    table: Table, capsys: pytest.CaptureFixture[str]
) -> None:
    serve_once(table, capsys)
    table.wait_for_subjects(1)
    alice = table.players["alice"]
    quoted = "".join(f"> {n}: what the thread said\n" for n in range(6_000))
    alice.send(table.moderator.address, table_orders(table, "alice") + "\n" + quoted, subject="t1")
    assert serve_once(table, capsys)[0] == "mail in: 1 (1 accepted)"
    [reply] = [m for m in alice.wait_for_mail(2) if str(m["Subject"]) == "Re: t1"]
    assert "the 6,000 lines that begin with '>') was not read" in " ".join(text_of(reply).split())
