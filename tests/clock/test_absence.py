"""SET ABSENCE: a seat is away through a date. While away it gets no reminders and its misses
do not count; with wait_for_absent a turn that lacks its orders waits until it is back."""

from __future__ import annotations

from datetime import date, datetime

from sqlmodel import col, select

from pbem.clock import next_wakeup
from pbem.games.service import Service
from pbem.passwords import verify_password
from pbem.store import Outbox, Quarantine, transaction
from tests.clock.support import (
    DEADLINE,
    HOUR,
    SIGNATURE,
    clock_game,
    clock_mail,
    command,
    orders,
    run,
    seat,
)
from tests.conftest import NOW
from tests.support.games import body, outbox, turns

BACK = datetime.fromisoformat("2026-03-11T00:00:00+00:00")  # after SET ABSENCE 2026-03-10


def _last_reply(service: Service) -> str:
    return body(outbox(service, "reply")[-1])


def test_set_absence_is_stored_and_answered(service: Service) -> None:
    clock_game(service)
    assert command(service, "bob", "SET ABSENCE 2026-03-10", NOW) == "answered"
    assert seat(service, "bob").absent_until == date(2026, 3, 10)
    assert _last_reply(service) == (
        "bob in game g1 is marked away from now through 2026-03-10 (UTC time).\n\n"
        "Turns go on while you are away. A turn played without your orders\n"
        "does not count as a missed turn while you are away.\n"
        "You get no reminders while you are away. Orders you send still count.\n\n"
        "Turn 1 does not wait for your orders while you are away: it is resolved\n"
        "at its deadline, 2026-03-03 12:00 UTC, or sooner, as soon as every seat\n"
        "it waits for has sent orders (still to send: alice).\n\n"
        "Back early? Send SET ABSENCE NONE on the line after your GAME line.\n" + SIGNATURE
    )
    assert command(service, "bob", "SET ABSENCE NONE", NOW + HOUR) == "answered"
    assert seat(service, "bob").absent_until is None
    assert _last_reply(service) == (
        "bob in game g1 is no longer marked away. Welcome back.\n\n"
        "Turn 1 waits for your orders: the deadline is 2026-03-03 12:00 UTC.\n" + SIGNATURE
    )


def test_the_last_awaited_seat_going_away_is_told_the_turn_is_resolved_now(
    service: Service,
) -> None:
    """Issue 43's fresh-eyes test: SET ABSENCE from the last seat the turn waited for
    resolved it at once, and the answer did not say so."""
    clock_game(service)
    orders(service, "alice", "ADD 2", NOW)
    command(service, "bob", "SET ABSENCE 2026-03-10", NOW + HOUR)
    told = " ".join(_last_reply(service).split())
    assert (
        "Turn 1 does not wait for your orders while you are away, and every other seat it "
        "waits for has sent theirs: it is resolved now, before its deadline, without new "
        "orders from you. Your report follows."
    ) in told
    [turn] = run(service, NOW + HOUR).turns  # as the answer said
    assert turn.turn == 1


def test_a_seat_away_whose_orders_are_in_is_told_they_are_played(service: Service) -> None:
    clock_game(service)
    orders(service, "bob", "ADD 1", NOW)
    command(service, "bob", "SET ABSENCE 2026-03-10", NOW + HOUR)
    assert "Your orders for turn 1 are in: they are played.\n" in _last_reply(service)


def test_an_absence_starts_at_once_and_takes_no_start_date(service: Service) -> None:
    clock_game(service)
    assert command(service, "bob", "SET ABSENCE 2026-03-05 2026-03-10", NOW) == "quarantined"
    with transaction(service.db) as session:
        [refused] = session.exec(select(Quarantine)).all()
    assert refused.error == (
        "SET ABSENCE takes one word: the last day away, or NONE. An absence starts at once, "
        "when the mail is read: send it when you leave"
    )


def test_a_bad_absence_is_refused_with_the_form(service: Service) -> None:
    clock_game(service)
    for line in ("SET ABSENCE 2026-02-28", "SET ABSENCE 2026-05-01", "SET ABSENCE soon", "SET X"):
        assert command(service, "bob", line, NOW) == "quarantined"
    with transaction(service.db) as session:
        errors = [
            row.error for row in session.exec(select(Quarantine).order_by(col(Quarantine.id)))
        ]
    assert errors == [
        "2026-02-28 has passed",
        "an absence reaches at most 60 days ahead; ask the referee",
        "'soon' is not a date like 2026-12-24",
        "SET knows 6 settings: PASSWORD, ADDRESS, ABSENCE, PRESS, PICTURES and DATA, not X",
    ]
    assert seat(service, "bob").absent_until is None
    with transaction(service.db) as session:
        replies = session.exec(
            select(Outbox).where(Outbox.kind == "reply").order_by(col(Outbox.id))
        ).all()
    assert {row.recipient for row in replies} == {"bob@example.org"}


def test_an_absent_seat_is_not_reminded_nor_counted_nor_waited_for(service: Service) -> None:
    clock_game(service, reminders="2h", abandon_after=1)
    command(service, "bob", "SET ABSENCE 2026-03-10", NOW)
    run(service, DEADLINE - HOUR)
    assert clock_mail(service) == [("alice@example.org", "[g1] turn 1: orders due in 2h")]
    orders(service, "alice", "ADD 2", DEADLINE - HOUR)
    [turn] = run(service, DEADLINE - HOUR).turns  # early: bob is away, alice is in
    assert turn.orders == 1
    bob = seat(service, "bob")
    assert (bob.missed, bob.status) == (0, "active")
    report = body([r for r in outbox(service, "report") if r.recipient == "bob@example.org"][-1])
    assert (
        "== No orders from you ==\n"
        "You are away (SET ABSENCE), so turn 1 was played without new\n"
        "orders from you.\nIt does not count as a missed turn.\n"
    ) in report


def test_wait_for_absent_holds_the_turn_until_the_seat_is_back(service: Service) -> None:
    clock_game(service, wait_for_absent=True, grace="1h", abandon_after=1)
    command(service, "bob", "SET ABSENCE 2026-03-10", NOW)
    orders(service, "alice", "ADD 2", NOW)
    assert run(service, NOW).turns == []  # not early: the game waits for bob
    assert run(service, DEADLINE + 2 * HOUR).turns == []
    assert next_wakeup(service, DEADLINE + 2 * HOUR) == BACK  # the absence ends
    assert run(service, BACK).turns == []  # back, and the grace runs
    assert next_wakeup(service, BACK) == BACK + HOUR
    [turn] = run(service, BACK + HOUR).turns
    assert turn.turn == 1
    assert (seat(service, "bob").missed, seat(service, "bob").status) == (0, "active")
    assert turns(service)[1].deadline == BACK + HOUR + 48 * HOUR


def test_wait_for_absent_does_not_wait_for_orders_already_in(service: Service) -> None:
    clock_game(service, wait_for_absent=True)
    command(service, "bob", "SET ABSENCE 2026-03-10", NOW)
    orders(service, "bob", "ADD 1", NOW)
    orders(service, "alice", "ADD 2", NOW)
    [turn] = run(service, NOW).turns
    assert turn.orders == 2


def test_set_password_changes_it_and_never_echoes_it_whole(service: Service) -> None:
    clock_game(service)
    assert command(service, "bob", "SET PASSWORD NewSecret9", NOW) == "answered"
    stored = seat(service, "bob").password_hash
    assert verify_password("NewSecret9", stored)  # case kept, stored hashed
    assert not verify_password("pw-bob", stored)
    reply = outbox(service, "reply")[-1]
    assert reply.recipient == "bob@example.org"
    assert "NewSecret9" not in body(reply) and "N********" in body(reply)
    # the old password no longer works
    assert command(service, "bob", "ORDERS", NOW + HOUR) == "quarantined"


def test_a_bad_new_password_is_refused_and_the_old_one_kept(service: Service) -> None:
    clock_game(service)
    for line in ("SET PASSWORD", "SET PASSWORD abc", "SET PASSWORD two words"):
        assert command(service, "bob", line, NOW) == "quarantined"
    assert command(service, "bob", "ORDERS", NOW + HOUR) == "answered"
