"""Rule-by-rule tests: Combat step 5, resolve combat (gold, control, slaves)."""

from __future__ import annotations

import pytest

from engine.problems import ProblemKind
from engine.rulesets.temples_and_swords import economy, war
from engine.rulesets.temples_and_swords.model import GameState
from engine.rulesets.temples_and_swords.scoring import victory_points

from .support import codes, make_state, problems, results, scripted_turn

TERRAIN = ["ggggg", "ggggg", "ddddd", "ddddd"]


def position(units: int, pop: int, projects: tuple[str, ...] = ("city",)) -> GameState:
    """ann's soldiers already stand in bob's undefended hex B1."""
    return make_state(
        TERRAIN,
        hexes={"A1": ("ann", 3, ["city"]), "B1": ("bob", pop, list(projects))},
        armies={"B1": {"ann": {"soldier": units}}},
    )


def attack(state: GameState, text: str = "ATTACK B1") -> list[tuple[str, str]]:
    turn = scripted_turn(state, "ann", text)
    war.war(turn)
    return results(turn)


def test_two_gold_for_each_enemy_population_in_the_hex() -> None:
    """Combat step 5: "First, if there are any populations in the hex, the victorious army
    recieves 2 gold for each enemy population in the hex." """
    state = position(units=2, pop=3)
    attack(state)
    assert state.seat("ann").gold == 6
    assert state.seat("bob").gold == 0


def test_control_with_at_least_half_as_many_units_as_populations() -> None:
    """Combat step 5: "if after a battle, a player has two units surviving. If the captured hex
    has four or less populations in the hex, the player takes control of the populations and
    the hex." """
    state = position(units=2, pop=4)
    assert attack(state, "ATTACK B1 SLAVES 0") == [("done", "captured B1: 8 GP, 0 slaves")]
    here = state.hexes["B1"]
    assert (here.owner, here.pop, here.projects) == ("ann", 4, ["city"])


def test_no_control_with_fewer_than_half_as_many_units_as_populations() -> None:
    """Combat step 5: "If the hex has five or more populations, he does not take control." -
    the gold is taken all the same."""
    state = position(units=2, pop=5)
    assert attack(state) == [("done", "won 10 GP; too few units to take control")]
    assert (state.hexes["B1"].owner, state.hexes["B1"].pop) == ("bob", 5)
    assert state.seat("ann").gold == 10
    assert state.units("B1", "ann").slave == 0


def test_control_counts_the_units_that_survive_the_battle() -> None:
    """Combat step 5: "if after a battle, a player has two units surviving" - the survivors,
    not the units that attacked."""
    state = position(units=3, pop=5)
    state.units_for_change("B1", "bob").add("soldier", 1)
    turn = scripted_turn(state, "ann", "ATTACK B1", dice={"attack:0": [2, 2, 2, 1, 3, 3, 1, 4, 4]})
    war.war(turn)
    assert state.units("B1", "ann").soldier == 2
    assert state.hexes["B1"].owner == "bob"
    assert state.seat("ann").gold == 10


def test_control_gives_the_hex_its_populations_and_its_city() -> None:
    """Combat step 5: "the victorious army may recieve control of the hex and all populations
    and cities in the hex" - the city's VP change hands with it."""
    state = position(units=3, pop=2, projects=("city", "road", "temple"))
    state.hexes["B1"].laborers = 2
    before = victory_points(state, "ann"), victory_points(state, "bob")
    attack(state, "ATTACK B1 SLAVES 0")
    here = state.hexes["B1"]
    assert (here.owner, here.pop, here.laborers) == ("ann", 2, 0)
    assert here.projects == ["city", "road", "temple"]
    assert (victory_points(state, "ann"), victory_points(state, "bob")) == (
        before[0] + 2,
        before[1] - 2,
    )


@pytest.mark.parametrize(("units", "pop", "slaves"), [(4, 3, 2), (3, 5, 3), (3, 6, 3), (1, 1, 1)])
def test_slaves_up_to_half_the_populations_rounded_up(units: int, pop: int, slaves: int) -> None:
    """Combat step 5: "A victorious army may enslave populations equal to half the
    populations in the hex, rounded up." - by default as many as allowed (SLAVES ALL)."""
    state = position(units=units, pop=pop)
    attack(state)
    assert state.units("B1", "ann").slave == slaves
    assert state.hexes["B1"].pop == pop - slaves
    assert state.hexes["B1"].owner == "ann"


def test_no_more_slaves_than_surviving_units() -> None:
    """Combat step 5: "A victorious army may also not take more slaves than it has surviving
    units." (With control needing survivors of at least half the population, this meets the
    rounded-up half exactly at the edge: 2 units, 4 population, 2 slaves.)"""
    state = position(units=2, pop=4)
    attack(state, "ATTACK B1 SLAVES 9")
    assert state.units("B1", "ann").to_json() == {"soldier": 2, "slave": 2}
    assert state.hexes["B1"].pop == 2


@pytest.mark.parametrize(("order", "slaves"), [("SLAVES 1", 1), ("SLAVES NONE", 0), ("", 2)])
def test_the_attack_order_says_how_many_slaves_to_take(order: str, slaves: int) -> None:
    """Combat step 5: "the victorious army may enslave the captured populations" - may: ATTACK
    ... SLAVES n|ALL|NONE, ALL by default."""
    state = position(units=4, pop=4)
    attack(state, f"ATTACK B1 {order}")
    assert state.units("B1", "ann").slave == slaves
    assert state.hexes["B1"].pop == 4 - slaves


def test_slaves_are_taken_at_capture_or_never() -> None:
    """Combat step 5: "Note that slaves must be taken as soon as the hex is captured. A player
    cannot capture a hex and then take slaves two turns later." """
    state = position(units=4, pop=4)
    attack(state, "ATTACK B1 SLAVES 0")
    [problem] = problems(state, "ann", "ATTACK B1 SLAVES 2")
    assert problem.kind is ProblemKind.ILLEGAL
    assert problem.message == "B1 holds no enemy city, population or army"


def test_a_hex_emptied_by_enslaving_stays_captured() -> None:
    """Combat step 5: "the victorious army may recieve control of the hex" - it keeps it even
    when every population was enslaved."""
    state = position(units=1, pop=1, projects=())
    attack(state)
    assert state.to_json()["hexes"]["B1"] == {"owner": "ann", "pop": 0}
    assert state.units("B1", "ann").slave == 1


def test_a_slave_gives_one_labor_point_in_its_hex() -> None:
    """Combat step 5: "A slave can create one labor point a turn in any hex it is located in."
    (Build points are spent in the seat's own hexes.)"""
    state = make_state(
        TERRAIN, hexes={"A1": ("ann", 3, ["city"])}, armies={"A1": {"ann": {"slave": 2}}}
    )
    turn = scripted_turn(state, "ann", "BUILD A1 SOLDIER")
    economy.build(turn)
    assert state.units("A1", "ann").to_json() == {"soldier": 1, "slave": 2}
    assert codes(turn) == ["unit_built"]


def test_a_slave_is_not_a_military_unit_in_battle() -> None:
    """Combat step 5: "A slave becomes a unit like a military unit" - it neither fights nor
    counts for control; slaves of a defeated seat left alone in the hex go free (Decision 42,
    docs/rules/temples-and-swords.md)."""
    state = position(units=2, pop=2, projects=())
    state.units_for_change("B1", "bob").add("slave", 3)
    attack(state, "ATTACK B1 SLAVES 0")
    assert state.units("B1", "bob").slave == 0
    assert state.hexes["B1"].owner == "ann"


def test_no_spoils_while_another_enemy_army_holds_the_hex() -> None:
    """Combat step 5: "If all the defender's units have been destroyed, go to this step." -
    with a third seat's army still in the hex there is no capture yet."""
    state = make_state(
        TERRAIN,
        seats=("ann", "bob", "cid"),
        hexes={"A1": ("ann", 3, ["city"]), "B1": ("bob", 2, [])},
        armies={"B1": {"ann": {"soldier": 3}, "cid": {"soldier": 1}}},
    )
    assert attack(state, "ATTACK B1 SEAT bob") == [
        ("done", "won; another enemy army is still in the hex")
    ]
    assert (state.hexes["B1"].owner, state.seat("ann").gold) == ("bob", 0)


def test_beating_an_army_in_a_hex_that_is_no_ones_brings_no_spoils() -> None:
    """Decision 43 (docs/rules/temples-and-swords.md): "Winning against an army in a hex that is
    no one's (or your own) ... gives no plunder and no control."""
    state = make_state(
        TERRAIN,
        hexes={"A1": ("ann", 3, ["city"])},
        armies={"C1": {"ann": {"soldier": 3}, "bob": {"soldier": 1, "slave": 2}}},
    )
    turn = scripted_turn(state, "ann", "ATTACK C1", dice={"attack:0": [1, 6, 6]})
    war.war(turn)
    assert results(turn) == [("done", "won")]
    assert state.units("C1", "bob").total() == 0
    assert (state.seat("ann").gold, state.peek("C1").owner) == (0, "")


def test_the_defender_is_the_named_seat_else_the_hex_owner() -> None:
    """Decision 31 (docs/rules/temples-and-swords.md): "The defender is the seat named by SEAT,
    else the hex's owner, else the other seat with an army there"."""
    state = make_state(
        TERRAIN,
        seats=("ann", "bob", "cid"),
        hexes={"B1": ("bob", 2, [])},
        armies={"B1": {"ann": {"soldier": 3}, "bob": {"soldier": 1}, "cid": {"soldier": 1}}},
    )
    turn = scripted_turn(state, "ann", "ATTACK B1 SEAT cid", dice={"attack:0": [1, 6, 6]})
    war.war(turn)
    assert (state.units("B1", "cid").soldier, state.units("B1", "bob").soldier) == (0, 1)
    turn = scripted_turn(state, "ann", "ATTACK B1", dice={"attack:0": [1, 6, 6]})
    war.war(turn)
    assert state.units("B1", "bob").soldier == 0
    assert state.hexes["B1"].owner == "ann"


def test_by_default_an_attack_meets_the_army_standing_in_the_hex() -> None:
    """Decision 31: with no SEAT named, the defender is the army standing in the hex: the
    owner's if it has one there, else the other seat's (an owner with no army would give a
    battle without dice that takes the hex's one attack of the turn)."""
    state = make_state(
        TERRAIN,
        seats=("ann", "bob", "cid"),
        hexes={"B1": ("bob", 2, [])},
        armies={"B1": {"ann": {"soldier": 3}, "cid": {"soldier": 1}}},
    )
    turn = scripted_turn(state, "ann", "ATTACK B1", dice={"attack:0": [1, 6, 6]})
    war.war(turn)
    assert state.units("B1", "cid").soldier == 0
    assert (state.hexes["B1"].owner, state.seat("ann").gold) == ("ann", 4)


def test_the_victor_may_leave_the_hex_to_its_owner() -> None:
    """Combat step 5: "the victorious army may recieve control of the hex" - may: by default
    it takes control, and ATTACK ... CAPTURE NO leaves the hex (and its people) to the loser
    (issue 13: capture was forced). No slaves without the capture."""
    state = position(units=2, pop=3)
    assert attack(state, "ATTACK B1 CAPTURE NO") == [
        ("done", "won 6 GP; you did not take the hex (CAPTURE NO)")
    ]
    assert (state.hexes["B1"].owner, state.hexes["B1"].pop) == ("bob", 3)
    assert state.seat("ann").gold == 6 and state.units("B1", "ann").slave == 0
    state = position(units=2, pop=3)
    attack(state, "ATTACK B1 CAPTURE YES")
    assert state.hexes["B1"].owner == "ann"
