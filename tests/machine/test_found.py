"""Sequences the conversation machine found breaking an invariant, shrunk, kept as regression
tests: each plays the steps Hypothesis printed, on the machine itself, so that every
invariant is checked after each of them as it was when it failed."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.machine.machine import Conversation, conversation
from tests.machine.world import SEATS

FIRST, SECOND, THIRD = SEATS


@pytest.fixture
def machine() -> Iterator[Conversation]:
    played = conversation("counting")()
    yield played
    played.teardown()


def test_forecast_with_orders_is_answered_once(machine: Conversation) -> None:
    """answered-once: the check reply and the forecast went as two mails."""
    machine.forecast(seat=FIRST, with_orders=True)


def test_the_last_orders_resolve_the_turn_as_the_replies_said(machine: Conversation) -> None:
    """resolved-as-told: the first seats were told they may send new orders "until the
    deadline", and the last seat's orders resolved the turn at once."""
    machine.orders(seat=FIRST)
    machine.orders(seat=SECOND)
    machine.orders(seat=THIRD)
    assert machine.world.facts().resolved == 1


def test_a_preview_says_whose_orders_are_in(machine: Conversation) -> None:
    """facts: PREVIEW said "Orders in from: nobody" of seats that had sent NO ORDERS."""
    machine.no_orders(seat=FIRST)
    machine.no_orders(seat=SECOND)
    machine.referee(command="PREVIEW")


def test_a_moved_deadline_promises_what_the_clock_does(machine: Conversation) -> None:
    """resolved-as-told (found by a tester, then by the machine once it read every mail for
    the promise): the notice of a moved deadline told a seat whose orders were in "You may
    change them until the deadline" in a game that resolves as soon as every order is in."""
    machine.orders(seat=FIRST)
    machine.referee(command="DEADLINE extend 6h")
    notice = [m for m in machine.steps[-1].queued if "new deadline" in m.subject]
    assert any("sooner" in " ".join(m.text.split()) for m in notice)
    machine.orders(seat=SECOND)
    machine.orders(seat=THIRD)


def test_a_forecast_with_the_last_orders_forecasts_nothing(machine: Conversation) -> None:
    """Found by a tester: FORECAST in the mail whose orders complete the turn forecast the turn
    the same pass resolved ("Send FORECAST again whenever you like")."""
    machine.orders(seat=FIRST)
    machine.orders(seat=SECOND)
    machine.forecast(seat=THIRD, with_orders=True)
    [answer] = [m for m in machine.steps[-1].queued if m.subject.startswith("Re:")]
    assert "No forecast: your orders complete the turn" in answer.text
    assert "Send FORECAST again" not in answer.text
    assert machine.world.facts().resolved == 1


def test_a_preview_says_why_a_resigned_seats_orders_are_not_played(
    machine: Conversation,
) -> None:
    """facts: the seat resigned after sending orders; the turn plays it in civil disorder with
    no orders, whatever is on file (docs/referee.md), and PREVIEW listed it under "No orders
    yet from" (Classical said "Orders in from: nobody" with its orders on file, and no why)."""
    machine.orders(seat=THIRD)
    machine.resign(seat=THIRD)
    machine.referee(command="PREVIEW")
    [preview] = [m for m in machine.steps[-1].queued if "Preview of turn" in m.text]
    assert "Orders on file not played: tamsin." in preview.text


def test_a_turn_whose_held_orders_are_all_in_resolves_when_it_opens(
    machine: Conversation,
) -> None:
    """answered-once (Tribes): turn 2 opened with every seat's held orders in and stayed
    pending (the clock resolved once a pass, and laid no wakeup for a turn due now); the next
    mail, advance orders for turn 3, resolved it and opened turn 3, whose held-orders check
    went as a second answer to that mail in the same step."""
    for seat in SEATS:
        machine.advance_orders(seat=seat, ahead=1)
    for seat in SEATS:
        machine.orders(seat=seat)
    assert machine.world.facts().resolved == 2
    [check] = [m for m in machine.steps[-1].queued if m.subject == "[m1] turn 2: your held orders"][
        :1
    ]
    assert "so it is resolved now" in " ".join(check.text.split())
    machine.advance_orders(seat=FIRST, ahead=1)


def test_a_turn_opened_due_is_not_left_for_a_clock_tick(machine: Conversation) -> None:
    """resolved-as-told (Temples and Swords): turn 3 opened with every held order in but for
    a seat away, so it was due at once and stayed pending; the next clock tick resolved it
    before its deadline "while it waited for tamsin"."""
    machine.advance_orders(seat=FIRST, ahead=1)
    machine.advance_orders(seat=SECOND, ahead=1)
    machine.absence(seat=THIRD, days=1)
    machine.orders(seat=FIRST)
    machine.orders(seat=SECOND)
    assert machine.world.facts().resolved == 2
    machine.tick(minutes=5)


def test_orders_held_again_after_a_rollback_let_their_turn_open_again(
    machine: Conversation,
) -> None:
    """nothing-failed (found by the machine in Medieval Micromanager, in the bench's log before
    that invariant was written: the turn just never resolved): orders held for turn 2, a
    rollback to turn 1, and the
    same seat's orders held for turn 2 again, numbered as the first mail; when turn 2 opened
    again its held-orders check had the first one's Message-ID, the outbox refused it, and
    the whole resolution of turn 1 failed at every pass of the clock."""
    machine.advance_orders(seat=FIRST, ahead=1)
    for seat in SEATS:
        machine.orders(seat=seat)
    machine.rollback(back=1)
    machine.advance_orders(seat=FIRST, ahead=1)
    machine.referee(command="RESUME")
    assert machine.world.facts().resolved == 1
    [check] = [m for m in machine.steps[-1].queued if "your held orders" in m.subject]
    assert check.recipient == machine.world.players[FIRST].address


def test_a_seat_away_is_told_it_is_not_waited_for(machine: Conversation) -> None:
    """facts (a fresh-eyes tester of issue 43): a seat away was told "We have no orders from
    tamsin for turn 1 yet" by the notice of a moved deadline, and PREVIEW listed it under "No
    orders yet from" where STATUS says "Away, not waited for"."""
    machine.absence(seat=THIRD, days=3)
    machine.referee(command="DEADLINE extend 6h")
    [notice] = [m for m in machine.steps[-1].queued if m.recipient.startswith(THIRD)]
    assert "We have no orders from" not in notice.text
    machine.referee(command="PREVIEW")
    [preview] = [m for m in machine.steps[-1].queued if "Preview of turn" in m.text]
    assert f"Away, not waited for: {THIRD}." in preview.text
