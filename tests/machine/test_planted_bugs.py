"""Each invariant of the conversation machine, shown to fail: a bug is planted in the service
for it, and the machine, checking that invariant alone, must find it within a few examples.
A machine that cannot fail proves nothing."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis.errors import Flaky
from hypothesis.stateful import run_state_machine_as_test

import pbem.clock.due
import pbem.clock.turns
import pbem.intake.context
import pbem.intake.order_check
import pbem.intake.press
import pbem.referee.context
from pbem.games.outbox import Letter
from pbem.store import OutboxKind
from tests.machine import invariants
from tests.machine.invariants import Invariant, Violation
from tests.machine.machine import conversation
from tests.machine.world import SEATS

Queue = Callable[..., Any]


def _queue_also(real: Queue, extra: Callable[[Letter], list[Letter]]) -> Queue:
    """`queue` that also queues the letters `extra` makes of each one."""

    def queue(work: Any, settings: Any, letter: Letter, *, now: Any) -> Any:
        row = real(work, settings, letter, now=now)
        for more in extra(letter):
            real(work, settings, more, now=now)
        return row

    return queue


def _twice(letter: Letter) -> list[Letter]:
    if letter.kind != OutboxKind.REPLY:
        return []
    return [replace(letter, message_id=letter.message_id.replace("@", "-again@"))]


def _to_first_seat(real: Queue) -> Queue:
    def queue(work: Any, settings: Any, letter: Letter, *, now: Any) -> Any:
        if letter.kind == OutboxKind.REPLY:
            letter = replace(letter, to=f"{SEATS[0]}@players.example")
        return real(work, settings, letter, now=now)

    return queue


def _copy_outside(letter: Letter) -> list[Letter]:
    copy = replace(letter, to="audit@elsewhere.example")
    return [replace(copy, message_id=letter.message_id.replace("@", "-copy@"))]


def _press_to_all(letter: Letter) -> list[Letter]:
    if letter.kind != OutboxKind.PRESS:
        return []
    return [
        replace(letter, to=f"{seat}@players.example", message_id=f"<leak-{seat}-{id(letter)}@x>")
        for seat in SEATS
    ]


def _plant(monkeypatch: pytest.MonkeyPatch, bug: str) -> None:
    if bug == "reply-twice":
        patched = _queue_also(pbem.intake.context.queue, _twice)
        monkeypatch.setattr(pbem.intake.context, "queue", patched)
    elif bug == "reply-to-first-seat":
        monkeypatch.setattr(pbem.intake.context, "queue", _to_first_seat(pbem.intake.context.queue))
    elif bug == "referee-mail-copied-outside":
        patched = _queue_also(pbem.referee.context.queue, _copy_outside)
        monkeypatch.setattr(pbem.referee.context, "queue", patched)
    elif bug == "press-to-everyone":
        patched = _queue_also(pbem.intake.press.queue, _press_to_all)
        monkeypatch.setattr(pbem.intake.press, "queue", patched)
    elif bug == "one-seat-left-out":
        real = pbem.intake.order_check.still_waiting
        monkeypatch.setattr(pbem.intake.order_check, "still_waiting", lambda *a: real(*a)[:-1])
    elif bug == "early-at-first-orders":
        monkeypatch.setattr(pbem.clock.due.Facts, "every_order_in", lambda self: bool(self.ordered))
    elif bug == "clock-cannot-resolve":
        monkeypatch.setattr(pbem.clock.turns, "resolve_turn", _fails_when_due)


def _fails_when_due(*args: Any, **kwargs: Any) -> Any:
    """The clock's resolution of a due turn raises, as a duplicate Message-ID made it (the
    referee's PROCESS imported the real one by name and still works)."""
    raise RuntimeError("planted: the turn cannot be resolved")


CASES = [
    ("reply-twice", invariants.answered_once, "answered-once"),
    ("reply-to-first-seat", invariants.answered_once, "only-to-sender"),
    ("referee-mail-copied-outside", invariants.known_recipients, "known-recipients"),
    ("press-to-everyone", invariants.secrets_kept, "secrets"),
    ("one-seat-left-out", invariants.facts_true, "facts"),
    ("early-at-first-orders", invariants.resolved_as_told, "resolved-as-told"),
    ("clock-cannot-resolve", invariants.nothing_failed, "nothing-failed"),
]


@pytest.fixture
def quick() -> Iterator[settings]:
    yield settings(
        max_examples=30,
        stateful_step_count=30,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
        database=None,
        derandomize=True,  # the same runs every time: make test must not fail by chance
    )


@pytest.mark.parametrize(("bug", "invariant", "name"), CASES, ids=[case[0] for case in CASES])
def test_each_invariant_catches_the_bug_planted_for_it(
    monkeypatch: pytest.MonkeyPatch, quick: settings, bug: str, invariant: Invariant, name: str
) -> None:
    _plant(monkeypatch, bug)
    with pytest.raises((Violation, Flaky)) as caught:
        run_state_machine_as_test(conversation("counting", invariant), settings=quick)
    assert name in str(caught.value)


def test_without_a_planted_bug_these_invariants_hold_on_the_same_runs(quick: settings) -> None:
    """The invariants the planted bugs trip, on the service as it is: the cases above fail
    because of their bug, not because the machine fails anyway."""
    checks = (invariants.known_recipients, invariants.facts_true)
    run_state_machine_as_test(conversation("counting", *checks), settings=quick)
