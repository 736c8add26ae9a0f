"""Rule-by-rule tests: War Phase movement."""

from __future__ import annotations

from engine.problems import ProblemKind
from engine.rulesets.temples_and_swords import war
from engine.rulesets.temples_and_swords.model import GameState
from engine.rulesets.temples_and_swords.rules import RULES

from .support import make_state, problems, results, scripted_turn

TERRAIN = ["ggggg", "ggggg", "ddddd", "ddddd"]
# Neighbours on this map: A1: B1 A2; B1: C1 A1 A2 B2; C1: D1 B1 B2 C2; D1: E1 C1 C2 D2.


def position(
    units: dict[str, int], roads: tuple[str, ...] = (), **hexes: tuple[str, int, list[str]]
) -> GameState:
    held = {"A1": ("ann", 3, ["city"])} | dict(hexes)
    for name in roads:
        owner, pop, projects = held.get(name, ("ann", 1, []))
        held[name] = (owner, pop, [*projects, "road"])
    return make_state(TERRAIN, hexes=held, armies={"A1": {"ann": units}})


def army(state: GameState, hex_name: str) -> dict[str, int]:
    return state.units(hex_name, "ann").to_json()


def test_an_army_moves_one_hex() -> None:
    """War Phase: "You may move each of your armies one hex." """
    state = position({"soldier": 2})
    turn = scripted_turn(state, "ann", "MOVE A1 B1")
    war.war(turn)
    assert (army(state, "A1"), army(state, "B1")) == ({}, {"soldier": 2})
    assert results(turn) == [("done", "")]


def test_a_move_goes_to_a_neighbouring_hex_only() -> None:
    """War Phase: "You may move each of your armies one hex." - to a hex next to it."""
    [problem] = problems(position({"soldier": 2}), "ann", "MOVE A1 C1")
    assert problem.kind is ProblemKind.ILLEGAL
    assert problem.message == "C1 is not next to A1"
    assert problem.rule == RULES["move"]


def test_two_hexes_without_roads_is_too_far_for_a_soldier() -> None:
    """War Phase: "You may move each of your armies one hex." """
    [problem] = problems(position({"soldier": 1}), "ann", "MOVE A1 B1 C1")
    assert problem.kind is ProblemKind.ILLEGAL
    assert problem.message == (
        "A1-B1-C1 takes 2 moves and a soldier moves once (two road hexes count as one move)"
    )


def test_part_of_an_army_may_move() -> None:
    """War Phase: "You may move each of your armies one hex." - a count moves some units."""
    state = position({"soldier": 3})
    war.war(scripted_turn(state, "ann", "MOVE A1 B1 2 SOLDIERS"))
    assert (army(state, "A1"), army(state, "B1")) == ({"soldier": 1}, {"soldier": 2})


def test_a_road_move_crosses_two_road_hexes() -> None:
    """War Phase: "If an army is located in a hex with a road can move across two adjacent
    hexes with roads, you may move that army across those two hexes." """
    state = position({"soldier": 2}, roads=("A1", "B1", "C1"))
    war.war(scripted_turn(state, "ann", "MOVE A1 B1 C1"))
    assert army(state, "C1") == {"soldier": 2}


def test_no_road_move_without_a_road_where_the_army_stands() -> None:
    """War Phase: "If an army is located in a hex with a road ..." - the start needs a road."""
    [problem] = problems(position({"soldier": 1}, roads=("B1", "C1")), "ann", "MOVE A1 B1 C1")
    assert problem.kind is ProblemKind.ILLEGAL
    assert "takes 2 moves" in problem.message


def test_no_road_move_unless_both_hexes_crossed_have_roads() -> None:
    """War Phase: "... can move across two adjacent hexes with roads" - both need roads."""
    [problem] = problems(position({"soldier": 1}, roads=("A1", "B1")), "ann", "MOVE A1 B1 C1")
    assert problem.kind is ProblemKind.ILLEGAL
    assert "takes 2 moves" in problem.message


def test_a_road_move_is_still_one_move_three_road_hexes_are_too_far() -> None:
    """War Phase: "you may move that army across those two hexes" - two, not more."""
    roads = ("A1", "B1", "C1", "D1")
    [problem] = problems(position({"soldier": 1}, roads=roads), "ann", "MOVE A1 B1 C1 D1")
    assert problem.kind is ProblemKind.ILLEGAL
    assert problem.message.startswith("A1-B1-C1-D1 takes 2 moves")


def test_a_horseman_moves_twice() -> None:
    """War Phase: "Any horseman unit may move twice. After the first movement, the unit may
    move again in the same way." """
    state = position({"horseman": 2})
    war.war(scripted_turn(state, "ann", "MOVE A1 B1 C1"))
    assert army(state, "C1") == {"horseman": 2}


def test_a_horseman_moves_twice_in_the_same_way_along_roads() -> None:
    """War Phase: "After the first movement, the unit may move again in the same way." - two
    road moves take a horseman four road hexes."""
    state = position({"horseman": 1}, roads=("A1", "B1", "C1", "D1", "E1"))
    war.war(scripted_turn(state, "ann", "MOVE A1 B1 C1 D1 E1"))
    assert army(state, "E1") == {"horseman": 1}


def test_a_horseman_does_not_move_three_times() -> None:
    """War Phase: "Any horseman unit may move twice." """
    [problem] = problems(position({"horseman": 1}), "ann", "MOVE A1 B1 C1 D1")
    assert problem.kind is ProblemKind.ILLEGAL
    assert problem.message.startswith("A1-B1-C1-D1 takes 3 moves and a horseman moves twice")


def test_in_a_mixed_army_only_the_horsemen_make_a_double_move() -> None:
    """War Phase: "Any horseman unit may move twice." - the other units stay."""
    state = position({"soldier": 2, "horseman": 1})
    turn = scripted_turn(state, "ann", "MOVE A1 B1 C1")
    war.war(turn)
    assert (army(state, "A1"), army(state, "C1")) == ({"soldier": 2}, {"horseman": 1})
    [(status, note)] = results(turn)
    assert status == "partly done"
    assert note.startswith("1 of 3 moved: A1-B1-C1 takes 2 moves and a soldier moves once")


def test_a_slave_moves_like_a_basic_military_unit() -> None:
    """Combat step 5: "[A slave] moves like a basic military unit." """
    state = position({"slave": 1}, roads=("A1", "B1", "C1"))
    war.war(scripted_turn(state, "ann", "MOVE A1 B1 C1 SLAVE"))
    assert army(state, "C1") == {"slave": 1}
    [problem] = problems(position({"slave": 1}), "ann", "MOVE A1 B1 C1 SLAVE")
    assert problem.message.startswith("A1-B1-C1 takes 2 moves and a slave moves once")


def test_entering_a_hex_with_enemy_population_ends_the_move() -> None:
    """War Phase: "If you move any of your armies into a hex with any enemy cities,
    populations or armies, you may ... attack" - the move ends there; it cannot go on."""
    state = position({"horseman": 1}, B1=("bob", 1, []))
    [problem] = problems(state, "ann", "MOVE A1 B1 C1")
    assert problem.kind is ProblemKind.ILLEGAL
    assert problem.message == "B1 holds enemy holdings: a move that enters it ends there"
    assert problem.rule == RULES["move"]
    assert problems(state, "ann", "MOVE A1 B1") == []


def test_entering_a_hex_with_an_enemy_army_ends_the_move() -> None:
    """War Phase: "... a hex with any enemy cities, populations or armies" - an army alone
    is enough to stop a move."""
    state = position({"horseman": 1})
    state.units_for_change("B1", "bob").add("soldier", 1)
    [problem] = problems(state, "ann", "MOVE A1 B1 C1")
    assert problem.message == "B1 holds enemy holdings: a move that enters it ends there"


def test_an_enemy_arriving_in_the_way_stops_a_move_at_resolution() -> None:
    """War Phase: a move that would pass through enemy holdings is not carried out when they
    got there after the order was checked (an earlier seat's turn)."""
    state = position({"horseman": 1})
    turn = scripted_turn(state, "ann", "MOVE A1 B1 C1")
    state.units_for_change("B1", "bob").add("soldier", 1)
    war.war(turn)
    assert army(state, "A1") == {"horseman": 1}
    assert results(turn) == [
        ("skipped", "B1 holds enemy holdings: a move that enters it ends there")
    ]


def test_units_move_once_a_turn() -> None:
    """War Phase: "You may move each of your armies one hex." - once a turn: a unit that
    arrived by one order does not move on by another, while units already there may."""
    state = position({"soldier": 2})
    state.units_for_change("B1", "ann").add("soldier", 1)
    turn = scripted_turn(state, "ann", "MOVE A1 B1\nMOVE B1 C1")
    war.war(turn)
    assert (army(state, "A1"), army(state, "B1"), army(state, "C1")) == (
        {},
        {"soldier": 2},
        {"soldier": 1},
    )
    assert results(turn) == [("done", ""), ("done", "")]


def test_units_that_already_moved_cannot_move_again() -> None:
    """War Phase: "You may move each of your armies one hex." - a second order cannot move the
    units that arrived by the first: the parser refuses it, and at resolution it finds no unit
    free (here the units that were in B1 when it was checked are gone)."""
    state = position({"soldier": 2})
    [problem] = problems(state, "ann", "MOVE A1 B1\nMOVE B1 C1")
    assert (problem.line_no, problem.message) == (2, "you have no army in B1")
    state.units_for_change("B1", "ann").add("soldier", 1)
    turn = scripted_turn(state, "ann", "MOVE A1 B1\nMOVE B1 C1")
    state.units_for_change("B1", "ann").add("soldier", -1)
    war.war(turn)
    assert (army(state, "B1"), army(state, "C1")) == ({"soldier": 2}, {})
    assert results(turn) == [("done", ""), ("skipped", "no unit of yours free to move in B1")]


def test_moving_needs_an_army_there() -> None:
    """War Phase: "You may move each of your armies" - only armies you have."""
    state = position({"soldier": 1})
    [problem] = problems(state, "ann", "MOVE B1 C1")
    assert (problem.kind, problem.message) == (ProblemKind.ILLEGAL, "you have no army in B1")
    [problem] = problems(state, "ann", "MOVE A1 B1 HORSEMAN")
    assert problem.message == "you have no horseman in A1"
    [problem] = problems(state, "ann", "MOVE A1 B1 2 SOLDIERS")
    assert problem.message == "you have 1 soldier in A1, not 2"
