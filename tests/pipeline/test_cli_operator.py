"""The command line as an operator meets it (issue 15): the database before `pbem init`,
migrations at `serve`, the global options anywhere, --version and `python -m pbem`, the
options of each ruleset, one-line errors for ours and tracebacks for bugs, the quarantine
split, and `poll --once` / `game pause` as the same things as `serve --once` / the referee's
pause."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from sqlmodel import select

import pbem.cli as cli_module
from pbem.cli import main
from pbem.config import load_settings
from pbem.games.service import Service
from pbem.mail.maildir import MaildirInbox
from pbem.store import AuditLog, make_engine, transaction, upgrade
from tests.pipeline.test_cli import NOW, _new_game, pbem, workdir
from tests.support.mails import mail

__all__ = ["workdir"]  # the fixture, shared with test_cli


def test_a_command_before_init_says_what_to_do(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--config", "pbem.toml", "game", "list"]) == 2
    err = capsys.readouterr().err
    assert err == (  # at the configuration file's folder (pbem.config.anchored)
        f"pbem: there is no database at {workdir}/pbem.db: run `pbem init` there first, or "
        "give the right one (--config, --db or [database] url)\n"
    )
    assert not (workdir / "pbem.db").exists()  # no empty database left behind
    (workdir / "pbem.db").touch()  # a database file with no tables yet
    assert main(["--config", "pbem.toml", "game", "list"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"pbem: the database sqlite:///{workdir}/pbem.db is not ready")
    assert "run `pbem init`" in err and "Traceback" not in err


def test_serve_applies_pending_migrations_at_start(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    engine = make_engine("sqlite:///pbem.db")
    upgrade(engine, "0001")  # a database an older pbem made, behind this code
    engine.dispose()
    out = pbem(capsys, "serve", "--once")
    applied = rf"database sqlite:///{workdir}/pbem.db: applied 0\d{{3}}_\w+\nmail in: 0"
    assert re.match(applied, out), out
    assert pbem(capsys, "game", "list") == "no games\n"


def test_serve_refuses_an_old_database_when_told_to(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (workdir / "pbem.toml").write_text('[database]\nmigrate = "refuse"\n')
    engine = make_engine("sqlite:///pbem.db")
    upgrade(engine, "0001")  # a database an older pbem made, behind this code
    engine.dispose()
    assert main(["--config", "pbem.toml", "serve", "--once"]) == 2
    assert "is not ready" in capsys.readouterr().err
    assert main(["--config", "pbem.toml", "init"]) == 0


def test_global_options_go_after_the_command_too(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (workdir / "other.toml").write_text('[database]\nurl = "sqlite:///other.db"\n')
    assert main(["init", "--config", "other.toml"]) == 0
    assert main(["game", "list", "--config", "other.toml"]) == 0
    assert capsys.readouterr().out.endswith("no games\n")
    assert (workdir / "other.db").exists() and not (workdir / "pbem.db").exists()


def test_version_and_python_dash_m(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--version"])
    assert capsys.readouterr().out.startswith("pbem 0.")
    ran = subprocess.run(
        [sys.executable, "-m", "pbem", "--version"], capture_output=True, text=True, check=True
    )
    assert ran.stdout.startswith("pbem 0.")


def test_rulesets_shows_each_option_with_its_default_and_help(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["rulesets"]) == 0
    out = capsys.readouterr().out
    assert "    battle_length = attacker  (one of attacker, d6)\n" in out
    assert "        how long a battle lasts: 'attacker' as the text's combat step 4" in out
    assert "    turn_limit = 0  (a whole number from 0 to 10000)\n" in out


def test_game_new_help_says_where_the_options_are(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["game", "new", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "`pbem rulesets`" in out
    assert "NAME=ADDRESS[:PASSWORD] a seat and its player's address" in out


def test_a_bug_keeps_its_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*_: object) -> int:
        raise ValueError("a bug, not a user's error")

    monkeypatch.setattr(cli_module, "_rulesets", broken)
    with pytest.raises(ValueError, match="a bug"):
        main(["rulesets"])


def test_a_malformed_option_is_one_line(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pbem(capsys, "init")
    assert main(["--config", "pbem.toml", "game", "new", "g1", "--ruleset", "counting",
                 "--option", "nonsense"]) == 2  # fmt: skip
    assert capsys.readouterr().err == "pbem: expected NAME=VALUE, not 'nonsense'\n"


def test_quarantine_list_keeps_players_mistakes_apart_from_failures(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _new_game(capsys)
    inbox = MaildirInbox(workdir / "var/mail/inbox")
    inbox.deliver(mail("GAME g1 SEAT alice PASSWORD wrong\nADD 1", message_id="w@x"))
    inbox.deliver(b"Subject: no sender at all\r\n\r\nGAME g1\r\n")
    pbem(capsys, "serve", "--once")
    listing = pbem(capsys, "quarantine", "list")
    assert listing.endswith(
        "1 need attention (error, no-sender); 1 were refused and answered; "
        "0 set aside unanswered (stopped: the sender sent STOP)\n"
    )
    attention = pbem(capsys, "quarantine", "list", "--attention").splitlines()
    assert [line.split()[3] for line in attention[:-1]] == ["no-sender"]
    by_reason = pbem(capsys, "quarantine", "list", "--reason", "password").splitlines()
    assert [line.split()[3] for line in by_reason[:-1]] == ["password"]


def test_poll_once_is_serve_once(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _new_game(capsys)
    MaildirInbox(workdir / "var/mail/inbox").deliver(mail("HELP", message_id="h@x"))
    assert pbem(capsys, "poll", "--once") == (  # serve --once's pass and summary
        "mail in: 1 (1 answered)\nmail out: 3 sent, 0 not sent, 0 bounced\n"
    )
    assert (
        pbem(capsys, "serve", "--once")
        == "mail in: 0 (none)\nmail out: 0 sent, 0 not sent, 0 bounced\n"
    )


def test_game_pause_is_the_referee_command(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _new_game(capsys)
    assert pbem(capsys, "game", "pause", "g1", "--reason", "holiday") == "game g1 paused\n"
    service = Service.from_settings(load_settings("pbem.toml"))
    with transaction(service.db) as session:
        actions = [row.action for row in session.exec(select(AuditLog))]
    assert "referee-pause" in actions
    assert pbem(capsys, "game", "resume", "g1").startswith("game g1 resumed")
    assert NOW  # the clock the helpers act at


@pytest.mark.parametrize("command", [["rulesets"], ["game", "list"]])
def test_a_command_piped_into_a_reader_that_left_exits_quietly(
    command: list[str], tmp_path: Path
) -> None:
    """Fresh-eyes test (issue 43): `pbem rulesets | head` ended in a BrokenPipeError
    traceback. The reader of standard output is gone before the command writes (the pipe's
    read end closed first): the command stops quietly, as a tool killed by SIGPIPE, whether
    the write fails in the command (`rulesets`, 9 kB) or at its end (`game list`, one line)."""
    db = ["--db", f"sqlite:///{tmp_path / 'pbem.db'}"]
    assert main([*db, "init"]) == 0
    read, write = os.pipe()
    os.close(read)
    try:
        ran = subprocess.run(
            [sys.executable, "-m", "pbem", *db, *command],
            stdout=write,
            stderr=subprocess.PIPE,
            check=False,
        )
    finally:
        os.close(write)
    assert ran.stderr.decode() == ""
    assert ran.returncode == 128 + signal.SIGPIPE
