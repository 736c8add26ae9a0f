"""The conversation machine, run long: prints its figures; not a test.

tests/machine plays a game of each ruleset by mail with Hypothesis's rule-based state machine
(every player command, the referee's actions, the clock, in any order) and checks its
invariants after every step; `make test` runs a few hundred steps. This runs many more: at
least --steps steps of each ruleset's game, and prints, for each, the steps played, the turns
resolved, how many steps each kind of action had, the seconds taken, and the first invariant
broken (with the shortest sequence Hypothesis found), if any.

Usage: python bench/state_machine.py [--steps 2000] [--ruleset counting tns ...]
"""

from __future__ import annotations

import argparse
import collections
import sys
import time
from pathlib import Path

_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(_ROOT))  # the tests package: the machine lives in tests/machine

from hypothesis import HealthCheck, settings  # noqa: E402
from hypothesis.stateful import run_state_machine_as_test  # noqa: E402

from tests.machine.machine import RULESETS, Conversation, conversation  # noqa: E402
from tests.support.ruleset_registration import register_test_rulesets  # noqa: E402

STEPS_A_GAME = 50


def run(ruleset: str, steps: int) -> bool:
    tally: collections.Counter[str] = collections.Counter()
    machine = conversation(ruleset)
    teardown = machine.teardown

    def counted(self: Conversation) -> None:
        tally["games"] += 1
        tally["steps"] += len(self.steps)
        tally["turns resolved"] += self.world.facts().resolved
        for step in self.steps:
            tally[f"  {step.action.split()[0]}"] += 1
        teardown(self)

    machine.teardown = counted  # type: ignore[method-assign]
    started = time.perf_counter()
    broken = ""
    batch = settings(
        max_examples=10,
        stateful_step_count=STEPS_A_GAME,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        database=None,
    )
    while tally["steps"] < steps and not broken:  # Hypothesis ends a game when it likes
        try:
            run_state_machine_as_test(machine, settings=batch)
        except AssertionError as error:
            broken = str(error)
    seconds = time.perf_counter() - started
    print(f"== {ruleset}: {tally['steps']} steps in {tally['games']} games, {seconds:.0f} s")
    print(f"   turns resolved: {tally['turns resolved']}")
    actions = sorted((k, v) for k, v in tally.items() if k.startswith("  "))
    print("   " + ", ".join(f"{k.strip()} {v}" for k, v in actions))
    print(f"   invariants: {'BROKEN: ' + broken if broken else 'all held'}")
    return not broken


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=2000, help="steps of each ruleset at least")
    parser.add_argument("--ruleset", nargs="+", default=list(RULESETS))
    args = parser.parse_args()
    register_test_rulesets()
    results = [run(ruleset, args.steps) for ruleset in args.ruleset]
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
