"""Pause and resume: a paused game resolves nothing and keeps the time its turn had left,
restored on resume; both are audited and told to every seat."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlmodel import col, select

from pbem.cli import main
from pbem.clock import next_wakeup
from pbem.clock.control import ClockError, pause, resume
from pbem.config import load_settings
from pbem.games.service import Service
from pbem.store import AuditLog, transaction
from pbem.store.work import work_of
from tests.clock.support import DEADLINE, HOUR, SIGNATURE, clock_bodies, clock_game, clock_mail, run
from tests.conftest import NOW
from tests.support.games import game_row, turns


def _pause(service: Service, at_hour: int, reason: str = "server move") -> None:
    with service.store.transaction() as work:
        pause(
            work,
            service.settings,
            "g1",
            now=NOW + at_hour * HOUR,
            actor="ref@x",
            reason=reason,
        )


def _resume(service: Service, at_hour: int) -> None:
    with service.store.transaction() as work:
        resume(
            work,
            service.settings,
            "g1",
            now=NOW + at_hour * HOUR,
            actor="ref@x",
            reason="back",
        )


def test_pause_keeps_the_remaining_time(service: Service) -> None:
    clock_game(service, reminders="2h")
    _pause(service, 10)
    game = game_row(service)
    assert (game.status, game.paused_left) == ("paused", 38 * 3600)
    assert run(service, DEADLINE + 100 * HOUR).turns == []
    assert next_wakeup(service, DEADLINE) is None
    _resume(service, 200)
    assert turns(service)[0].deadline == NOW + 238 * HOUR
    assert game_row(service).status == "running"
    assert run(service, NOW + 237 * HOUR).turns == []
    [turn] = run(service, NOW + 238 * HOUR).turns
    assert turn.turn == 1
    assert clock_mail(service) == [
        ("alice@example.org", "[g1] game paused"),
        ("bob@example.org", "[g1] game paused"),
        ("alice@example.org", "[g1] game resumed"),
        ("bob@example.org", "[g1] game resumed"),
        ("alice@example.org", "[g1] turn 1: orders due in 2h"),
        ("bob@example.org", "[g1] turn 1: orders due in 2h"),
    ]
    bodies = clock_bodies(service)
    assert bodies[0] == (
        "Game g1 is paused at turn 1.\nReason: server move\n\n"
        "No turn is resolved while the game is paused. Orders you sent before\n"
        "are kept; orders you send now are kept too, for turn 1. The\n"
        "time left until the deadline is kept as well, and restored when the\n"
        "game resumes.\n" + SIGNATURE
    )
    assert bodies[2] == (
        "Game g1 goes on: turn 1 is open again.\nReason: back\n\n"
        "The deadline is now:\n\n  2026-03-11 10:00 UTC\n" + SIGNATURE
    )
    with transaction(service.db) as session:
        query = (
            select(AuditLog)
            .where(col(AuditLog.action).in_(["game-paused", "game-resumed"]))
            .order_by(col(AuditLog.id))  # no order without one: PostgreSQL reuses the space of
        )  # the rows an earlier test deleted
        entries = [(e.actor, e.action, e.detail) for e in session.exec(query)]
    assert entries == [
        ("ref@x", "game-paused", "server move"),
        ("ref@x", "game-resumed", "back"),
    ]


def test_a_pause_in_the_grace_resumes_due(service: Service) -> None:
    clock_game(service, grace="2h")
    _pause(service, 49)
    assert game_row(service).paused_left == 0
    _resume(service, 60)
    assert turns(service)[0].deadline == NOW + 60 * HOUR
    assert run(service, NOW + 61 * HOUR).turns == []
    assert [t.turn for t in run(service, NOW + 62 * HOUR).turns] == [1]


def test_pause_and_resume_refuse_what_makes_no_sense(service: Service) -> None:
    clock_game(service)
    with pytest.raises(ClockError, match="is running, not paused"):
        _resume(service, 1)
    _pause(service, 1)
    with pytest.raises(ClockError, match="only a running game pauses"):
        _pause(service, 2)
    with pytest.raises(ClockError, match="there is no game g9"), transaction(service.db) as s:
        pause(work_of(s), service.settings, "g9", now=NOW, actor="cli", reason="")


def test_the_cli_pauses_and_resumes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PBEM_CONFIG", raising=False)
    (tmp_path / "pbem.toml").write_text("[security]\npassword_cost = 4\n")

    def pbem(now: str, *args: str) -> str:
        assert main(["--config", "pbem.toml", "--now", now, *args]) == 0
        return capsys.readouterr().out

    pbem("2026-03-01T12:00:00+00:00", "init")
    created = pbem(
        "2026-03-01T12:00:00+00:00",
        *("game", "new", "g1", "--ruleset", "counting", "--seed", "5"),
        *("--seat", "alice=alice@example.org:pw-alice", "--seat", "bob=bob@example.org:pw-bob"),
        *("--deadline", "weekly:mon,thu@18:00", "--timezone", "Europe/Berlin"),
        *("--grace", "2h", "--reminders", "24h,2h", "--nmr", "standing"),
        *("--abandon-after", "4", "--wait-for-absent"),
    )
    assert created.startswith("game g1 created")
    shown = pbem("2026-03-01T12:00:00+00:00", "game", "show", "g1")
    assert (
        "clock: zone Europe/Berlin, grace 2h, reminders 1d,2h, nmr standing, abandon after 4, "
        "wait for absent on\n"
    ) in shown
    paused = pbem("2026-03-02T12:00:00+00:00", "game", "pause", "g1", "--reason", "holiday")
    assert paused == "game g1 paused\n"  # the referee command pause, run by the operator
    shown = pbem("2026-03-02T12:00:00+00:00", "game", "show", "g1")
    assert "\npaused since 2026-03-02 12:00 UTC\n" in shown
    resumed = pbem("2026-03-03T12:00:00+00:00", "game", "resume", "g1")
    assert resumed == (
        "game g1 resumed; deadline 2026-03-03 17:00 UTC (2026-03-03 18:00 CET in Europe/Berlin)\n"
    )
    service = Service.from_settings(load_settings("pbem.toml"))
    game = game_row(service)
    assert (
        game.deadline_policy,
        game.timezone,
        game.grace_seconds,
        game.reminders,
        game.nmr,
        game.abandon_after,
        game.wait_for_absent,
    ) == ("weekly:mon,thu@18:00 Europe/Berlin", "Europe/Berlin", 7200, "1d,2h", "standing", 4, True)
    service.db.dispose()
