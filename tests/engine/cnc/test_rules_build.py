"""Rule-by-rule tests: Build Phase, the City Names and the Wonder Table."""

from __future__ import annotations

import pytest

from engine.problems import ProblemKind
from engine.rulesets.culture_and_conquest import economy
from engine.rulesets.culture_and_conquest.model import City, Project
from engine.rulesets.culture_and_conquest.rules import RULES

from .support import make_state, problems, results, scripted_turn, texts


def _builders(labor: int, gold: int = 100, **kwargs: object) -> object:
    return make_state(pops={"ann": {"labor": labor}}, gold=gold, **kwargs)  # type: ignore[arg-type]


def test_each_labor_specialist_produces_1_labor_point() -> None:
    """Build Phase: "Each Labor specialist produces 1 Labor point per turn. Assign Labor points
    to a City or Wonder under construction." """
    state = make_state(pops={"ann": {"labor": 7}}, gold=100)
    turn = scripted_turn(state, "ann", "BUILD CITY Thebes")
    economy.build(turn)
    assert state.seat("ann").projects == [Project("city", "Thebes", 7)]
    assert texts(turn)[0] == "Build: 7 labor points."


def test_a_builder_adds_1d6_labor() -> None:
    """Leaders: "4 Builder Labor +1D6" """
    state = make_state(pops={"ann": {"labor": 2}}, leaders={"ann": [("Cheops", "Builder")]})
    turn = scripted_turn(state, "ann", "BUILD CITY", dice={"builder": [5]})
    economy.build(turn)
    assert state.seat("ann").projects[0].labor == 7
    assert texts(turn)[0] == "Build: 7 labor points (Builders rolled [5])."


def test_labor_points_not_assigned_are_lost() -> None:
    """Build Phase: "Labor points not assigned are lost. ... Labor points may not be saved from
    turn to turn." """
    state = make_state(pops={"ann": {"labor": 4}})
    turn = scripted_turn(state, "ann")
    economy.build(turn)
    assert texts(turn)[-1] == "Build: 4 labor points not assigned, lost."
    assert state.seat("ann").labor_credit == 0


def test_work_under_construction_keeps_its_labor_and_continues_by_itself() -> None:
    """Build Phase: "Assign Labor points to a City or Wonder under construction." The labor
    put into construction stays; labor not ordered goes on with it (project decision)."""
    state = make_state(pops={"ann": {"labor": 10}}, gold=100)
    state.seat("ann").projects = [Project("city", "Thebes", 45)]
    turn = scripted_turn(state, "ann")
    economy.build(turn)
    assert [c.name for c in state.seat("ann").cities] == ["Giza", "Thebes"]
    assert texts(turn)[-1] == "Build: 5 labor points not assigned, lost."


def test_a_city_costs_50_labor_and_25_gold() -> None:
    """Build Phase: "Build 1 City for 50 Labor and 25 Gold. Name the City." """
    state = make_state(pops={"ann": {"labor": 6}}, gold=30)
    state.seat("ann").projects = [Project("city", "Thebes", 44)]
    turn = scripted_turn(state, "ann", "BUILD CITY Thebes")
    economy.build(turn)
    assert state.seat("ann").cities[-1] == City("Thebes")
    assert state.seat("ann").gold == 5
    assert results(turn) == [("done", "Thebes finished")]


def test_a_finished_city_waits_for_its_gold() -> None:
    """Build Phase: "for 50 Labor and 25 Gold" - project decision: the gold is paid when the
    labor is in; without it the work waits, finishing when the gold is there."""
    state = make_state(pops={"ann": {"labor": 6}}, gold=20)
    state.seat("ann").projects = [Project("city", "Thebes", 48)]
    turn = scripted_turn(state, "ann", "BUILD CITY")
    economy.build(turn)
    assert state.seat("ann").projects == [Project("city", "Thebes", 50)]
    assert results(turn) == [("partly done", "Thebes: 50/50 labor, waits for 25 gold")]
    state.seat("ann").gold = 25
    economy.build(scripted_turn(state, "ann"))
    assert [c.name for c in state.seat("ann").cities] == ["Giza", "Thebes"]


def test_a_new_city_takes_the_first_unused_name_on_the_list() -> None:
    """City Names: "Alexandria, Antioch, Athens, ..." - a city not named in the order takes
    the first name no city has."""
    state = make_state(
        pops={"ann": {"labor": 1}}, cities={"ann": ["Alexandria"], "bob": ["Antioch"]}
    )
    turn = scripted_turn(state, "ann", "BUILD CITY")
    economy.build(turn)
    assert state.seat("ann").projects == [Project("city", "Athens", 1)]


def test_a_city_name_must_be_free() -> None:
    """Build Phase: "Name the City." - a name no other city has."""
    state = make_state()
    [problem] = problems(state, "ann", "BUILD CITY Rome")
    assert problem.kind is ProblemKind.ILLEGAL
    assert problem.message == "there is already a city called Rome"
    assert problem.rule == RULES["city"]


def test_a_wonder_costs_100_labor_and_50_gold() -> None:
    """Build Phase: "Build 1 Wonder for 100 Labor and 50 Gold." """
    state = make_state(pops={"ann": {"labor": 10}}, gold=60, advances={"ann": ["Religion"]})
    state.seat("ann").projects = [Project("wonder", "Oracle", 90, "Giza")]
    turn = scripted_turn(state, "ann", "BUILD WONDER Oracle")
    economy.build(turn)
    assert state.seat("ann").cities == [City("Giza", "Oracle")]
    assert state.seat("ann").wonders_built == ["Oracle"]
    assert state.seat("ann").gold == 10


@pytest.mark.parametrize(
    ("wonder", "advance"), [("Sphinx", "Art and Sculpture"), ("Stonehenge", "Astronomy")]
)
def test_sphinx_and_stonehenge_cost_the_same_as_a_city(wonder: str, advance: str) -> None:
    """Wonder Table: "Sphinx Sculpture Costs same as City; Stonehenge Astronomy Costs same as
    City" """
    state = make_state(pops={"ann": {"labor": 50}}, gold=25, advances={"ann": [advance]})
    turn = scripted_turn(state, "ann", f"BUILD WONDER {wonder}")
    economy.build(turn)
    assert state.seat("ann").wonders() == [wonder]
    assert state.seat("ann").gold == 0


@pytest.mark.parametrize(
    ("wonder", "advance"),
    [
        ("Sphinx", "Art and Sculpture"),
        ("Colossus", "Metal Working"),
        ("Oracle", "Religion"),
        ("Hanging Gardens", "Irrigation"),
        ("Parthenon", "Architecture"),
        ("Stonehenge", "Astronomy"),
        ("Lighthouse", "Navigation"),
        ("Pyramids", "Engineering"),
        ("Great Wall", "Coinage"),
        ("Great Library", "Literacy"),
    ],
)
def test_each_wonder_requires_its_advance(wonder: str, advance: str) -> None:
    """Wonder Table: "Wonder Required" (Sculpture read as Art and Sculpture, Currency as
    Coinage)."""
    state = make_state()
    [problem] = problems(state, "ann", f"BUILD WONDER {wonder}")
    assert problem.message == f"the {wonder} needs the advance {advance}, which you do not have"
    assert problem.rule == RULES["wonder"]
    state.seat("ann").advances = [advance]
    assert problems(state, "ann", f"BUILD WONDER {wonder}") == []


def test_only_1_wonder_per_city() -> None:
    """Build Phase: "Only 1 Wonder per City." """
    state = make_state(advances={"ann": ["Religion", "Engineering"]})
    state.seat("ann").cities = [City("Giza", "Pyramids")]
    [problem] = problems(state, "ann", "BUILD WONDER Oracle IN Giza")
    assert problem.message == "Giza already has the Pyramids"
    [problem] = problems(state, "ann", "BUILD WONDER Oracle")
    assert problem.message == "every city of yours has a Wonder or one under construction"


def test_a_wonder_is_built_once() -> None:
    """Project decision (option unique_wonders, default yes): each Wonder is built once in the
    game; work on it elsewhere stops when it is finished."""
    state = make_state(pops={"ann": {"labor": 3}}, advances={"ann": ["Religion"]})
    state.seat("bob").wonders_built = ["Oracle"]
    [problem] = problems(state, "ann", "BUILD WONDER Oracle")
    assert problem.message == "the Oracle has already been built"
    state.seat("ann").projects = [Project("wonder", "Oracle", 30, "Giza")]
    turn = scripted_turn(state, "ann")
    economy.build(turn)
    assert state.seat("ann").projects == []
    assert (
        "work on the Oracle stops (the Oracle has already been built); 30 labor lost"
        in texts(turn)[1]
    )


def test_every_culture_may_build_each_wonder_by_option() -> None:
    """Option unique_wonders = no: each culture may build each Wonder once."""
    state = make_state(advances={"ann": ["Religion"]}, options={"unique_wonders": False})
    state.seat("bob").wonders_built = ["Oracle"]
    assert problems(state, "ann", "BUILD WONDER Oracle") == []
