"""Ruleset answers read straight off the clock keys of a state, without loading the game.

Every ruleset built on engine.turns keeps "step", "winners" and "end_reason" in its state
JSON, so the pending turn's number and the outcome are the same two lookups everywhere.
"""

from __future__ import annotations

from engine.records import Outcome
from engine.ruleset import State


class StateClockAnswers:
    """Mix in before Ruleset: turn_number and outcome for a state with the clock keys."""

    def turn_number(self, state: State) -> int:
        return int(state["step"])

    def outcome(self, state: State) -> Outcome | None:
        if not state["winners"]:
            return None
        return Outcome(tuple(state["winners"]), state["end_reason"])
