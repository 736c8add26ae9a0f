"""take_in with other daemons about (pbem.store.claims): a mail another daemon has in hand is
left to it, neither handled nor marked done; a mail taken in again is known as recorded before
its password costs scrypt."""

from __future__ import annotations

import logging
import threading
from collections.abc import Collection, Sequence
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.exc import OperationalError

from pbem import passwords
from pbem.config import DatabaseSettings
from pbem.games.games import find_seat
from pbem.games.seat_passwords import give_password
from pbem.games.service import Service
from pbem.intake import ahead, intake, poll
from pbem.intake.intake import receive
from pbem.intake.poll import PollReport, take_in
from pbem.logs import ContextFilter
from pbem.mail.imap import ImapUnavailable
from pbem.mail.maildir import MaildirInbox
from pbem.store.claims import Claims
from pbem.store.games import seats_of_games
from pbem.store.work import Games
from tests.support.games import inbound, new_game, outbox
from tests.support.mails import mail, order_mail


def test_a_mail_another_daemon_has_in_hand_is_left_to_it(
    service: Service, now: datetime, tmp_path: Path
) -> None:
    new_game(service, now)
    inbox = MaildirInbox(tmp_path / "inbox")
    keys = [
        inbox.deliver(order_mail("g1", "alice", "pw-alice", f"ADD {n}\n", message_id=f"m{n}"))
        for n in range(1, 4)
    ]
    shared = service.db.dialect.name == "postgresql"  # SQLite has one daemon: nothing to share
    with Claims(service.db) as other:
        assert other.take(keys[1])
        report = PollReport()
        statuses = take_in(service, inbox, now=now, report=report)
        left = [item.key for item in inbox.pending()]
    assert statuses["accepted"] == (2 if shared else 3)
    assert report.elsewhere == (1 if shared else 0)
    assert left == ([keys[1]] if shared else [])
    assert len(inbound(service)) == (2 if shared else 3)
    # Let go of (the other daemon died, say), it is taken in at the next pass.
    assert take_in(service, inbox, now=now)["accepted"] == (1 if shared else 0)
    assert inbox.pending() == []
    assert len(inbound(service)) == 3


def test_a_batch_is_marked_done_at_once_after_its_commits_and_a_crash_before_is_a_redo(
    service: Service, now: datetime, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One mark for the batch (an IMAP round trip a mail was a sixth of a wave's intake),
    after every mail's commit. A crash before it leaves the mails waiting: taken in again,
    each is found recorded and marked, with no second answer."""
    new_game(service, now)
    inbox = MaildirInbox(tmp_path / "inbox")
    keys = [
        inbox.deliver(order_mail("g1", "alice", "pw-alice", f"ADD {n}\n", message_id=f"m{n}"))
        for n in range(1, 4)
    ]
    marks: list[tuple[str, ...]] = []
    real_mark = inbox.mark_done

    def crash(*keys: str) -> None:
        marks.append(keys)
        assert len(inbound(service)) == 3  # every mail committed before the mark
        raise KeyboardInterrupt  # the process dies here

    monkeypatch.setattr(inbox, "mark_done", crash)
    with pytest.raises(KeyboardInterrupt):
        take_in(service, inbox, now=now)
    assert marks == [tuple(keys)]
    assert [item.key for item in inbox.pending()] == keys
    replies = len(outbox(service))

    monkeypatch.setattr(inbox, "mark_done", lambda *keys: (marks.append(keys), real_mark(*keys)))
    assert take_in(service, inbox, now=now) == {"duplicate": 3}
    assert marks[1:] == [tuple(keys)]
    assert inbox.pending() == []
    assert len(outbox(service)) == replies


def test_a_database_fault_is_the_failure_told_when_the_inbox_fails_too(
    service: Service,
    now: datetime,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The database fails on the second mail, and the mark of the first then fails too (the
    network gone): the database fault goes on to the daemon, which backs off for it, where
    it was swallowed as "inbox unavailable"."""
    new_game(service, now)
    inbox = MaildirInbox(tmp_path / "inbox")
    keys = [
        inbox.deliver(order_mail("g1", "alice", "pw-alice", f"ADD {n}\n", message_id=f"m{n}"))
        for n in range(1, 3)
    ]
    fault = OperationalError("INSERT", {}, Exception("database is locked"))
    calls: list[bytes] = []
    marks: list[tuple[str, ...]] = []

    def failing_receive(service: Service, raw: bytes, **options: Any) -> intake.Receipt:
        calls.append(raw)
        if len(calls) == 2:
            raise fault
        return receive(service, raw, **options)

    def gone(*keys: str) -> None:
        marks.append(keys)
        raise ImapUnavailable("connection reset by peer")

    monkeypatch.setattr(poll, "receive", failing_receive)
    monkeypatch.setattr(inbox, "mark_done", gone)
    with pytest.raises(OperationalError) as raised:
        take_in(service, inbox, now=now)
    assert raised.value is fault
    assert marks == [(keys[0],)]
    assert "1 mail(s) taken in but not marked done: connection reset by peer" in caplog.text
    assert len(inbound(service)) == 1


def test_a_mail_taken_in_again_is_known_before_its_password_is_checked(
    service: Service, now: datetime, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another daemon recorded it and marked it done just after this one fetched it: a
    wrong password (which no cache spares) must not cost scrypt a second time."""
    new_game(service, now)
    checks: list[bool] = []
    real_scrypt = passwords._scrypt

    def counted(*args: Any) -> bytes:
        checks.append(True)
        return real_scrypt(*args)

    monkeypatch.setattr(passwords, "_scrypt", counted)
    raw = order_mail("g1", "alice", "guess", "ADD 3\n")
    assert receive(service, raw, now=now).status == "quarantined"
    once = len(checks)
    assert once >= 1
    assert receive(service, raw, now=now).status == "duplicate"
    assert len(checks) == once


def test_passwords_are_checked_ahead_in_threads_of_their_own_and_once(
    service: Service, now: datetime, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A daemon just started pays scrypt once a seat: the next mails' checks run in other
    threads (scrypt lets go of the interpreter) while one mail is handled, and the handling
    finds them done. A mail another daemon has in hand is not looked at."""
    new_game(service, now)
    new_game(service, now, game="g2")
    threads: list[str] = []
    real_scrypt = passwords._scrypt

    def watched(*args: Any) -> bytes:
        threads.append(threading.current_thread().name.split("_")[0])
        return real_scrypt(*args)

    monkeypatch.setattr(passwords, "_scrypt", watched)
    monkeypatch.setattr(passwords, "_VERIFIED", passwords.PasswordMemory())  # just started
    inbox = MaildirInbox(tmp_path / "inbox")
    seats = [("g1", "alice"), ("g1", "bob"), ("g2", "alice"), ("g2", "bob")]
    keys = [
        inbox.deliver(order_mail(game, seat, f"pw-{seat}", "ADD 1\n", message_id=f"{game}{seat}"))
        for game, seat in seats
    ]
    shared = service.db.dialect.name == "postgresql"
    with Claims(service.db) as other:
        assert other.take(keys[2])
        statuses = take_in(service, inbox, now=now)
    assert statuses["accepted"] == (3 if shared else 4)
    # The first mail is checked in line, the others ahead; each password once.
    assert sorted(threads) == ["MainThread"] + ["pbem-ahead"] * (2 if shared else 3)


def test_passwords_proved_without_scrypt_are_looked_at_in_line_without_threads(
    service: Service, now: datetime, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Once each seat's password is verified (here by the first mails), the look-ahead costs
    an HMAC a mail: it is done in line, and no thread is started to fight over the
    interpreter for it."""
    new_game(service, now)
    inbox = MaildirInbox(tmp_path / "inbox")
    first = [("alice", "1"), ("bob", "1")]
    then = [("alice", "2"), ("bob", "2"), ("alice", "3"), ("bob", "3")]
    for seat, n in first:
        inbox.deliver(order_mail("g1", seat, f"pw-{seat}", f"ADD {n}\n", message_id=f"{seat}{n}"))
    assert take_in(service, inbox, now=now)["accepted"] == 2
    submitted: list[object] = []

    class Watched(ahead.ThreadPoolExecutor):
        def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
            submitted.append(fn)
            return super().submit(fn, *args, **kwargs)

    monkeypatch.setattr(ahead, "ThreadPoolExecutor", Watched)
    looked: list[tuple[str, int]] = []
    real_look = ahead.look_ahead

    def watched_look(service: Service, raws: Sequence[bytes]) -> Any:
        looked.append((threading.current_thread().name, len(raws)))
        return real_look(service, raws)

    monkeypatch.setattr(ahead, "look_ahead", watched_look)
    for seat, n in then:
        inbox.deliver(order_mail("g1", seat, f"pw-{seat}", f"ADD {n}\n", message_id=f"{seat}{n}"))
    assert take_in(service, inbox, now=now)["accepted"] == 4
    # Every mail but the first (looked at inside), together, in line.
    assert looked == [("MainThread", 3)]
    assert submitted == []


def test_a_seat_proved_ahead_is_not_looked_up_again_and_a_new_password_still_counts(
    service: Service, now: datetime, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The look-ahead remembers a seat it found proved, with its password: that seat's next
    mails cost it no reading of the database. The check inside is the one that counts: once
    the seat's password has changed, the old one is refused though the look-ahead knew it."""
    new_game(service, now)
    inbox = MaildirInbox(tmp_path / "inbox")

    def mails(password: str, *numbers: int) -> None:
        for n in numbers:
            # ADD 1 to 3, orders the game accepts (a mail with none accepted is not "accepted")
            text = f"ADD {n % 3 + 1}\n"
            raw = order_mail("g1", "alice", password, text, message_id=f"a{n}")
            inbox.deliver(raw)

    mails("pw-alice", 1, 2, 3)
    assert take_in(service, inbox, now=now)["accepted"] == 3  # the 2nd and 3rd in one look
    looked_up: list[list[str]] = []

    def watched(aggregate: Games, games: Collection[str]) -> Any:
        looked_up.append(sorted(games))
        return seats_of_games(aggregate._session, games)

    # The look-ahead reads the seats through its Work's game aggregate.
    monkeypatch.setattr(Games, "seats_of_games", watched)
    mails("pw-alice", 4, 5, 6)
    assert take_in(service, inbox, now=now)["accepted"] == 3
    assert looked_up == []
    with service.store.transaction() as work:
        seat = find_seat(work, "g1", "alice")
        assert seat is not None
        give_password(seat, "a-new-one", service.settings.security)
    mails("pw-alice", 7, 8)
    assert take_in(service, inbox, now=now) == {"quarantined": 2}
    assert [m.outcome for m in inbound(service)[-2:]] == [
        "password: wrong password for seat alice in game g1"
    ] * 2
    # Refused, the seat is forgotten: its next mail is looked at in full (scrypt ahead).
    mails("pw-alice", 9)
    assert take_in(service, inbox, now=now) == {"quarantined": 1}
    assert looked_up == [["g1"]]


def test_each_mail_commits_on_the_one_engine_before_the_batch_is_marked_done(
    service: Service, now: datetime, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The service opens one engine, whose commits wait for the disk (on PostgreSQL too:
    no engine with synchronous_commit off), and every mail of a batch is committed before
    the batch is marked done."""
    url = service.db.url.render_as_string(hide_password=False)
    from_settings = Service.from_settings(replace(service.settings, database=DatabaseSettings(url)))
    engine = from_settings.db
    if engine.dialect.name == "postgresql":
        with engine.connect() as connection:
            assert connection.exec_driver_sql("SHOW synchronous_commit").scalar() == "on"
    new_game(from_settings, now)
    inbox = MaildirInbox(tmp_path / "inbox")
    keys = [
        inbox.deliver(order_mail("g1", "alice", "pw-alice", f"ADD {n}\n", message_id=f"m{n}"))
        for n in range(1, 4)
    ]
    marks: list[int] = []

    def mark_done(*marked: str) -> None:
        assert marked == tuple(keys)
        marks.append(len(inbound(service)))  # read on another connection: committed

    monkeypatch.setattr(inbox, "mark_done", mark_done)
    try:
        assert take_in(from_settings, inbox, now=now) == {"accepted": 3}
    finally:
        engine.dispose()
    assert marks == [3]


def test_the_handlings_log_lines_name_the_mail_by_its_message_id(
    service: Service, now: datetime, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 42's leftovers: the log lines written while a mail was handled (intake.joining,
    intake.stop) named it msg=<the maildir file's name>, which no operator can look up in
    the database; they name its Message-ID, as the "mail in" line after them does."""
    new_game(service, now, seats=(), signup_seats=2)
    inbox = MaildirInbox(tmp_path / "inbox")
    for n in range(2):
        inbox.deliver(mail("JOIN g1 vic PASSWORD x", sender="vic@x.org", message_id=f"j{n}@x"))
    caplog.handler.addFilter(ContextFilter())
    with caplog.at_level(logging.INFO):
        take_in(service, inbox, now=now)
    [set_aside] = [r for r in caplog.records if r.name == "pbem.intake.joining"]
    assert set_aside.message_id == "j1@x"  # type: ignore[attr-defined]
