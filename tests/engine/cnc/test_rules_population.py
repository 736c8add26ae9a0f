"""Rule-by-rule tests: Population Increase, Population Distribution and Gain Leader."""

from __future__ import annotations

import pytest

from engine.problems import ProblemKind
from engine.rulesets.culture_and_conquest import population
from engine.rulesets.culture_and_conquest.model import City, Leader
from engine.rulesets.culture_and_conquest.rules import RULES

from .support import make_state, problems, results, scripted_turn, texts

FARMERS = {"ann": {"agriculture": 10}}


@pytest.mark.parametrize(("roll", "gained"), [(1, 0), (2, 0), (3, 1), (4, 2), (6, 4)])
def test_gain_1d6_minus_2_populations_minimum_0(roll: int, gained: int) -> None:
    """Population Increase Phase: "Gain 1D6-2 Population. Minimum = 0." """
    state = make_state(pops=FARMERS)
    turn = scripted_turn(state, "ann", dice={"increase": [roll]})
    population.increase(turn)
    assert state.seat("ann").population == 10 + gained


def test_new_populations_start_as_agriculture() -> None:
    """Population Increase Phase: "These Populations start as Agriculture specialists." """
    state = make_state(pops={"ann": {"labor": 3}})
    population.increase(scripted_turn(state, "ann", dice={"increase": [5]}))
    assert state.seat("ann").pops == {
        "army": 0,
        "agriculture": 3,
        "trade": 0,
        "labor": 3,
        "scholars": 0,
    }


@pytest.mark.parametrize(("roll", "gained"), [(1, 0), (2, 1), (6, 5)])
def test_religion_adds_1_to_the_population_roll(roll: int, gained: int) -> None:
    """Advance Table: "2 Religion Population Phase: add 1 to roll" """
    state = make_state(pops=FARMERS, advances={"ann": ["Religion"]})
    turn = scripted_turn(state, "ann", dice={"increase": [roll]})
    population.increase(turn)
    assert state.seat("ann").pops["agriculture"] == 10 + gained
    assert "+ 1 (Religion)" in texts(turn)[0]


def test_populations_are_assigned_to_the_five_categories() -> None:
    """Population Distribution Phase: "Assign Populations to one of the five specialty
    categories: Army, Agriculture, Trade, Labor, and Scholars." """
    state = make_state(pops={"ann": {"agriculture": 8, "trade": 1}}, gold=5)
    text = "MOVE 2 AGRICULTURE TO ARMY\nMOVE 3 AGRI TO TRADE\nMOVE 2 TRADERS LABOR\n"
    text += "ASSIGN 1 agriculture scholars"
    turn = scripted_turn(state, "ann", text)
    population.distribution(turn)
    assert state.seat("ann").pops == {
        "army": 2,
        "agriculture": 2,
        "trade": 2,
        "labor": 2,
        "scholars": 1,
    }
    assert texts(turn)[-1] == "Populations: Army 2, Agriculture 2, Trade 2, Labor 2, Scholars 1."


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("MOVE 7 AGRICULTURE TO LABOR", "Agriculture would decrease by 7, more than 6"),
        (
            "MOVE 4 AGRICULTURE TO LABOR\nMOVE 3 TRADE TO LABOR",
            "Labor would increase by 7, more than 6",
        ),
        (
            "MOVE 4 AGRICULTURE TO LABOR\nMOVE 3 AGRICULTURE TO TRADE",
            "Agriculture would decrease by 7, more than 6",
        ),
    ],
)
def test_a_category_changes_by_at_most_6(text: str, message: str) -> None:
    """Population Distribution Phase: "A single category cannot be increased or decreased by
    more than 6 Populations." (Moves in and moves out are counted apart.)"""
    state = make_state(pops={"ann": {"agriculture": 12, "trade": 5}})
    [problem] = problems(state, "ann", text)
    assert problem.kind is ProblemKind.ILLEGAL
    assert problem.message == message
    assert problem.rule == RULES["distribution"]


def test_six_in_and_six_out_is_allowed() -> None:
    """Population Distribution Phase: "cannot be increased or decreased by more than 6" - six
    is allowed."""
    state = make_state(pops={"ann": {"agriculture": 12}})
    turn = scripted_turn(state, "ann", "MOVE 6 AGRICULTURE TO LABOR\nMOVE 6 LABOR TO TRADE")
    population.distribution(turn)
    assert state.seat("ann").pops["trade"] == 6


def test_raising_an_army_costs_1_gold() -> None:
    """Population Distribution Phase: "It costs 1 Gold to raise an Army." """
    state = make_state(pops=FARMERS, gold=5)
    turn = scripted_turn(state, "ann", "MOVE 3 AGRICULTURE TO ARMY\nMOVE 1 ARMY TO TRADE")
    population.distribution(turn)
    assert (state.seat("ann").army, state.seat("ann").gold) == (2, 2)
    assert results(turn) == [("done", "raised for 3 gold"), ("done", "")]


def test_an_army_without_the_gold_is_refused() -> None:
    """Population Distribution Phase: "It costs 1 Gold to raise an Army." """
    state = make_state(pops=FARMERS, gold=2)
    [problem] = problems(state, "ann", "MOVE 3 AGRICULTURE TO ARMY")
    assert problem.message == "raising 3 armies costs 3 gold and you have 2"
    assert problem.rule == RULES["army_cost"]


def test_armies_raised_are_cut_to_the_gold_left_at_the_phase() -> None:
    """Population Distribution Phase: "It costs 1 Gold to raise an Army" - a seat that lost
    gold since ordering raises what it can pay for."""
    state = make_state(pops=FARMERS, gold=3)
    turn = scripted_turn(state, "ann", "MOVE 3 AGRICULTURE TO ARMY")
    state.seat("ann").gold = 1
    population.distribution(turn)
    assert (state.seat("ann").army, state.seat("ann").gold) == (1, 0)
    assert results(turn) == [
        ("partly done", "moved 1 of 3: an Army costs 1 gold to raise and you have 0")
    ]


def test_scholars_are_limited_to_1_per_city() -> None:
    """Population Distribution table: "Scholars 1 Food 1 Research Roll 1 per City" """
    state = make_state(pops=FARMERS)
    [problem] = problems(state, "ann", "MOVE 2 AGRICULTURE TO SCHOLARS")
    assert problem.message == "2 scholars, but with 1 city you may have 1"
    assert problem.rule == RULES["scholar_limit"]
    state.seat("ann").cities.append(City("Thebes"))
    assert problems(state, "ann", "MOVE 2 AGRICULTURE TO SCHOLARS") == []


def test_scholars_beyond_the_cities_return_to_agriculture() -> None:
    """Population Distribution table: Scholars "1 per City" - a culture that lost a city has
    its extra scholars go back to Agriculture (project decision)."""
    state = make_state(pops={"ann": {"scholars": 3}})
    turn = scripted_turn(state, "ann")
    population.distribution(turn)
    assert state.seat("ann").pops["scholars"] == 1
    assert state.seat("ann").pops["agriculture"] == 2
    assert texts(turn)[0] == "2 scholars beyond 1 per city returned to Agriculture."


def test_moving_more_than_there_are_is_refused_then_cut() -> None:
    """Population Distribution Phase: only populations you have can be assigned."""
    state = make_state(pops={"ann": {"agriculture": 3}})
    [problem] = problems(state, "ann", "MOVE 4 AGRICULTURE TO LABOR")
    assert problem.message == "Agriculture has 3 populations, not 4"
    turn = scripted_turn(state, "ann", "MOVE 3 AGRICULTURE TO LABOR")
    state.seat("ann").pops["agriculture"] = 1
    population.distribution(turn)
    assert state.seat("ann").pops["labor"] == 1
    assert results(turn)[0][0] == "partly done"


@pytest.mark.parametrize("roll", [3, 4, 5, 6])
def test_no_leader_on_3_to_6(roll: int) -> None:
    """Gain Leader Phase: "On a roll of 1-2 on D6 gain 1 Leader." """
    state = make_state(pops=FARMERS)
    turn = scripted_turn(state, "ann", dice={"leader": [roll]})
    population.gain_leader(turn)
    assert state.seat("ann").leaders == []


@pytest.mark.parametrize(
    ("rolls", "kind"),
    [([1, 1], "Ruler"), ([2, 2], "General"), ([1, 3], "Thinker"), ([2, 4], "Builder")],
)
def test_a_leader_on_1_or_2_of_a_random_type(rolls: list[int], kind: str) -> None:
    """Gain Leader Phase: "On a roll of 1-2 on D6 gain 1 Leader. Choose randomly." Leaders:
    "1 Ruler, 2 General, 3 Thinker, 4 Builder" """
    state = make_state(pops=FARMERS)
    turn = scripted_turn(state, "ann", dice={"leader": [*rolls, 1]})
    population.gain_leader(turn)
    [leader] = state.seat("ann").leaders
    assert leader.kind == kind


def test_leader_type_5_or_6_is_rerolled() -> None:
    """Leaders: "5-6 Reroll" """
    state = make_state(pops=FARMERS)
    turn = scripted_turn(state, "ann", dice={"leader": [1, 5, 6, 5, 2, 3]})
    population.gain_leader(turn)
    assert state.seat("ann").leaders == [Leader("Hannibal", "General")]
    assert "type roll 5, 6, 5, 2" in texts(turn)[0]


def test_leaders_are_named_from_the_examples_not_in_play() -> None:
    """Leaders: "Examples: Solomon | Cleopatra | Theseus" - a new Ruler takes a name of the
    examples that no living leader has (project decision)."""
    state = make_state(pops=FARMERS, leaders={"bob": [("Solomon", "Ruler")]})
    turn = scripted_turn(state, "ann", dice={"leader": [1, 1, 1]})
    population.gain_leader(turn)
    assert state.seat("ann").leaders == [Leader("Cleopatra", "Ruler")]


def test_when_every_example_is_in_play_a_numeral_is_added() -> None:
    """Leaders: the examples run out; project decision: the first name with a numeral."""
    rulers = [("Solomon", "Ruler"), ("Cleopatra", "Ruler"), ("Theseus", "Ruler")]
    state = make_state(pops=FARMERS, leaders={"bob": rulers})
    turn = scripted_turn(state, "ann", dice={"leader": [2, 1]})
    population.gain_leader(turn)
    assert state.seat("ann").leaders == [Leader("Solomon 2", "Ruler")]
