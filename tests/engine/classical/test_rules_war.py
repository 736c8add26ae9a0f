"""Rule-by-rule tests: Move and Battle."""

from __future__ import annotations

from engine.rulesets.classical import war
from engine.rulesets.classical.model import VILLAGE, Board, GameState, Territory
from engine.rulesets.classical.rules import RULES

from .support import city, make_state, problems, put, results, scripted_turn, village


def test_an_army_moves_2_spaces() -> None:
    """Move: "An Army may move 2 Spaces." """
    state = make_state()
    city(state, "A1", "ann", units=2)
    assert problems(state, "ann", "MOVE A1 E1") == []  # A1 C1 E1
    assert problems(state, "ann", "MOVE A1 G3")[0].rule == RULES["move"]  # 3 spaces by land


def _sea_lane() -> GameState:
    """Six sea spaces in a row, A1 to K1, and land at M1 and at the far end O1."""
    labels = ["A1", "C1", "E1", "G1", "I1", "K1", "M1", "O1"]
    row = " ".join(label for label in labels for _ in range(2))
    state = make_state()
    state.board = Board(
        [row, row],
        {
            label: Territory(sea=label not in ("M1", "O1"), resource="salt", roll=1)
            for label in labels
        },
    )
    return state


def test_a_fleet_moves_4_spaces_at_sea() -> None:
    """Move: "A Fleet may move 4 Spaces." - over sea only."""
    state = _sea_lane()
    put(state, "A1", "ann", units=1)
    assert problems(state, "ann", "MOVE A1 I1") == []  # C1 E1 G1 I1: 4 spaces
    assert problems(state, "ann", "MOVE A1 K1")[0].rule == RULES["move"]  # 5 spaces
    assert problems(state, "ann", "MOVE A1 M1")[0].message == "fleets cannot end a move on land"
    turn = scripted_turn(state, "ann", "MOVE A1 I1")
    war.move(turn)
    assert state.space("I1").units == {"ann": 1} and not state.space("A1").units


def test_units_may_stack() -> None:
    """Move: "Units may stack." """
    state = make_state()
    city(state, "A1", "ann", units=2)
    put(state, "C1", "ann", units=1)
    turn = scripted_turn(state, "ann", "MOVE A1 C1")
    war.move(turn)
    assert state.space("C1").units_of("ann") == 3


def test_armies_cross_friendly_fleets_at_no_cost() -> None:
    """Move: "Armies may move through friendly Fleets at no movement cost." """
    state = make_state()
    city(state, "A3", "ann", units=1)
    assert problems(state, "ann", "MOVE A3 G3")[0].rule == RULES["move"]  # 3 spaces by land
    put(state, "C3", "ann", units=1)  # a fleet in C3 between A3 and E3
    turn = scripted_turn(state, "ann", "MOVE A3 G3")
    war.move(turn)
    assert state.space("G3").units_of("ann") == 1  # A3 > C3 (free) > E3 > G3


def test_no_moving_through_enemy_held_spaces() -> None:
    """Move: "You cannot move though enemy held spaces." - but a move may end in one."""
    state = make_state()
    city(state, "A1", "ann", units=2)
    village(state, "C1", "bob")
    assert problems(state, "ann", "MOVE A1 E1")[0].rule == RULES["move"]
    assert problems(state, "ann", "MOVE A1 C1") == []


def test_a_unit_moves_once_a_turn() -> None:
    """Decision: units that arrived in a space this turn do not move on from it."""
    state = make_state()
    city(state, "A1", "ann", units=1)
    put(state, "C1", "ann", units=1)
    turn = scripted_turn(state, "ann", "MOVE A1 C1\nMOVE C1 E1\nMOVE C1 E1")
    war.move(turn)
    assert state.space("E1").units_of("ann") == 1 and state.space("C1").units_of("ann") == 1
    assert results(turn)[2][0] == "skipped"


def test_battle_lower_roll_discards_and_defender_wins_ties() -> None:
    """Battle: "Each side rolls 1D8 and adds their Military level (if on land) ... The lower
    roll discards 1 unit. Defender wins ties." """
    state = make_state()
    state.seat("ann").levels = {}
    state.seat("bob").levels = {}
    put(state, "C1", "ann", units=2)
    put(state, "C1", "bob", units=1)
    # rolls in pairs, attacker first: 4-4 tie (ann loses one), 5-3 (bob loses his last)
    turn = scripted_turn(state, "ann", dice={"battle C1 bob": [4, 4, 5, 3]})
    war.battle(turn)
    assert state.space("C1").units == {"ann": 1}


def test_military_adds_on_land_and_nautical_at_sea() -> None:
    """Battle: "adds their Military level (if on land) or Nautical level (if at sea)"; the
    text's Research Table says Military adds in "Naval Battles", a typo for land battles."""
    state = make_state()
    state.seat("ann").levels = {"military": 3, "nautical": 0}
    state.seat("bob").levels = {"nautical": 2}
    put(state, "C1", "ann", units=1)
    put(state, "C1", "bob", units=1)
    turn = scripted_turn(state, "ann", dice={"battle C1 bob": [2, 4]})  # 2+3 > 4+0
    war.battle(turn)
    assert state.space("C1").units == {"ann": 1}
    put(state, "C3", "ann", units=1)
    put(state, "C3", "bob", units=1)
    turn = scripted_turn(state, "ann", dice={"battle C3 bob": [5, 3]})  # 5+0 = 3+2: bob
    war.battle(turn)
    assert state.space("C3").units == {"bob": 1}


def test_a_settlement_that_loses_its_defenders_and_is_defeated_is_captured() -> None:
    """Battle: "If the defender loses all his units, and then the settlement is also
    defeated, the settlement (village or city) is captured by the invader. Replace the
    settlement with one of the invaders color." Decision: the settlement rolls 1D8 + its
    owner's Military against the invader, defender winning ties, once a unit of his."""
    state = make_state()
    state.seat("ann").levels = {}
    state.seat("bob").levels = {}
    village(state, "C1", "bob", units=1)
    state.space("C1").units["ann"] = 3
    turn = scripted_turn(state, "ann", dice={"battle C1 bob": [6, 2], "siege C1": [3, 3, 7, 1]})
    war.battle(turn)
    spot = state.space("C1")
    assert (spot.owner, spot.settlement, spot.units) == ("ann", VILLAGE, {"ann": 2})


def test_a_settlement_that_holds_keeps_its_owner() -> None:
    """Battle (decision): an invader who runs out of units against the settlement loses."""
    state = make_state()
    state.seat("ann").levels = {}
    state.seat("bob").levels = {}
    city(state, "C1", "bob", monuments=1)
    state.space("C1").units["ann"] = 1
    turn = scripted_turn(state, "ann", dice={"siege C1": [2, 5]})
    war.battle(turn)
    assert (state.space("C1").owner, state.space("C1").units) == ("bob", {})


def test_an_undefended_settlement_falls_at_once_without_settlement_defence() -> None:
    """Option settlement_defence 'none': a settlement without units is captured."""
    state = make_state(options={"settlement_defence": "none"})
    city(state, "C1", "bob", monuments=2)
    state.space("C1").units["ann"] = 1
    turn = scripted_turn(state, "ann")
    war.battle(turn)
    assert (state.space("C1").owner, state.space("C1").monuments) == ("ann", 2)
