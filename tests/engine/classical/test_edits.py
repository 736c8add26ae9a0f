"""Referee corrections: valid edits change the state, bad ones are refused with a reason."""

from __future__ import annotations

import pytest

from engine.ruleset import EditError
from engine.rulesets.classical.model import GameState

from .support import RULESET, make_state


def _edit(state: GameState, path: str, value: str) -> GameState:
    return GameState.from_json(RULESET.edit(state.to_json(), path, value))


def test_edits_set_vp_traits_settlements_and_units() -> None:
    state = make_state()
    state = _edit(state, "seat.ann.vp", "40")
    state = _edit(state, "seat.ann.religion", "2")
    state = _edit(state, "space.A1.settlement", "city ann")
    state = _edit(state, "space.A1.monuments", "2")
    state = _edit(state, "space.A1.units.ann", "3")
    assert state.seat("ann").vp == 40 and state.seat("ann").level("religion") == 2
    spot = state.space("A1")
    assert (spot.owner, spot.settlement, spot.monuments, spot.units) == (
        "ann",
        "city",
        2,
        {"ann": 3},
    )


@pytest.mark.parametrize(
    ("path", "value"),
    [
        ("seat.zed.vp", "1"),
        ("seat.ann.vp", "lots"),
        ("space.Z9.monuments", "1"),
        ("space.G1.settlement", "city ann"),  # sea
        ("space.A1.monuments", "2"),  # no settlement
        ("army.A1", "2"),
    ],
)
def test_bad_edits_are_refused_and_change_nothing(path: str, value: str) -> None:
    state = make_state()
    before = state.to_json()
    with pytest.raises(EditError):
        RULESET.edit(before, path, value)
    assert state.to_json() == before
