"""Everything a ruleset writes for a player's mail fits in 72 columns."""

from __future__ import annotations

import pytest

from engine import Ruleset, all_rulesets
from engine.playthrough import bot_game

SEATS = ["ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal"]


@pytest.mark.parametrize("ruleset", all_rulesets(), ids=lambda r: r.id)
@pytest.mark.parametrize("seats", [2, 4, 8])
def test_map_holdings_summary_and_template_fit_72_columns(ruleset: Ruleset, seats: int) -> None:
    names = SEATS[:seats]
    played = list(bot_game(ruleset.id, names, 5, max_turns=8))
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
