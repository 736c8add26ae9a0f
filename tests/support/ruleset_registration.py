"""Registers the test rulesets with the engine registry once per process."""

from __future__ import annotations

from engine import get_ruleset, register
from engine.registry import UnknownRuleset
from tests.support.broken_ruleset import BROKEN
from tests.support.counting_ruleset import COUNTING

# Test doubles, not games: the contract suite (tests/engine/contract) leaves them out.
TEST_RULESETS = (COUNTING, BROKEN)


def register_test_rulesets() -> None:
    for ruleset in TEST_RULESETS:
        try:
            get_ruleset(ruleset.id)
        except UnknownRuleset:
            register(ruleset)
