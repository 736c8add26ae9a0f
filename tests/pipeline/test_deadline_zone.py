"""A weekly deadline given with its zone ("weekly:mon,thu@18:00 Europe/Berlin") is the game's
zone: every deadline players and referees see is shown in UTC and in that zone (`pbem game
show`, the start mail, check replies, STATUS, reminders), not in UTC alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.cli import main
from pbem.games.outbox import as_message
from pbem.mail.compose import text_of
from tests.pipeline.test_cli import pbem, workdir
from tests.support.mails import mail, order_mail

__all__ = ["workdir"]  # the fixture, shared with test_cli

# NOW (test_cli) is Sunday 2026-03-01 12:00 UTC: the next slot is Monday 18:00 in Berlin.
SHOWN = "2026-03-02 17:00 UTC (2026-03-02 18:00 CET in Europe/Berlin)"
SEATS = ("--seat", "alice=alice@example.org:pw-alice", "--seat", "bob=bob@example.org:pw-bob")


def _weekly_game(capsys: pytest.CaptureFixture[str], policy: str) -> None:
    pbem(capsys, "init")
    pbem(capsys, "game", "new", "g1", "--ruleset", "counting", *SEATS, "--deadline", policy)


def _sent(workdir: Path) -> list[str]:
    """The bodies of the mail the maildir outbox holds, oldest first."""
    files = sorted((workdir / "var/mail/outbox/new").iterdir())
    return [text_of(as_message(path.read_bytes())) for path in files]


def _flat(text: str) -> str:
    return " ".join(text.split())  # a wrapped deadline reads as one


def test_the_zone_of_a_weekly_policy_is_the_games(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _weekly_game(capsys, "weekly:mon,thu@18:00 Europe/Berlin")
    shown = pbem(capsys, "game", "show", "g1")
    assert "clock: zone Europe/Berlin," in shown
    assert f"turn 1, deadline {SHOWN}, waiting for: alice, bob" in shown
    (workdir / "orders.eml").write_bytes(order_mail("g1", "alice", "pw-alice", "ADD 2\n"))
    assert SHOWN in _flat(pbem(capsys, "check", "orders.eml"))  # the check reply
    status = mail("GAME g1 SEAT alice PASSWORD pw-alice\nSTATUS\n", message_id="s@x.org")
    (workdir / "status.eml").write_bytes(status)
    assert SHOWN in _flat(pbem(capsys, "check", "status.eml"))
    pbem(capsys, "serve", "--once")  # the start mails
    assert all(SHOWN in _flat(body) for body in _sent(workdir))


def test_reminders_show_the_games_zone(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _weekly_game(capsys, "weekly:mon@18:00 Europe/Berlin")
    pbem(capsys, "serve", "--once")  # the start mails
    started = len(_sent(workdir))
    later = ["--config", "pbem.toml", "--now", "2026-03-01T17:30:00+00:00"]
    assert main([*later, "serve", "--once"]) == 0  # 24 h before the deadline: reminders
    reminders = _sent(workdir)[started:]
    assert len(reminders) == 2
    assert all(SHOWN in _flat(body) for body in reminders)


def test_a_policy_with_a_zone_gives_a_game_on_utc_that_zone(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pbem(capsys, "init")
    pbem(capsys, "game", "new", "g1", "--ruleset", "counting", *SEATS)  # interval:48h, UTC
    assert "clock: zone UTC," in pbem(capsys, "game", "show", "g1")
    pbem(capsys, "referee", "g1", "policy", "weekly:mon@18:00", "Europe/Berlin", "--reason", "x")
    assert "clock: zone Europe/Berlin," in pbem(capsys, "game", "show", "g1")


def test_a_game_with_a_zone_of_its_own_keeps_it(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pbem(capsys, "init")
    given = ("--deadline", "weekly:mon@18:00 Europe/Berlin", "--timezone", "Europe/Lisbon")
    pbem(capsys, "game", "new", "g1", "--ruleset", "counting", *SEATS, *given)
    shown = pbem(capsys, "game", "show", "g1")
    assert "clock: zone Europe/Lisbon," in shown
    assert "deadline 2026-03-02 17:00 UTC (2026-03-02 17:00 WET in Europe/Lisbon)" in shown
