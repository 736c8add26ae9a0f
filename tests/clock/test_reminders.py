"""Reminders: at the configured offsets before the deadline, only to seats whose orders are not
in, never twice for the same offset, and one (the nearest) when several came at once."""

from __future__ import annotations

from datetime import timedelta

from pbem.games.service import Service
from tests.clock.support import (
    DEADLINE,
    HOUR,
    SIGNATURE,
    clock_bodies,
    clock_game,
    clock_mail,
    orders,
    reminders,
    run,
)
from tests.conftest import NOW

REMINDER_24H = (
    "Reminder: game g1 (Counting (a test ruleset)) has no orders from alice\n"
    "for turn 1 yet.\n\n"
    "The deadline is 1d from now:\n\n  2026-03-03 12:00 UTC\n\n"
    "Send your orders with the order template of your last report:\n\n"
    "GAME g1 SEAT alice PASSWORD <your password>\nTURN 1\n<your orders>\nEND\n\n"
    "If you will be away, send SET ABSENCE <last day away, YYYY-MM-DD> on\n"
    "the line after your GAME line.\n" + SIGNATURE
)


def test_reminders_go_to_seats_without_orders_once_per_offset(service: Service) -> None:
    clock_game(service, reminders="24h,2h")
    orders(service, "bob", "ADD 1", NOW)
    assert run(service, DEADLINE - 25 * HOUR).reminders == 0
    assert run(service, DEADLINE - 24 * HOUR).reminders == 1
    for later in (DEADLINE - 24 * HOUR, DEADLINE - 10 * HOUR, DEADLINE - 3 * HOUR):
        assert run(service, later).reminders == 0
    assert run(service, DEADLINE - 2 * HOUR).reminders == 1
    assert run(service, DEADLINE - HOUR).reminders == 0
    assert reminders(service) == [(1, "alice", 86400), (1, "alice", 7200)]
    assert clock_mail(service) == [
        ("alice@example.org", "[g1] turn 1: orders due in 1d"),
        ("alice@example.org", "[g1] turn 1: orders due in 2h"),
    ]
    assert clock_bodies(service)[0] == REMINDER_24H


def test_after_an_outage_only_the_nearest_reminder_goes_and_never_the_earlier(
    service: Service,
) -> None:
    clock_game(service, reminders="24h,2h")
    assert run(service, DEADLINE - HOUR).reminders == 2  # alice and bob, 2h each
    assert reminders(service) == [(1, "alice", 7200), (1, "bob", 7200)]
    assert run(service, DEADLINE - HOUR).reminders == 0


def test_no_reminder_once_the_orders_are_in_or_the_deadline_passed(service: Service) -> None:
    clock_game(service, reminders="24h", early_processing=False)
    orders(service, "alice", "ADD 1", NOW)
    orders(service, "bob", "ADD 2", NOW)
    assert run(service, DEADLINE - HOUR).reminders == 0
    clock_game(service, game="g2", reminders="2h")
    summary = run(service, DEADLINE + timedelta(seconds=30))
    assert [turn.game for turn in summary.turns] == ["g1", "g2"]
    assert summary.reminders == 0
    assert clock_mail(service) == []


def test_an_offset_longer_than_the_turn_is_skipped(service: Service) -> None:
    clock_game(service, reminders="72h,1h")
    assert run(service, NOW).reminders == 0
    assert run(service, DEADLINE - HOUR).reminders == 2
    assert [offset for _, _, offset in reminders(service)] == [3600, 3600]


def test_each_turn_has_its_own_reminders(service: Service) -> None:
    clock_game(service, reminders="2h")
    run(service, DEADLINE - HOUR)
    run(service, DEADLINE)  # resolves turn 1 without orders; turn 2 is due 48 hours later
    run(service, DEADLINE + 47 * HOUR)
    assert reminders(service) == [
        (1, "alice", 7200),
        (1, "bob", 7200),
        (2, "alice", 7200),
        (2, "bob", 7200),
    ]


def test_an_offset_as_long_as_the_turn_is_skipped(service: Service) -> None:
    # Issue 43, 10: with interval:24h and a 24h reminder, the reminder came with the start
    # mail, the moment the turn opened.
    clock_game(service, reminders="24h,2h", deadline_policy="interval:24h")
    assert run(service, NOW).reminders == 0
    assert run(service, NOW + 21 * HOUR).reminders == 0
    assert run(service, NOW + 22 * HOUR).reminders == 2  # the 2h reminders, to alice and bob
    assert [offset for _, _, offset in reminders(service)] == [7200, 7200]
