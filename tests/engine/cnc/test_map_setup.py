"""Rule-by-rule tests of the map version (option map): the map, set up, placing new
populations, losses, one city per territory, changes of category, leaders, edits and the text
map."""

from __future__ import annotations

import pytest

from engine.hexgrid import distance
from engine.problems import ProblemKind
from engine.ruleset import EditError
from engine.rulesets.culture_and_conquest import economy, nature, population
from engine.rulesets.culture_and_conquest.geography import map_size, settle
from engine.rulesets.culture_and_conquest.model import GameState
from engine.rulesets.culture_and_conquest.rules import RULES

from .support import (
    RULESET,
    make_map_state,
    patch_dice,
    play,
    problems,
    scripted_turn,
    spot,
    texts,
)

SEATS = ["ann", "bob", "cat", "dan"]


def _new(seats: list[str], seed: int = 3) -> GameState:
    return GameState.from_json(RULESET.new_game(seats, {"map": "generated"}, seed))


def test_without_the_option_there_is_no_map() -> None:
    """Introduction: "This game does not require a map or counters." - the default, option map
    none, is the game as written."""
    state = RULESET.new_game(SEATS, {}, 3)
    assert state["options"]["map"] == "none"
    assert "map" not in state


def test_initial_populations_and_city_go_into_one_territory() -> None:
    """Map Version: "Put initial Populations and City into one territory." """
    state = _new(SEATS)
    assert state.land is not None
    for seat in state.seats:
        [home] = state.land.owned(seat.name)
        here = spot(state, home)
        assert here.city == seat.cities[0].name
        assert here.pops["agriculture"] == 10 == seat.population


@pytest.mark.parametrize("count", [2, 4, 8, 12])
def test_a_generated_map_scales_with_the_seats_and_spreads_the_starts(count: int) -> None:
    """Map Version: "a map of the Mediterranean divided up into small territories" - project
    decision: a generated map of about 8 land territories a seat around an inner sea, and no
    two starting territories next to each other (3 or more apart where the map allows)."""
    names = [f"s{i}" for i in range(count)]
    state = _new(names)
    assert state.land is not None
    land = state.land
    assert (land.width, land.height) == map_size(count)
    assert len(land.territories) >= 7 * count
    assert any(land.coastal(n) for n in land.territories)
    starts = [land.owned(n)[0] for n in names]
    assert min(distance(a, b) for a in starts for b in starts if a != b) >= 2
    assert all(len(land.land_neighbours(s)) >= 2 for s in starts)


def test_the_same_seed_gives_the_same_map_and_another_seed_another() -> None:
    one, two, three = (RULESET.new_game(SEATS, {"map": "generated"}, s) for s in (5, 5, 6))
    assert one == two
    assert one["map"] != three["map"]


def test_a_territory_is_coastal_when_next_to_the_sea() -> None:
    """Map Version: "They must end the turn in a coastal space." - a coastal territory is land
    next to a sea space."""
    state = make_map_state({"ann": {"B2": {"agriculture": 1}}})
    assert state.land is not None
    assert state.land.coastal("B2") and state.land.coastal("F3")
    assert not state.land.coastal("A1") and not state.land.coastal("F4")
    assert not state.land.coastal("C3")  # sea


def test_new_populations_are_spread_over_the_territories_you_control() -> None:
    """Map Version: "Place new Populations into any territory you control. Spread new
    Populations out as much as possible." Each new population goes to the territory with the
    fewest populations."""
    state = make_map_state(
        {"ann": {"B2": {"agriculture": 5}, "C1": {"agriculture": 1}, "A2": {"labor": 2}}},
        cities={"ann": {"B2": "Giza"}},
    )
    population.increase(scripted_turn(state, "ann", dice={"increase": [6]}))
    settle(state)
    assert [spot(state, n).population for n in ("B2", "C1", "A2")] == [5, 4, 3]
    assert spot(state, "C1").pops["agriculture"] == 4
    assert (spot(state, "A2").pops["agriculture"], spot(state, "A2").pops["labor"]) == (1, 2)


def test_disaster_losses_come_from_as_few_spaces_as_possible() -> None:
    """Map Version: "Populations destroyed by Disaster are removed from as few spaces as
    possible." The losses by category are those of the game without a map; each category's
    loss is taken from the territory with the most of it first."""
    state = make_map_state(
        {
            "ann": {
                "B2": {"agriculture": 6, "labor": 2},
                "C1": {"agriculture": 3},
                "A2": {"labor": 2},
            }
        }
    )
    turn = scripted_turn(state, "ann", dice={"disaster": [1, 2, 4]})  # Earthquake 1D6: 4
    nature.disaster(turn)
    settle(state)
    assert state.seat("ann").pops["agriculture"] == 5  # as without a map: largest category
    assert spot(state, "B2").pops["agriculture"] == 2
    assert spot(state, "C1").pops["agriculture"] == 3
    assert (spot(state, "B2").pops["labor"], spot(state, "A2").pops["labor"]) == (2, 2)


def test_a_change_of_category_stays_in_its_territory() -> None:
    """Population Distribution Phase with the map: "Assign Populations to one of the five
    specialty categories" - project decision: they change category where they stand, in the
    territory named by IN, else in the territories with the most of the category."""
    state = make_map_state({"ann": {"B2": {"agriculture": 6}, "C1": {"agriculture": 2}}}, gold=5)
    turn = scripted_turn(
        state, "ann", "MOVE 2 AGRICULTURE TO ARMY IN C1\nMOVE 3 AGRICULTURE TO LABOR"
    )
    population.distribution(turn)
    settle(state)
    assert spot(state, "C1").pops["army"] == 2 and spot(state, "C1").pops["agriculture"] == 0
    assert spot(state, "B2").pops["labor"] == 3 and spot(state, "B2").pops["agriculture"] == 3
    assert state.seat("ann").pops["army"] == 2 and state.seat("ann").gold == 3


def test_a_change_of_category_in_a_territory_needs_the_populations_there() -> None:
    """Population Distribution Phase: the populations moved are there to move."""
    state = make_map_state({"ann": {"B2": {"agriculture": 6}, "C1": {"agriculture": 2}}})
    [problem] = problems(state, "ann", "MOVE 3 AGRICULTURE TO LABOR IN C1")
    assert problem.message == "C1 has 2 Agriculture populations, not 3"
    [problem] = problems(state, "ann", "MOVE 1 AGRICULTURE TO LABOR IN D1")
    assert problem.message == "D1 is not yours"


def test_the_move_limit_of_6_a_category_still_applies() -> None:
    """Population Distribution Phase: "A single category cannot be increased or decreased by
    more than 6 Populations." - on the map as without one, over all territories."""
    state = make_map_state({"ann": {"B2": {"agriculture": 6}, "C1": {"agriculture": 6}}})
    [problem] = problems(
        state, "ann", "MOVE 4 AGRICULTURE TO LABOR IN B2\nMOVE 3 AGRICULTURE TO LABOR IN C1"
    )
    assert problem.rule == RULES["distribution"]


def test_one_city_per_territory() -> None:
    """Map Version: "One City per territory. One Wonder per City." """
    state = make_map_state(
        {"ann": {"B2": {"labor": 6}, "C1": {"agriculture": 1}}},
        cities={"ann": {"B2": "Giza"}},
    )
    [problem] = problems(state, "ann", "BUILD CITY Memphis IN B2")
    assert (problem.kind, problem.rule) == (ProblemKind.ILLEGAL, RULES["one_city"])
    [problem] = problems(state, "ann", "BUILD CITY Memphis IN C1\nBUILD CITY Tanis IN C1")
    assert problem.message == "C1 already has a city"
    full = make_map_state({"ann": {"B2": {"labor": 6}}}, cities={"ann": {"B2": "Giza"}})
    [problem] = problems(full, "ann", "BUILD CITY")
    assert problem.message == "every territory of yours already has a city"


def test_a_new_city_stands_in_the_territory_named() -> None:
    """Build Phase: "Build 1 City for 50 Labor and 25 Gold. Name the City." - on the map in the
    territory named, or the territory of yours without a city with the most populations."""
    state = make_map_state(
        {"ann": {"B2": {"labor": 50}, "C1": {"agriculture": 1}, "A2": {"agriculture": 2}}},
        cities={"ann": {"B2": "Giza"}},
        gold=60,
    )
    turn = scripted_turn(state, "ann", "BUILD CITY Memphis IN C1")
    economy.build(turn)
    assert spot(state, "C1").city == "Memphis"
    assert "ann founds the city of Memphis in C1" in texts(turn)[-1]
    state.seat("ann").pops["labor"] = 50
    economy.build(scripted_turn(state, "ann", "BUILD CITY Tanis"))
    assert spot(state, "A2").city == "Tanis"


def test_a_city_without_a_free_territory_waits() -> None:
    """Map Version: "One City per territory." - project decision: a city whose labor and gold
    are in waits for a territory of yours without a city."""
    state = make_map_state(
        {"ann": {"B2": {"labor": 50}, "C1": {"agriculture": 1}}},
        cities={"ann": {"B2": "Giza"}},
        gold=60,
    )
    turn = scripted_turn(state, "ann", "BUILD CITY Memphis IN C1")
    spot(state, "C1").city = "Tanis"
    state.seat("ann").cities.append(type(state.seat("ann").cities[0])("Tanis"))
    economy.build(turn)
    assert state.seat("ann").projects[0].labor == 50
    assert "waits for a territory of yours without a city" in texts(turn)[-1]


def test_a_lost_city_leaves_the_map() -> None:
    """Disaster Table: "3 Volcano Lose 1 City." - on the map its territory keeps its
    populations and loses the city."""
    state = make_map_state({"ann": {"B2": {"agriculture": 4}}}, cities={"ann": {"B2": "Giza"}})
    nature.disaster(scripted_turn(state, "ann", dice={"disaster": [1, 3, 1]}))
    settle(state)
    assert (spot(state, "B2").city, spot(state, "B2").owner) == ("", "ann")


def test_new_leaders_stand_at_home() -> None:
    """Map Version: "Tokens representing Cities, Leaders, wonders, and Population specialties
    are required." - project decision: a new leader stands in the territory of the culture's
    first city still held."""
    state = make_map_state(
        {"ann": {"B2": {"agriculture": 4}, "C1": {"agriculture": 9}}},
        cities={"ann": {"B2": "Giza"}},
    )
    population.gain_leader(scripted_turn(state, "ann", dice={"leader": [1, 2, 3]}))
    settle(state)
    assert spot(state, "B2").leaders == ["Hannibal"]


def test_a_territory_with_no_token_is_nobodys(monkeypatch: pytest.MonkeyPatch) -> None:
    """Map Version: "Take control of all tokens in that territory" - project decision: a seat
    controls a territory while a token of its is there; a city alone keeps it."""
    state = make_map_state(
        {"ann": {"B2": {"agriculture": 6}, "C1": {"agriculture": 2}}},
        cities={"ann": {"B2": "Giza"}},
    )
    patch_dice(monkeypatch)
    after, _ = play(state, {"ann": "MOVE 2 AGRICULTURE C1 TO B1\nMOVE 6 AGRICULTURE B2 TO A2"})
    assert (spot(after, "C1").owner, spot(after, "B1").owner) == ("", "ann")
    assert spot(after, "B2").owner == "ann" and spot(after, "B2").population == 0


def test_referee_edits_of_territories() -> None:
    state = make_map_state(
        {"ann": {"B2": {"agriculture": 6}}, "bob": {"D1": {"army": 2}}},
        cities={"ann": {"B2": "Giza"}},
    )
    data = RULESET.edit(state.to_json(), "territory.d1.army", "5")
    data = RULESET.edit(data, "territory.B2.owner", "bob")
    after = GameState.from_json(data)
    assert after.seat("bob").pops["army"] == 5 and after.seat("bob").pops["agriculture"] == 6
    assert [c.name for c in after.seat("bob").cities] == ["Giza"]
    with pytest.raises(EditError, match="no land territory"):
        RULESET.edit(data, "territory.C3.owner", "ann")
    with pytest.raises(EditError, match="no map"):
        RULESET.edit(RULESET.new_game(SEATS, {}, 1), "territory.C3.owner", "ann")


def test_a_referee_edit_of_an_empty_territory_is_refused_or_done_not_undone() -> None:
    """issue 13: territory.<T>.owner on an empty territory was accepted and then silently
    undone (the map drops the owner of an empty territory). It is refused with the way to do
    it, and territory.<T>.<category> = <n> <seat> gives an empty territory populations."""
    state = make_map_state({"ann": {"B2": {"agriculture": 6}}}, cities={"ann": {"B2": "Giza"}})
    assert spot(state, "C1").empty() and not spot(state, "C1").owner
    with pytest.raises(EditError, match=r"C1 is empty.*territory\.C1\.<category> = <n> <seat>"):
        RULESET.edit(state.to_json(), "territory.C1.owner", "ann")
    with pytest.raises(EditError, match="C1 is nobody's"):
        RULESET.edit(state.to_json(), "territory.C1.army", "2")
    after = GameState.from_json(RULESET.edit(state.to_json(), "territory.C1.army", "2 ann"))
    assert spot(after, "C1").owner == "ann" and spot(after, "C1").pops["army"] == 2
    assert after.seat("ann").pops["army"] == 2


def test_the_text_map_shows_holders_populations_cities_and_armies() -> None:
    """The report's map in the map version: every space with its holder, populations, city
    and Armies, a legend, the territories and the tableau of the game without a map."""
    state = make_map_state(
        {"ann": {"B2": {"agriculture": 6, "army": 3}}, "bob": {"D1": {"army": 12}}},
        cities={"ann": {"B2": "Giza"}, "bob": {"D1": "Rome"}},
        leaders={"ann": [("Caesar", "General", "B2")]},
    )
    text = RULESET.render_map(state.to_json(), "ann")
    lines = text.splitlines()
    assert lines[2].split() == ["A", "B", "C", "D", "E", "F", "G"]
    assert lines[3].split() == ["1", ".", ".", ".", "B12C", ".", "~~~~~", "~~~~~", "1"]
    assert lines[5].split() == ["2", ".", "*9C", ".", "~~~~~", "~~~~~", "~~~~~", ".", "2"]
    assert lines[6].split() == ["a3L", "~~~~~", "~~~~~", "~~~~~"]
    assert "  B2~ Giza: Ar3 Ag6; Caesar" in lines
    assert "A ann * - Egyptian" in text  # the tableau follows
    assert all(len(line) <= 72 for line in lines)
    assert "Land" in RULESET.public_summary(state.to_json())
    assert "Territories (1; ~ coastal):" in RULESET.holdings(state.to_json(), "ann")
    assert (
        RULESET.parse_orders(
            state.to_json(), "ann", RULESET.order_template(state.to_json(), "ann")
        ).problems
        == []
    )
    assert "MOVE LEADER <name> TO <territory>" in RULESET.order_help()
