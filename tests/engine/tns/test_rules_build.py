"""Rule-by-rule tests: Build Phase, the project chart and the military unit chart."""

from __future__ import annotations

import pytest

from engine.problems import ProblemKind
from engine.rulesets.temples_and_swords import economy
from engine.rulesets.temples_and_swords.model import ADVANCES, GameState
from engine.rulesets.temples_and_swords.rules import RULES

from .support import make_state, problems, results, scripted_turn, texts

TERRAIN = ["ggggg", "ggggg", "ddddd", "ddddd"]
PROJECT_COSTS = {"city": 10, "road": 3, "temple": 5, "walls": 3, "marketplace": 5, "library": 5}
UNIT_COSTS = {"soldier": 2, "swordsman": 2, "horseman": 2}


def city_with(
    laborers: int, projects: tuple[str, ...] = ("city",), masonry: bool = False
) -> GameState:
    """ann holds A1 (a city) and a plain hex B1, with every advance but (unless asked for)
    Masonry, and `laborers` in each."""
    state = make_state(
        TERRAIN,
        hexes={"A1": ("ann", 6, list(projects)), "B1": ("ann", 6, [])},
        advances={"ann": list(ADVANCES)},
    )
    state.hexes["A1"].laborers = laborers
    state.hexes["B1"].laborers = laborers
    if not masonry:
        state.seat("ann").advances.remove("Masonry")
    return state


@pytest.mark.parametrize(("project", "cost"), PROJECT_COSTS.items())
def test_project_build_points(project: str, cost: int) -> None:
    """Build Phase chart: "City 10, Road 3, Temple 5, Walls 3, Marketplace 5, Library 5" """
    hex_name = "B1" if project == "city" else "A1"
    state = city_with(laborers=cost, masonry=project == "walls")
    economy.build(scripted_turn(state, "ann", f"BUILD {hex_name} {project}"))
    assert project in state.hexes[hex_name].projects
    assert state.hexes[hex_name].progress == {}


@pytest.mark.parametrize(("project", "cost"), PROJECT_COSTS.items())
def test_a_project_short_of_points_is_not_finished(project: str, cost: int) -> None:
    """Build Phase chart: "Build Points Needed" - one point short, the project is not done."""
    hex_name = "B1" if project == "city" else "A1"
    state = city_with(laborers=cost - 1, masonry=project == "walls")
    turn = scripted_turn(state, "ann", f"BUILD {hex_name} {project}")
    economy.build(turn)
    assert project not in state.hexes[hex_name].projects
    assert state.hexes[hex_name].progress == {project: cost - 1}
    assert results(turn) == [("partly done", f"0 of 1 finished; {cost - 1}/{cost} toward the next")]


@pytest.mark.parametrize(("unit", "cost"), UNIT_COSTS.items())
def test_unit_build_points(unit: str, cost: int) -> None:
    """Unit chart: "Soldier 2, Swordsman 2, Horseman 2" build points."""
    state = city_with(laborers=2 * cost + 1)
    economy.build(scripted_turn(state, "ann", f"BUILD A1 2 {unit}"))
    assert state.units("A1", "ann").to_json() == {unit: 2}
    assert state.hexes["A1"].progress == {}


def test_build_points_are_cumulative_across_turns() -> None:
    """Build Phase: "Projects are built over a matter of several turns, build points expended
    on projects are cumulative across different turns." - unfinished work goes on by itself."""
    state = city_with(laborers=4)
    economy.build(scripted_turn(state, "ann", "BUILD B1 CITY"))
    assert state.hexes["B1"].progress == {"city": 4}
    economy.build(scripted_turn(state, "ann"))
    assert state.hexes["B1"].progress == {"city": 8}
    turn = scripted_turn(state, "ann")
    economy.build(turn)
    assert state.hexes["B1"].projects == ["city"]
    assert state.hexes["B1"].progress == {}
    assert "Build: 2 build points unused in B1." in texts(turn)


def test_each_laborer_gives_one_build_point_in_its_own_hex() -> None:
    """Build Phase: "All laborers produce one build point. These build points are used on
    projects in the hexes they occupy." """
    state = city_with(laborers=0)
    state.hexes["B1"].laborers = 5
    turn = scripted_turn(state, "ann", "BUILD A1 TEMPLE")
    economy.build(turn)
    assert "temple" not in state.hexes["A1"].projects
    assert results(turn) == [("skipped", "no build points in A1: no laborers or slaves there")]
    assert "Build: 5 build points unused in B1." in texts(turn)


def test_build_only_in_your_own_hexes() -> None:
    """Build Phase: "These build points are used on projects in the hexes they occupy" - a
    seat's laborers occupy its own hexes."""
    state = city_with(laborers=3)
    [problem] = problems(state, "ann", "BUILD C1 ROAD")
    assert problem.kind is ProblemKind.ILLEGAL
    assert problem.message == "C1 is not your hex; you build only in your own hexes"
    assert problem.rule == RULES["own_hex"]


@pytest.mark.parametrize(
    ("work", "advance"),
    [
        ("temple", "Religion"),
        ("walls", "Masonry"),
        ("marketplace", "Coinage"),
        ("library", "Writing"),
        ("swordsman", "Metal Working"),
        ("horseman", "Equestrian"),
    ],
)
def test_prerequisite_advances(work: str, advance: str) -> None:
    """Build Phase charts: "Temple ... Religion, City; Walls ... Masonry, City; Marketplace ...
    Coinage, City; Library ... Literature, City" (Literature read as Writing, option
    library_requires 'writing'); "Swordsman ... City, Iron" (Iron read as Metal Working);
    "Horseman ... City, Equestrian"."""
    state = city_with(laborers=5)
    state.seat("ann").advances = [a for a in ADVANCES if a != advance]
    [problem] = problems(state, "ann", f"BUILD A1 {work}")
    assert problem.kind is ProblemKind.ILLEGAL
    assert problem.message.endswith(f" the advance {advance}, which you do not have")
    assert work in problem.message.split()[:2]
    assert problem.rule == RULES["units" if work in UNIT_COSTS else "projects"]
    state.seat("ann").advances.append(advance)
    assert problems(state, "ann", f"BUILD A1 {work}") == []


@pytest.mark.parametrize(
    "work", ["temple", "walls", "marketplace", "library", "soldier", "swordsman", "horseman"]
)
def test_city_prerequisite(work: str) -> None:
    """Build Phase charts: Temple, Walls, Marketplace and Library need a "City"; Soldier,
    Swordsman and Horseman need a "City" (in the hex where they are built)."""
    state = city_with(laborers=5, masonry=True)
    [problem] = problems(state, "ann", f"BUILD B1 {work}")
    assert problem.kind is ProblemKind.ILLEGAL
    assert problem.message.endswith(" a city in its hex, and B1 has none")
    assert work in problem.message.split()[:2]


@pytest.mark.parametrize("work", ["city", "road"])
def test_city_and_road_need_nothing(work: str) -> None:
    """Build Phase chart: "City 10 ... None; Road 3 ... None" (prerequisites)."""
    state = make_state(TERRAIN, hexes={"B1": ("ann", 6, [])})
    state.hexes["B1"].laborers = 6
    assert problems(state, "ann", f"BUILD B1 {work}") == []


def test_library_needs_no_advance_with_option_none() -> None:
    """Option library_requires 'none': "the chart says Literature, which is not on the advance
    chart; ... 'none' needs only a city"."""
    state = make_state(
        TERRAIN, hexes={"A1": ("ann", 6, ["city"])}, options={"library_requires": "none"}
    )
    state.hexes["A1"].laborers = 5
    economy.build(scripted_turn(state, "ann", "BUILD A1 LIBRARY"))
    assert state.hexes["A1"].projects == ["city", "library"]
    [problem] = problems(state, "ann", "BUILD A1 LIBRARY")
    assert problem.message == "A1 already has a library"


def test_a_unit_may_be_built_where_a_city_is_ordered_first_in_the_same_turn() -> None:
    """Build Phase chart: units need a "City" - a city finished earlier in the same build
    phase counts."""
    state = city_with(laborers=6)
    state.hexes["B1"].progress = {"city": 6}
    turn = scripted_turn(state, "ann", "BUILD B1 CITY\nBUILD B1 SOLDIER")
    economy.build(turn)
    assert state.hexes["B1"].projects == ["city"]
    assert state.units("B1", "ann").soldier == 1
    assert results(turn) == [("done", ""), ("done", "")]


@pytest.mark.parametrize(("project", "cost"), [("city", 8), ("temple", 4)])
def test_masonry_takes_twenty_percent_off_cities_and_temples(project: str, cost: int) -> None:
    """Masonry: "Build points for Temples and Cities are reduced 20%" (City 10 -> 8,
    Temple 5 -> 4)."""
    state = city_with(laborers=cost)
    state.seat("ann").advances.append("Masonry")
    hex_name = "B1" if project == "city" else "A1"
    economy.build(scripted_turn(state, "ann", f"BUILD {hex_name} {project}"))
    assert project in state.hexes[hex_name].projects
    state = city_with(laborers=cost)
    economy.build(scripted_turn(state, "ann", f"BUILD {hex_name} {project}"))
    assert state.hexes[hex_name].progress == {project: cost}


@pytest.mark.parametrize(("work", "cost"), [("road", 3), ("walls", 3), ("marketplace", 5)])
def test_masonry_does_not_cheapen_other_projects(work: str, cost: int) -> None:
    """Masonry: "Build points for Temples and Cities are reduced 20%" - only those two."""
    state = city_with(laborers=cost - 1, masonry=True)
    economy.build(scripted_turn(state, "ann", f"BUILD A1 {work}"))
    assert state.hexes["A1"].progress == {work: cost - 1}


def test_a_project_is_built_once_in_a_hex() -> None:
    """Build Phase chart: a hex holds at most one of each project."""
    state = city_with(laborers=5, projects=("city", "temple"))
    [problem] = problems(state, "ann", "BUILD A1 TEMPLE")
    assert (problem.kind, problem.message) == (ProblemKind.ILLEGAL, "A1 already has a temple")
    [problem] = problems(state, "ann", "BUILD A1 CITY")
    assert problem.message == "A1 already has a city"


def test_build_points_are_spent_in_order_and_the_rest_continue_work() -> None:
    """Build Phase: "These build points are used on projects in the hexes they occupy" - in
    the order of the BUILD lines; points left continue unfinished work (Decision 45,
    docs/rules/temples-and-swords.md: "Build points without an order continue the hex's
    unfinished work, closest to done first; the rest are lost")."""
    state = city_with(laborers=6, masonry=True)
    state.hexes["A1"].progress = {"walls": 1}
    turn = scripted_turn(state, "ann", "BUILD A1 ROAD\nBUILD A1 SOLDIER")
    economy.build(turn)
    assert state.hexes["A1"].projects == ["city", "road"]
    assert state.units("A1", "ann").soldier == 1
    assert state.hexes["A1"].progress == {"walls": 2}


def test_a_build_order_may_cap_the_points_spent() -> None:
    """docs/rules/temples-and-swords.md, Phase 5: "A project order may set the most points to
    spend this turn (BUILD C4 CITY 3)" - the points left over do not go into it anyway."""
    state = city_with(laborers=6)
    turn = scripted_turn(state, "ann", "BUILD B1 CITY 3")
    economy.build(turn)
    assert state.hexes["B1"].progress == {"city": 3}
    assert results(turn) == [("partly done", "0 of 1 finished; 3/10 toward the next")]
    assert "Build: 3 build points unused in B1." in texts(turn)


def test_masonry_applies_to_work_under_way() -> None:
    """Decision 47 (docs/rules/temples-and-swords.md): "Masonry's 20% is rounded down (city 8,
    temple 4) and applies at once, also to work under way." """
    state = city_with(laborers=1, masonry=True)
    state.hexes["B1"].progress = {"city": 7}
    economy.build(scripted_turn(state, "ann"))
    assert (state.hexes["B1"].projects, state.hexes["B1"].progress) == (["city"], {})
