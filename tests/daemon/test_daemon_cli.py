"""`pbem serve --once` and `pbem outbox list` on the maildir transport, in-process."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from sqlalchemy import Engine

from pbem.cli import main
from pbem.config import load_settings
from pbem.games import seat_passwords
from pbem.mail.maildir import MaildirInbox
from pbem.store import make_engine
from pbem.store.daemon_lock import lock_path, only_daemon
from tests.servers.dovecot import free_port
from tests.support.mails import order_mail

NOW = "2026-03-01T12:00:00+00:00"


def pbem(capsys: pytest.CaptureFixture[str], *args: str, code: int = 0) -> list[str]:
    assert main(["--now", NOW, *args]) == code
    return capsys.readouterr().out.splitlines()


def test_serve_once_takes_mail_in_and_sends(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pbem(capsys, "--config", "pbem.toml", "init")
    seats = ["--seat", "alice=alice@example.org:pw-alice", "--seat", "bob=bob@example.org:pw-bob"]
    pbem(capsys, "--config", "pbem.toml", "game", "new", "g1", "--ruleset", "counting", *seats)
    MaildirInbox(workdir / "var/mail/inbox").deliver(
        order_mail("g1", "alice", "pw-alice", "ADD 1\n")
    )
    assert pbem(capsys, "serve", "--once", "--config", "pbem.toml") == [
        "mail in: 1 (1 accepted)",
        "mail out: 3 sent, 0 not sent, 0 bounced",
    ]
    assert (
        "INFO pbem.intake.poll [game=g1 msg=m1@example.org] mail in: accepted"
        in (workdir / "pbem.log").read_text()
    )
    assert pbem(capsys, "--config", "pbem.toml", "outbox", "list") == [
        "no mail waiting, bounced or dropped"
    ]


def test_with_the_mail_servers_away_a_pass_still_runs_and_mail_waits(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    closed = free_port()  # nothing listens there: IMAP and SMTP both refuse
    (workdir / "pbem.toml").write_text(
        f"""[security]\npassword_cost = 4\n[logging]\nfile = "pbem.log"\n
[service]\ntransport = "mail"
[imap]\nhost = "127.0.0.1"\nport = {closed}\nsecurity = "plain"\nuser = "gm"\npassword = "pw"
[smtp]\nhost = "127.0.0.1"\nport = {closed}\nsecurity = "plain"\n"""
    )
    pbem(capsys, "--config", "pbem.toml", "init")
    seats = ["--seat", "alice=alice@example.org:pw-alice", "--seat", "bob=bob@example.org:pw-bob"]
    pbem(capsys, "--config", "pbem.toml", "game", "new", "g1", "--ruleset", "counting", *seats)
    # The inbox could not be read: the pass failed, and says so by its exit code (cron).
    out = pbem(capsys, "serve", "--once", "--config", "pbem.toml", code=1)
    assert [line.split(":")[0] for line in out] == [
        "mail in",
        "inbox unavailable",
        "mail out",
        "outbox stopped",
    ]
    assert (out[0], out[2]) == ("mail in: 0 (none)", "mail out: 0 sent, 1 not sent, 0 bounced")
    assert out[3].startswith("outbox stopped: smtp: SMTPConnectError: ")
    lines = pbem(capsys, "--config", "pbem.toml", "outbox", "list")
    # Waiting, not retried later: the server was away, which is not held against the mail.
    assert [line.split()[:8] for line in lines] == [
        ["1", "2026-03-01", "12:00", "report", "alice@example.org", "waiting", "0", "smtp:"],
        ["2", "2026-03-01", "12:00", "report", "bob@example.org", "waiting", "0"],
    ]


def test_a_missing_mail_password_stops_the_start(
    workdir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("PBEM_IMAP_PASSWORD", raising=False)
    (workdir / "mail.toml").write_text(
        '[service]\ntransport = "mail"\n[imap]\nuser = "gm"\npassword_env = "PBEM_IMAP_PASSWORD"\n'
    )
    assert main(["init", "--config", "mail.toml"]) == 0
    capsys.readouterr()
    assert main(["serve", "--config", "mail.toml"]) == 2
    assert capsys.readouterr().err == (
        "pbem: imap password: environment variable PBEM_IMAP_PASSWORD is not set\n"
    )


def test_now_is_for_one_pass_only(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--now", NOW, "serve", "--config", "pbem.toml"]) == 2
    assert capsys.readouterr().err == (
        "pbem: --now goes with serve --once only: the daemon runs on the clock\n"
    )


def test_a_second_daemon_on_one_sqlite_file_is_refused(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pbem(capsys, "--config", "pbem.toml", "init")
    engine = make_engine(load_settings(workdir / "pbem.toml").database.url)
    with only_daemon(engine):  # as a running `pbem serve` holds it
        assert main(["--now", NOW, "serve", "--once", "--config", "pbem.toml"]) == 2
        error = " ".join(capsys.readouterr().err.split())
        assert f"another pbem serve (pid {os.getpid()}) is running on the SQLite database" in error
        assert "SQLite takes one daemon at a time. To run several, use PostgreSQL" in error
    # Let go of (as when that daemon ends, however it ends), the next one runs.
    assert pbem(capsys, "serve", "--once", "--config", "pbem.toml")[-1].startswith("mail out:")
    engine.dispose()


def test_daemons_on_postgresql_take_no_file_lock(postgres_engine: Engine) -> None:
    assert lock_path(postgres_engine) is None
    with only_daemon(postgres_engine), only_daemon(postgres_engine):
        pass  # several at once: they share the work through row locks instead


def test_a_check_key_too_short_stops_serve_before_any_mail(
    workdir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    seat_passwords._key.cache_clear()
    monkeypatch.setenv("PBEM_CHECK_KEY", "hunter2")
    config = workdir / "pbem.toml"
    config.write_text(
        config.read_text().replace("[logging]", 'check_key_env = "PBEM_CHECK_KEY"\n[logging]')
    )
    pbem(capsys, "--config", "pbem.toml", "init")
    MaildirInbox(workdir / "var/mail/inbox").deliver(order_mail("g1", "alice", "pw", "ADD 1\n"))
    assert main(["--now", NOW, "serve", "--once", "--config", "pbem.toml"]) == 2
    assert capsys.readouterr().err == (
        "pbem: [security] check key: 7 characters; it needs at least 32 "
        "(make one with: openssl rand -base64 32)\n"
    )
    assert len(MaildirInbox(workdir / "var/mail/inbox").pending()) == 1  # untouched
    seat_passwords._key.cache_clear()
