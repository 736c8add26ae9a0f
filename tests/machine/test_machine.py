"""The conversation machine in `make test`: a bounded number of steps of each ruleset's game
(bench/state_machine.py runs many more). A failure prints the shortest sequence of steps that
breaks an invariant; it becomes a regression test in tests/machine/test_found.py."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, settings
from hypothesis.stateful import run_state_machine_as_test

from tests.machine.machine import RULESETS, conversation


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_conversation_keeps_every_invariant(ruleset: str) -> None:
    run_state_machine_as_test(
        conversation(ruleset),
        settings=settings(
            max_examples=3,
            stateful_step_count=25,
            deadline=None,
            suppress_health_check=list(HealthCheck),
            # The same steps every run, so that make test fails only when the code does;
            # bench/state_machine.py explores new sequences.
            derandomize=True,
            database=None,
        ),
    )
