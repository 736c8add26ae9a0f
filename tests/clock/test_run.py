"""run_due as a whole: weekly deadlines in a game's zone, the grace, idempotence, and one
game's failure not stopping the others."""

from __future__ import annotations

from datetime import datetime

import pytest
from sqlmodel import col, select

import pbem.clock.run as run_module
from pbem.clock import run_due
from pbem.clock.control import pause
from pbem.clock.due import Facts, facts_of, running_facts
from pbem.clock.run import ClockSummary
from pbem.clock.turns import resolve_due
from pbem.games.service import Service
from pbem.store import Game, transaction
from pbem.store.work import work_of
from tests.clock.support import DEADLINE, HOUR, clock_game, orders
from tests.conftest import NOW
from tests.support.games import body, game_row, outbox, turns


def utc(text: str) -> datetime:
    return datetime.fromisoformat(text + "+00:00")


def test_a_weekly_game_keeps_its_rhythm_in_its_zone(service: Service) -> None:
    clock_game(service, deadline_policy="weekly:mon,thu@18:00", timezone="Europe/Berlin")
    assert game_row(service).deadline_policy == "weekly:mon,thu@18:00 Europe/Berlin"
    assert turns(service)[0].deadline == utc("2026-03-02T17:00")  # Monday 18:00 CET
    orders(service, "alice", "ADD 1", NOW)
    orders(service, "bob", "ADD 1", NOW)
    run_due(service, NOW + HOUR)  # early, on Sunday: the next turn is due Thursday
    assert turns(service)[1].deadline == utc("2026-03-05T17:00")
    run_due(service, utc("2026-03-05T17:00"))
    assert turns(service)[2].deadline == utc("2026-03-09T17:00")
    report = next(row for row in outbox(service, "report") if "turn 1 report" in row.subject)
    # Reports give the deadline in UTC and in the game's own zone.
    assert (
        "Orders for turn 2 are due by 2026-03-05 17:00 UTC (2026-03-05 18:00 CET\n"
        "    in Europe/Berlin).\n" in body(report)
    )


def test_the_grace_holds_the_turn_for_cron_passes_too(service: Service) -> None:
    clock_game(service, grace="2h")
    assert resolve_due(service, now=DEADLINE + HOUR) == []  # what `pbem poll` resolves
    assert [t.turn for t in resolve_due(service, now=DEADLINE + 2 * HOUR)] == [1]


def test_a_second_pass_at_the_same_time_does_nothing(service: Service) -> None:
    clock_game(service, reminders="24h,2h", abandon_after=1, referees=["ref@example.org"])
    clock_game(service, game="g2", reminders="2h")
    first = run_due(service, DEADLINE - HOUR)
    assert (first.reminders, first.turns) == (4, [])
    mails = len(outbox(service))
    assert run_due(service, DEADLINE - HOUR) == ClockSummary()
    second = run_due(service, DEADLINE)
    assert [t.game for t in second.turns] == ["g1", "g2"]
    assert run_due(service, DEADLINE) == ClockSummary()
    assert len(outbox(service)) > mails


def test_one_games_failure_does_not_stop_the_others(
    service: Service, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock_game(service, reminders="2h")
    clock_game(service, game="g2", reminders="2h")

    real = run_module.reminder_letter

    def failing(settings, game, *args):  # type: ignore[no-untyped-def]
        if game.id == "g1":
            raise RuntimeError("broken template")
        return real(settings, game, *args)

    monkeypatch.setattr(run_module, "reminder_letter", failing)
    summary = run_due(service, DEADLINE - HOUR)
    assert (summary.failed, summary.reminders) == (["g1"], 2)
    monkeypatch.setattr(run_module, "reminder_letter", real)
    assert run_due(service, DEADLINE - HOUR).reminders == 2  # g1's, tried again


def test_a_look_at_some_games_does_their_work_only_and_a_stop_leaves_the_rest(
    service: Service, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The clock runner looks at the games a job or a mail named (`only`), reading only
    theirs; a stop asked between turns leaves the rest for the next look, and their
    reminders with them."""
    for game in ("g1", "g2", "g3"):
        clock_game(service, game=game)
    clock_game(service, game="g4", deadline_policy="interval:49h", reminders="2h")
    read: list[list[str]] = []
    real_running = run_module._running

    def running(*args: object) -> object:
        games = real_running(*args)  # type: ignore[arg-type]
        read.append([facts.game.id for facts in games])
        return games

    monkeypatch.setattr(run_module, "_running", running)
    some = run_due(service, DEADLINE, only={"g2"})
    assert ([t.game for t in some.turns], some.reminders, read) == (["g2"], 0, [["g2"]])
    stopped = run_due(service, DEADLINE, enough=lambda: True)
    assert ([t.game for t in stopped.turns], stopped.left) == (["g1"], ["g3"])
    assert stopped.reminders == 0  # the turns first
    rest = run_due(service, DEADLINE)
    assert ([t.game for t in rest.turns], rest.unfinished) == (["g3"], False)
    assert rest.reminders == 2  # g4's two seats, an hour before its deadline
    assert run_due(service, DEADLINE) == ClockSummary()


def test_every_running_games_facts_are_read_at_once_as_one_by_one(service: Service) -> None:
    """running_facts reads every game in a few queries; it must see each game as facts_of,
    which reads one game, does: its pending turn, the seats asked, the orders in."""
    for game in ("g1", "g2", "g3"):
        clock_game(service, game=game)
    orders(service, "alice", "ADD 1", NOW, game="g1")
    orders(service, "bob", "ADD 1", NOW, game="g2")
    orders(service, "alice", "ADD 1", NOW, game="g2")
    run_due(service, NOW)  # g2 had every order in: its turn 2 is pending now
    with service.store.transaction() as work:
        pause(work, service.settings, "g3", now=NOW, actor="ref@example.org", reason="t")

    def seen(facts: Facts) -> tuple[str, int, list[str], frozenset[str]]:
        return (facts.game.id, facts.turn.number, [s.name for s in facts.asked], facts.ordered)

    with transaction(service.db) as session:
        together = [seen(facts) for facts in running_facts(work_of(session), NOW)]
        games = session.exec(select(Game).where(Game.status == "running").order_by(col(Game.id)))
        alone = [
            seen(f) for game in games if (f := facts_of(work_of(session), game, NOW)) is not None
        ]
    assert together == alone
    assert together == [
        ("g1", 1, ["alice", "bob"], frozenset({"alice"})),
        ("g2", 2, ["alice", "bob"], frozenset()),
    ]
