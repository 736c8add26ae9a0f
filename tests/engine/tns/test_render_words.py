"""The holdings line counts its tech points in good English."""

from __future__ import annotations

from engine.rulesets.temples_and_swords.render import holdings
from tests.engine.tns.support import make_state


def test_one_tech_point_is_singular() -> None:
    state = make_state(["gg"], hexes={"A1": ("ann", 1, [])})
    state.seat("ann").tech_points = 1
    assert "0 GP, 1 tech point." in holdings(state, "ann")
    state.seat("ann").tech_points = 2
    assert "0 GP, 2 tech points." in holdings(state, "ann")
