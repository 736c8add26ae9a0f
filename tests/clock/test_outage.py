"""After the daemon was down past a deadline, the overdue turn is not resolved at once: its
deadline moves to now + outage grace and every seat (and referee) is told, once."""

from __future__ import annotations

from sqlmodel import select

from pbem.games.service import Service
from pbem.store import AuditLog, transaction
from tests.clock.support import (
    DEADLINE,
    HOUR,
    SIGNATURE,
    clock_bodies,
    clock_game,
    clock_mail,
    orders,
    run,
)
from tests.support.games import turns

RESTART = DEADLINE + 3 * HOUR


def test_an_overdue_deadline_moves_and_everyone_is_told_once(service: Service) -> None:
    clock_game(service, referees=["ref@example.org"])
    orders(service, "alice", "ADD 1", DEADLINE - HOUR)
    summary = run(service, RESTART)
    assert (summary.moved, summary.turns) == (["g1"], [])
    assert turns(service)[0].deadline == RESTART + 24 * HOUR
    told = [
        ("alice@example.org", "[g1] turn 1: deadline moved"),
        ("bob@example.org", "[g1] turn 1: deadline moved"),
        ("ref@example.org", "[g1] turn 1: deadline moved"),
    ]
    assert clock_mail(service) == told
    assert clock_bodies(service)[0] == (
        "The moderator of game g1 was not running when the deadline of\n"
        "turn 1 passed:\n\n  2026-03-03 12:00 UTC\n\n"
        "So that nobody loses a turn to that, the deadline has been moved to:\n\n"
        "  2026-03-04 15:00 UTC\n\n"
        "Orders you sent before are kept; you may still send or change them.\n" + SIGNATURE
    )
    again = run(service, RESTART)
    assert (again.moved, again.turns, clock_mail(service)) == ([], [], told)
    assert run(service, RESTART + 23 * HOUR).turns == []
    [turn] = run(service, RESTART + 24 * HOUR).turns
    assert (turn.turn, turn.orders) == (1, 1)
    with transaction(service.db) as session:
        [entry] = session.exec(select(AuditLog).where(AuditLog.action == "deadline-moved"))
    assert entry.detail == ("turn 1: deadline 2026-03-03 12:00 UTC -> 2026-03-04 15:00 UTC")


def test_a_deadline_missed_by_less_than_the_threshold_resolves(service: Service) -> None:
    clock_game(service)
    summary = run(service, DEADLINE + HOUR)  # threshold 1h: "more than" it is an outage
    assert (summary.moved, [t.turn for t in summary.turns]) == ([], [1])
    assert clock_mail(service) == []


def test_a_turn_whose_orders_are_all_in_is_resolved_not_moved(service: Service) -> None:
    clock_game(service, early_processing=False)
    orders(service, "alice", "ADD 1", DEADLINE - HOUR)
    orders(service, "bob", "ADD 1", DEADLINE - HOUR)
    clock_game(service, game="g2")
    summary = run(service, RESTART)
    assert summary.moved == ["g2"]
    assert [turn.game for turn in summary.turns] == ["g1"]


def test_the_grace_counts_before_an_outage_is_seen(service: Service) -> None:
    clock_game(service, grace="2h")
    assert run(service, DEADLINE + HOUR).turns == []  # in the grace
    summary = run(service, DEADLINE + 3 * HOUR)  # due at +2h, one hour late: no outage
    assert (summary.moved, [t.turn for t in summary.turns]) == ([], [1])
    assert turns(service)[1].deadline == DEADLINE + 3 * HOUR + 48 * HOUR
