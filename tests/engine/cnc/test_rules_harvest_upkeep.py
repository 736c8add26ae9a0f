"""Rule-by-rule tests: Harvest Phase and Upkeep Phase."""

from __future__ import annotations

import pytest

from engine.rulesets.culture_and_conquest import economy
from engine.rulesets.culture_and_conquest.model import Leader

from .support import make_state, scripted_turn, texts


def test_3_food_per_agriculture_population() -> None:
    """Harvest Phase: "Produce 3 Food per Agriculture Population." """
    state = make_state(pops={"ann": {"agriculture": 5, "labor": 4}})
    turn = scripted_turn(state, "ann")
    economy.harvest(turn)
    assert state.seat("ann").food == 15
    assert texts(turn) == ["Harvest: 5 Agriculture x 3 = 15 food; food now 15."]


def test_irrigation_adds_1_food_per_agriculture_population() -> None:
    """Advance Table: "18 Irrigation Food +1 per Agricultural Population per turn" """
    state = make_state(pops={"ann": {"agriculture": 5}}, advances={"ann": ["Irrigation"]})
    economy.harvest(scripted_turn(state, "ann"))
    assert state.seat("ann").food == 20


def test_food_is_not_stored_without_pottery() -> None:
    """Harvest Phase: "Food is not stored unless you have the Pottery Advance." Project
    decision: food not eaten in the upkeep phase spoils at its end."""
    state = make_state(pops={"ann": {"agriculture": 5}}, food=20)
    turn = scripted_turn(state, "ann")
    economy.upkeep(turn)
    assert state.seat("ann").food == 0
    assert "15 food not eaten spoils (no Pottery)." in texts(turn)


def test_food_is_stored_with_pottery() -> None:
    """Harvest Phase: "Food is not stored unless you have the Pottery Advance." """
    state = make_state(pops={"ann": {"agriculture": 5}}, food=20, advances={"ann": ["Pottery"]})
    economy.upkeep(scripted_turn(state, "ann"))
    assert state.seat("ann").food == 15


def test_each_population_consumes_1_food_and_each_army_1_gold() -> None:
    """Upkeep Phase: "Each Population consumes 1 Food. Armies are paid 1 Gold each." """
    state = make_state(pops={"ann": {"agriculture": 5, "army": 3}}, food=10, gold=5)
    turn = scripted_turn(state, "ann")
    economy.upkeep(turn)
    seat = state.seat("ann")
    assert (seat.food, seat.gold, seat.population) == (0, 2, 8)
    assert (
        texts(turn)[0] == "Upkeep: 8 populations eat 8 food; 3 Armies cost 3 gold. Gold 2, food 2."
    )


def test_populations_not_fed_are_lost() -> None:
    """Upkeep Phase: "If upkeep is not met, those Populations are lost." The starving come
    from the largest category first (project decision)."""
    state = make_state(pops={"ann": {"agriculture": 2, "labor": 5, "trade": 1}}, food=5)
    turn = scripted_turn(state, "ann")
    economy.upkeep(turn)
    assert state.seat("ann").pops["labor"] == 2
    assert state.seat("ann").population == 5
    assert "3 starve (3 labor)" in texts(turn)[0]


def test_armies_not_paid_are_lost() -> None:
    """Upkeep Phase: "Armies are paid 1 Gold each. If upkeep is not met, those Populations are
    lost." """
    state = make_state(pops={"ann": {"army": 5}}, food=5, gold=2)
    turn = scripted_turn(state, "ann")
    economy.upkeep(turn)
    assert (state.seat("ann").army, state.seat("ann").gold) == (2, 0)
    assert "3 unpaid Armies are lost" in texts(turn)[0]


@pytest.mark.parametrize(("rolls", "left"), [([1, 2], ["Homer"]), ([3, 1], ["Cheops"])])
def test_a_leader_dies_of_old_age_on_a_1(rolls: list[int], left: list[str]) -> None:
    """Upkeep Phase: "Roll 1D6 for each Leader, on a roll of 1, the Leader dies of old age." """
    leaders = {"ann": [("Cheops", "Builder"), ("Homer", "Thinker")]}
    state = make_state(pops={"ann": {"agriculture": 1}}, food=1, leaders=leaders)
    turn = scripted_turn(state, "ann", dice={"old age": rolls})
    economy.upkeep(turn)
    assert [x.name for x in state.seat("ann").leaders] == left
    assert "of old age" in texts(turn)[1]


def test_leaders_live_on_without_a_1() -> None:
    """Upkeep Phase: only "on a roll of 1" does a leader die."""
    state = make_state(pops={"ann": {"agriculture": 1}}, food=1)
    state.seat("ann").leaders = [Leader("Plato", "Thinker")]
    turn = scripted_turn(state, "ann", dice={"old age": [2]})
    economy.upkeep(turn)
    assert state.seat("ann").leaders == [Leader("Plato", "Thinker")]


def test_one_population_and_one_army_in_the_singular() -> None:
    """issue 13: reports said "1 populations" (engine.words.plural)."""
    state = make_state(pops={"ann": {"army": 1}}, food=1, gold=1)
    turn = scripted_turn(state, "ann")
    economy.upkeep(turn)
    assert (
        texts(turn)[0] == "Upkeep: 1 population eats 1 food; 1 Army costs 1 gold. Gold 0, food 0."
    )
