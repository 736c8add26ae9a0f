"""Every registered ruleset's orders say what they were understood as (engine.recorder's
RecordedOrder.understood), for the check reply: in words, on one line, never raising, and for
the example orders of the reference too. No per-ruleset code: a new ruleset is checked as it
registers (part of the contract suite)."""

from __future__ import annotations

from typing import Any

import pytest

from engine import Ruleset
from tests.engine.contract.games import CASES, case_id, played

WIDE = 200  # the check reply wraps it; a reading longer than this is a ruleset bug


@pytest.mark.parametrize(("ruleset", "options"), CASES, ids=case_id)
def test_every_order_of_a_bot_game_is_understood_in_words(
    ruleset: Ruleset, options: dict[str, Any]
) -> None:
    readings = []
    for turn in played(ruleset, options, seed=5, max_turns=12):
        for seat, text in turn.order_texts.items():
            parsed = ruleset.parse_orders(turn.state_before, seat, text)
            readings += [(text, number, said) for number, said in parsed.understood()]
    assert readings
    bad = [
        reading
        for reading in readings
        if not reading[2].strip() or "\n" in reading[2] or len(reading[2]) > WIDE
    ]
    assert bad == []
    # understood in words, not the line handed back as written
    lines = {line.strip().upper() for text, _, _ in readings for line in text.splitlines()}
    assert [said for _, _, said in readings if said.upper() in lines] == []
