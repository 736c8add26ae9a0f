"""Everything a ruleset writes for a player's mail fits in 72 columns."""

from __future__ import annotations

from typing import Any

import pytest

from engine import Ruleset, all_rulesets, get_ruleset
from engine.playthrough import bot_game

SEATS = ["ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal", "ida", "jon", "kim", "lee"]
# every ruleset as it comes, and the variants whose texts differ (options)
CASES = [(ruleset, {}) for ruleset in all_rulesets()] + [
    (get_ruleset("culture-and-conquest"), {"map": "generated"}),
]


def _named(options: dict[str, Any]) -> str:
    return "-".join(f"{name}-{value}" for name, value in sorted(options.items())) or "as-is"


@pytest.mark.parametrize(
    ("ruleset", "options"),
    CASES,
    ids=lambda case: case.id if isinstance(case, Ruleset) else _named(case),
)
@pytest.mark.parametrize("seats", [2, 4, 8])
def test_map_holdings_summary_and_template_fit_72_columns(
    ruleset: Ruleset, options: dict[str, Any], seats: int
) -> None:
    names = SEATS[:seats]
    played = list(bot_game(ruleset.id, names, 5, options, max_turns=8))
    state = played[-1].resolution.state
    texts = [ruleset.render_map(state, ""), ruleset.public_summary(state), ruleset.order_help()]
    for seat in names:
        texts += [
            ruleset.render_map(state, seat),
            ruleset.holdings(state, seat),
            ruleset.order_template(state, seat),
        ]
    for text in texts:
        too_wide = [line for line in text.splitlines() if len(line) > 72]
        assert too_wide == []


def test_the_largest_map_fits_72_columns() -> None:
    """Culture & Conquest's map version for its most seats, 12."""
    ruleset = get_ruleset("culture-and-conquest")
    played = list(bot_game(ruleset.id, SEATS, 5, {"map": "generated"}, max_turns=3))
    state = played[-1].resolution.state
    texts = [ruleset.render_map(state, seat) for seat in ["", *SEATS]]
    texts += [ruleset.order_template(state, seat) for seat in SEATS]
    assert [line for text in texts for line in text.splitlines() if len(line) > 72] == []
