"""Everything a ruleset writes for a player's mail fits in 72 columns: maps for every seat and
for no seat, holdings, the public summary, order templates, the order help, the edit paths and
the text of every event and order result as the report wraps it, with 2, 4 and the most
seats."""

from __future__ import annotations

from typing import Any

import pytest

from engine import Ruleset
from pbem.games.reports import event_line
from pbem.templates import wrap

from .games import CASES, NAMES, case_id, played, seat_counts

WIDE = [(ruleset, options, seats) for ruleset, options in CASES for seats in seat_counts(ruleset)]


def _texts(ruleset: Ruleset, options: dict[str, Any], seats: int) -> list[str]:
    game = played(ruleset, options, 5, seats=seats, max_turns=8)
    state = game[-1].resolution.state
    texts = [ruleset.render_map(state, ""), ruleset.public_summary(state)]
    texts += [ruleset.order_help(), ruleset.edit_paths()]
    for seat in NAMES[:seats]:
        texts += [
            ruleset.render_map(state, seat),
            ruleset.holdings(state, seat),
            ruleset.order_template(state, seat),
        ]
    for turn in game:
        # Events and order results are one paragraph each; the report wraps them (with the
        # service's own code, so a word too long to wrap shows here).
        texts += [event_line(event) for event in turn.resolution.events]
        texts += [wrap(r.note) for rs in turn.resolution.results.values() for r in rs]
    return texts


@pytest.mark.parametrize(("ruleset", "options", "seats"), WIDE, ids=case_id)
def test_every_text_for_a_player_fits_72_columns(
    ruleset: Ruleset, options: dict[str, Any], seats: int
) -> None:
    texts = _texts(ruleset, options, seats)
    assert len(texts) > 10
    too_wide = [line for text in texts for line in text.splitlines() if len(line) > 72]
    assert too_wide == []
