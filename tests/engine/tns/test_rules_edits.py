"""Rule-by-rule tests: referee edits (design: "edit(state, path, value) for referee corrections,
validated")."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from engine.ruleset import EditError
from engine.rulesets.temples_and_swords.model import GameState

from .support import RULESET, make_state

TERRAIN = ["ggggg", "ggggg", "ddddd", "ddddd"]


def game() -> dict[str, Any]:
    return make_state(
        TERRAIN,
        hexes={
            "A1": ("ann", 3, ["city", "temple"]),
            "B1": ("ann", 2, []),
            "E4": ("bob", 3, ["city"]),
        },
        armies={"A1": {"ann": {"soldier": 2, "slave": 1}}},
        advances={"ann": ["Religion"]},
        gold=5,
    ).to_json()


def edited(path: str, value: str) -> GameState:
    before = game()
    kept = copy.deepcopy(before)
    after = RULESET.edit(before, path, value)
    assert before == kept, "an edit must not change the state it was given"
    assert GameState.from_json(after).to_json() == after
    return GameState.from_json(after)


def test_seat_gold_and_tech_points() -> None:
    """Edit paths: "seat.<seat>.gold = <n>", "seat.<seat>.tech_points = <n>" """
    assert edited("seat.ann.gold", "12").seat("ann").gold == 12
    assert edited("seat.B.tech_points", "9").seat("bob").tech_points == 9


def test_seat_advances_are_added_and_removed() -> None:
    """Edit paths: "seat.<seat>.advances = +<adv>|-<adv>" """
    assert edited("seat.ann.advances", "+masonry").seat("ann").advances == ["Religion", "Masonry"]
    assert edited("seat.ann.advances", "-Religion").seat("ann").advances == []


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        ("seat.ann.gold", "-1", "-1 is not between 0 and 1000000"),
        ("seat.ann.gold", "lots", "'lots' is not a whole number"),
        ("seat.ann.advances", "+Religion", "the seat already has Religion"),
        ("seat.ann.advances", "-Art", "the seat does not have Art"),
        ("seat.ann.advances", "+Rocketry", "write +<advance> or -<advance>"),
        ("seat.ann.advances", "Masonry", "write +<advance> or -<advance>"),
        ("seat.zed.gold", "1", "no seat 'zed'"),
        ("seat.ann.score", "1", "a seat has no 'score' to edit"),
        ("seat.ann.alive", "perhaps", "'perhaps': say yes or no"),
        ("hex.A1.pop", "7", "7 is not between 0 and 6"),
        ("hex.A1.laborers", "4", "4 is not between 0 and 3"),
        ("hex.C3.pop", "1", "C3 has no owner; set hex.C3.owner first"),
        ("hex.F9.pop", "1", "'F9' is not a hex of this map"),
        ("hex.B1.temple", "yes", "a temple stands in a city, and B1 has none"),
        ("hex.C1.road", "yes", "C1 has no owner to hold a road"),
        ("hex.A1.city", "no", "remove the city's improvements in A1 first"),
        ("hex.A1.colour", "red", "a hex has no 'colour'"),
        ("army.A1.bob", "B1", "bob has no army in A1"),
        ("army.A1.ann.tank", "1", "no unit type 'tank'"),
        ("army.A1.ann.soldier", "1000", "1000 is not between 0 and 999"),
        ("armies.A1.ann", "B1", "an edit path starts with seat., hex. or army."),
        ("seat.ann", "1", "seat edits look like seat.<seat>.<gold|tech_points|advances|alive>"),
    ],
)
def test_a_refused_edit_says_why_and_changes_nothing(path: str, value: str, message: str) -> None:
    """Design: "edit(state, path, value) for referee corrections, validated" (edits.py: "the
    value is checked before anything changes. A refused edit raises EditError with the
    reason")."""
    state = game()
    kept = copy.deepcopy(state)
    with pytest.raises(EditError) as refused:
        RULESET.edit(state, path, value)
    assert str(refused.value).startswith(message)
    assert state == kept


def test_hex_population_respects_the_terrain_cap() -> None:
    """Growth Phase: "Maximum populations in a hex are six for grassland hexes and three for
    desert hexes." - a referee edit cannot break it either."""
    state = RULESET.edit(game(), "hex.A3.owner", "ann")
    with pytest.raises(EditError, match="4 is not between 0 and 3"):
        RULESET.edit(state, "hex.A3.pop", "4")
    assert GameState.from_json(RULESET.edit(state, "hex.A3.pop", "3")).hexes["A3"].pop == 3


def test_hex_owner_and_population() -> None:
    """Edit paths: "hex.<hex>.owner = <seat>|none", "hex.<hex>.pop = <n>",
    "hex.<hex>.laborers = <n>" - a hex given to nobody loses its population."""
    state = edited("hex.B1.owner", "bob")
    assert (state.hexes["B1"].owner, state.hexes["B1"].pop) == ("bob", 2)
    state = edited("hex.B1.owner", "none")
    assert "B1" not in state.hexes
    state = GameState.from_json(
        RULESET.edit(RULESET.edit(game(), "hex.A1.laborers", "3"), "hex.A1.pop", "1")
    )
    assert (state.hexes["A1"].pop, state.hexes["A1"].laborers) == (1, 1)


def test_hex_projects() -> None:
    """Edit paths: "hex.<hex>.<project> = yes|no" - in chart order; improvements need a city."""
    assert edited("hex.A1.walls", "yes").hexes["A1"].projects == ["city", "temple", "walls"]
    assert edited("hex.B1.road", "yes").hexes["B1"].projects == ["road"]
    assert edited("hex.A1.temple", "no").hexes["A1"].projects == ["city"]
    state = RULESET.edit(game(), "hex.B1.road", "yes")
    state = RULESET.edit(RULESET.edit(state, "hex.B1.city", "yes"), "hex.B1.city", "no")
    assert GameState.from_json(state).hexes["B1"].projects == ["road"]


def test_army_units_and_moving_an_army() -> None:
    """Edit paths: "army.<hex>.<seat>.<unit> = <n>", "army.<hex>.<seat> = <hex>" (moves the
    whole army)."""
    assert edited("army.A1.ann.soldiers", "5").units("A1", "ann").to_json() == {
        "soldier": 5,
        "slave": 1,
    }
    assert edited("army.C3.bob.swordsmen", "2").units("C3", "bob").swordsman == 2
    state = edited("army.A1.ann", "B1")
    assert (state.units("A1", "ann").total(), state.units("B1", "ann").to_json()) == (
        0,
        {"soldier": 2, "slave": 1},
    )
    assert "A1" not in state.armies
    assert edited("army.A1.ann.soldier", "0").units("A1", "ann").to_json() == {"slave": 1}


def test_a_seat_can_be_taken_out() -> None:
    """Edit paths: "seat.<seat>.alive = yes|no" - a seat taken out is not asked for orders."""
    state = RULESET.edit(game(), "seat.bob.alive", "no")
    assert RULESET.seats_to_order(state) == ["ann"]
