"""Rule-by-rule tests: Disaster Phase and the disaster chart."""

from __future__ import annotations

import pytest

from engine.rulesets.temples_and_swords import nature, war
from engine.rulesets.temples_and_swords.model import GameState
from engine.rulesets.temples_and_swords.render import holdings

from .support import codes, make_state, patch_dice, play, scripted_turn, texts

TERRAIN = ["ggggg", "ggggg", "ddddd", "ddddd"]


def lands() -> GameState:
    """ann: grassland A1 (city, road, temple), B1 and C1; desert A3 and B3."""
    return make_state(
        TERRAIN,
        hexes={
            "A1": ("ann", 6, ["city", "road", "temple"]),
            "B1": ("ann", 5, []),
            "C1": ("ann", 4, []),
            "A3": ("ann", 3, []),
            "B3": ("ann", 3, []),
            "E4": ("bob", 3, ["city"]),
        },
        gold=10,
    )


def pops(state: GameState) -> dict[str, int]:
    return {name: here.pop for name, here in sorted(state.hexes.items())}


def strike(state: GameState, dice: list[int]) -> list[str]:
    turn = scripted_turn(state, "ann", dice={"disaster": dice})
    nature.disaster(turn)
    assert turn.unused() == {}
    return codes(turn)


@pytest.mark.parametrize("check", [2, 3, 4, 5, 6])
def test_no_disaster_unless_the_check_rolls_a_one(check: int) -> None:
    """Disaster Phase: "Roll 1d6. If 1 roll once on the Disaster chart and apply results" """
    state = lands()
    before = state.to_json()
    assert strike(state, [check]) == ["disaster_check"]
    assert state.to_json() == before


def test_flood_a_random_grassland_hex_loses_1d6_populations() -> None:
    """Disaster chart: "1 Flood: 1 Random Grasslands hex loses 1d6 populations" """
    state = lands()
    assert strike(state, [1, 1, 2, 4]) == ["disaster", "population_lost"]
    assert pops(state) == {"A1": 6, "A3": 3, "B1": 1, "B3": 3, "C1": 4, "E4": 3}


def test_flood_strikes_only_grassland() -> None:
    """Disaster chart: "1 Flood: 1 Random Grasslands hex" - a seat without populated
    grassland loses nothing."""
    state = make_state(TERRAIN, hexes={"A3": ("ann", 3, ["city"])})
    assert strike(state, [1, 1]) == ["disaster", "disaster_nothing"]
    assert state.hexes["A3"].pop == 3


def test_a_hex_emptied_by_a_disaster_is_no_longer_held() -> None:
    """Disaster chart: "loses 1d6 populations" - a hex left with no population and no project
    is nobody's (seat_turn.release_if_empty)."""
    state = lands()
    strike(state, [1, 1, 3, 6])
    assert "C1" not in state.to_json()["hexes"]


def test_earthquake_a_city_loses_1d3_populations_and_all_improvements() -> None:
    """Disaster chart: "2 Earthquake: 1 Random City hex loses 1d3 populations and all
    improvements in the city." (Decision 52, docs/rules/temples-and-swords.md: the city itself
    stands.)"""
    state = lands()
    state.hexes["A1"].progress = {"library": 3}
    assert strike(state, [1, 2, 1, 2]) == ["disaster", "population_lost", "improvements_lost"]
    here = state.hexes["A1"]
    assert (here.pop, here.projects, here.progress) == (4, ["city"], {})


def test_earthquake_strikes_only_city_hexes() -> None:
    """Disaster chart: "2 Earthquake: 1 Random City hex" """
    state = make_state(TERRAIN, hexes={"A1": ("ann", 3, ["road"])})
    assert strike(state, [1, 2]) == ["disaster", "disaster_nothing"]
    assert state.hexes["A1"].projects == ["road"]


def test_disease_strikes_for_three_turns() -> None:
    """Disaster chart: "3 Disease: 1 Random Grasslands hex loses 1d3 populations for the next
    three turns" - now and in the seat's next two disaster phases (three strikes in all)."""
    state = lands()
    assert strike(state, [1, 3, 1, 2]) == ["disaster", "population_lost"]
    assert (state.hexes["A1"].pop, state.hexes["A1"].disease) == (4, 2)
    for roll, pop, left in ((1, 3, 1), (3, 0, 0)):
        turn = scripted_turn(state, "ann", dice={"disease": [roll], "disaster": [6]})
        nature.disaster(turn)
        assert codes(turn) == ["population_lost", "disaster_check"]
        assert (state.hexes["A1"].pop, state.hexes["A1"].disease) == (pop, left)
    turn = scripted_turn(state, "ann", dice={"disaster": [6]})
    nature.disaster(turn)
    assert codes(turn) == ["disaster_check"]
    assert state.hexes["A1"].projects == ["city", "road", "temple"]


def test_drought_two_random_grassland_hexes_lose_1d3_populations() -> None:
    """Disaster chart: "4 Drought: 2 Random Grasslands hexes lose 1d3 populations" """
    state = lands()
    assert strike(state, [1, 4, 3, 1, 2, 3]) == ["disaster", "population_lost", "population_lost"]
    assert pops(state) == {"A1": 3, "A3": 3, "B1": 5, "B3": 3, "C1": 2, "E4": 3}


def test_famine_two_random_desert_hexes_lose_1d3_populations() -> None:
    """Disaster chart: "5 Famine: 2 Random Desert hexes lose 1d3 populations" """
    state = lands()
    assert strike(state, [1, 5, 2, 1, 1, 3]) == ["disaster", "population_lost", "population_lost"]
    assert pops(state) == {"A1": 6, "A3": 0, "B1": 5, "B3": 2, "C1": 4, "E4": 3}


def test_famine_with_one_desert_hex_strikes_it_once() -> None:
    """Disaster chart: "5 Famine: 2 Random Desert hexes" - distinct hexes, as many as there
    are."""
    state = make_state(TERRAIN, hexes={"A1": ("ann", 3, ["city"]), "A3": ("ann", 3, [])})
    assert strike(state, [1, 5, 1, 2]) == ["disaster", "population_lost"]
    assert state.hexes["A3"].pop == 1


def test_warbands_1d6_soldiers_come_next_turn() -> None:
    """Disaster chart: "6 Warbands: 1d6 Soldiers attack random border hex next turn" """
    state = lands()
    assert strike(state, [1, 6, 4]) == ["disaster", "warband_coming"]
    assert state.seat("ann").warband == 4
    assert pops(state) == {"A1": 6, "A3": 3, "B1": 5, "B3": 3, "C1": 4, "E4": 3}


def test_warbands_win_destroy_the_hex_and_take_1d6_gold() -> None:
    """Disaster chart: "6 Warbands: ... If you are defeated, all populations and projects are
    destroyed and lose 1d6 gold." """
    state = make_state(TERRAIN, hexes={"A1": ("ann", 6, ["city", "road", "temple"])}, gold=10)
    state.hexes["A1"].progress = {"walls": 1}
    state.seat("ann").warband = 3
    turn = scripted_turn(state, "ann", dice={"warband": [1, 4]})
    war.war(turn)
    assert state.seat("ann").gold == 6
    assert state.seat("ann").warband == 0
    assert "A1" not in state.to_json()["hexes"]
    assert codes(turn) == ["warband"]
    assert turn.unused() == {}


def test_warbands_cannot_take_more_gold_than_there_is() -> None:
    """Disaster chart: "lose 1d6 gold" - down to none."""
    state = make_state(TERRAIN, hexes={"A1": ("ann", 6, ["city"])}, gold=2)
    state.seat("ann").warband = 1
    war.war(scripted_turn(state, "ann", dice={"warband": [1, 5]}))
    assert state.seat("ann").gold == 0


def test_warbands_attack_after_you_move_your_units() -> None:
    """Disaster chart: "6 Warbands: 1d6 Soldiers attack random border hex next turn (after you
    move your units)." - units moved in this turn defend."""
    state = make_state(
        TERRAIN,
        hexes={"A1": ("ann", 6, ["city"])},
        armies={"B1": {"ann": {"soldier": 1}}},
        gold=10,
    )
    state.seat("ann").warband = 1
    turn = scripted_turn(state, "ann", "MOVE B1 A1", dice={"warband": [1, 2, 2, 2, 1, 5, 5]})
    war.war(turn)
    assert codes(turn) == ["move", "warband"]
    assert "The warband is destroyed" in texts(turn)[-1]
    assert (state.hexes["A1"].pop, state.seat("ann").gold) == (6, 10)
    assert state.units("A1", "ann").soldier == 1
    assert turn.unused() == {}


def test_warbands_attack_a_border_hex() -> None:
    """Disaster chart: "attack random border hex" - one of the seat's hexes on the map's edge
    or next to a hex that is not its own; C2, ringed by its own hexes, is not a border hex.
    "If you are defeated ... lose 1d6 gold": the die is shown and in the event's dice (issue
    13: only the amount was), and the news names the seat struck."""
    ring = ["B2", "C1", "C2", "C3", "D1", "D2", "D3"]
    state = make_state(TERRAIN, hexes={name: ("ann", 1, []) for name in ring}, gold=10)
    state.seat("ann").warband = 1
    turn = scripted_turn(state, "ann", dice={"warband": [3, 4]})
    war.war(turn)
    assert texts(turn)[0] == (
        "Warbands: 1 soldier attacks ann's C3. Dice (warband/you): none. The warband wins: C3 "
        "is laid waste and ann loses 1D6 [4] = 4 GP."
    )
    assert state.seat("ann").gold == 10 - 4
    assert "C3" not in state.to_json()["hexes"]
    assert state.hexes["C2"].owner == "ann"


def test_warbands_rolled_in_one_turn_attack_in_the_next(monkeypatch: pytest.MonkeyPatch) -> None:
    """Disaster chart: "6 Warbands: 1d6 Soldiers attack random border hex next turn (after you
    move your units)." - over two whole turns of the seat."""
    state = make_state(
        TERRAIN,
        hexes={"A1": ("ann", 3, ["city"]), "E4": ("bob", 3, ["city"])},
        armies={"B1": {"ann": {"soldier": 2}}},
        gold=10,
    )
    state.hexes["A1"].laborers = 3  # no growth, no migration to think about
    patch_dice(monkeypatch, {("ann", "disaster"): [1, 6, 2]})
    after, resolution = play(state)
    assert after.seat("ann").warband == 2
    assert [e.code for e in resolution.events if e.code.startswith("warband")] == ["warband_coming"]
    assert after.units("B1", "ann").soldier == 2
    patch_dice(monkeypatch, {("ann", "warband"): [1, 1, 5, 5, 1, 1, 5]})
    after, resolution = play(after, {"ann": "MOVE B1 A1"})
    warband = next(e for e in resolution.events if e.code == "warband")
    assert warband.dice == (1, 5, 5, 1, 1, 5)
    assert "The warband is destroyed; ann lost 1 unit." in warband.text
    assert after.seat("ann").warband == 0
    assert after.units("A1", "ann").soldier == 1


def test_a_city_a_flood_leaves_at_population_0_is_explained_in_the_holdings() -> None:
    """Disaster chart: "1 Flood: 1 Random Grasslands hex loses 1d6 populations"; Growth
    Phase: "If any hex has at least as many harvest points than populations, that hex gains
    one population" (none with no people); Victory: "one victory point for each city"; Tax:
    "Each hex containing city - 1 gold". The report says what the empty city still does."""
    state = make_state(["gg", "gg"], hexes={"A1": ("ann", 3, ["city"])})
    assert strike(state, [1, 1, 1, 6]) == ["disaster", "population_lost"]
    assert state.hexes["A1"].owner == "ann"
    text = " ".join(holdings(state, "ann").split())
    assert "A1 grassland: population 0 (0 laborers); city; nobody lives here:" in text
    assert "still gives its VP, its gold and its tech rolls, but no tax" in text
    assert "it cannot grow: only a migrant from a hex of yours next to it" in text
    assert "(MIGRATE <from> A1)" in text
