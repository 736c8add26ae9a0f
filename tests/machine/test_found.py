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
