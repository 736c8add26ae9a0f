"""The fast bot game `pbem balance` plays is the same game as the one through the JSON
interface: same orders, same events and dice, same outcome, for every registered ruleset."""

from __future__ import annotations

import pytest

from engine import all_rulesets
from engine.playthrough import bot_game, sketch_bot_game

NAMES = ["ann", "bob", "cat", "dan"]


@pytest.mark.parametrize("ruleset", [r.id for r in all_rulesets()])
def test_the_sketch_plays_the_same_game(ruleset: str) -> None:
    full = list(bot_game(ruleset, NAMES, 3, max_turns=12))
    quick = list(sketch_bot_game(ruleset, NAMES, 3, max_turns=12))
    assert len(full) == len(quick) > 0
    for turn, sketch in zip(full, quick, strict=True):
        assert sketch.order_texts == turn.order_texts
        assert sketch.events == turn.resolution.events
        assert sketch.outcome == turn.resolution.outcome
