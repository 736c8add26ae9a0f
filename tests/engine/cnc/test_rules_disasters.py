"""Rule-by-rule tests: Disaster Check Phase, Disasters and the Disaster Table."""

from __future__ import annotations

from typing import Any

import pytest

from engine.rulesets.culture_and_conquest import nature
from engine.rulesets.culture_and_conquest.model import DISASTERS, City, GameState, Leader, Support

from .support import make_state, patch_dice, play, scripted_turn, texts

PEOPLE = {"ann": {"agriculture": 10, "labor": 10}}


def _strike(table: int, more: list[int], **kwargs: Any) -> tuple[GameState, list[str]]:
    state = make_state(pops=PEOPLE, **kwargs)
    turn = scripted_turn(state, "ann", dice={"disaster": [1, table, *more]})
    nature.disaster(turn)
    assert turn.unused() == {}
    return state, texts(turn)


@pytest.mark.parametrize("roll", [2, 3, 4, 5, 6])
def test_no_disaster_unless_a_1(roll: int) -> None:
    """Disaster Check Phase: "On a roll of 1 on D6 suffer from one random Disaster." """
    state = make_state(pops=PEOPLE)
    turn = scripted_turn(state, "ann", dice={"disaster": [roll]})
    nature.disaster(turn)
    assert turn.disaster == ""
    assert texts(turn) == [f"Disaster check: rolled {roll}, no disaster."]


@pytest.mark.parametrize(
    ("table", "name", "dice", "lost"),
    [
        (1, "Flood", [3, 4], 7),
        (2, "Earthquake", [5], 5),
        (7, "Heresy", [4], 4),
        (8, "Anarchy", [2], 2),
        (9, "Epidemic", [6, 6, 6], 18),
        (14, "Hurricane", [3], 3),
        (17, "Pestilence", [1, 2], 3),
        (18, "Unrest", [6], 6),
        (19, "Unrest", [1], 1),
        (20, "Unrest", [2], 2),
    ],
)
def test_population_disasters(table: int, name: str, dice: list[int], lost: int) -> None:
    """Disaster Table: "1 Flood 2D6; 2 Earthquake 1D6; 7 Heresy 1D6; 8 Anarchy 1D6; 9 Epidemic
    3D6; 14 Hurricane 1D6; 17 Pestilence 2D6; 18-20 Unrest 1D6" """
    state, lines = _strike(table, dice)
    assert DISASTERS[table - 1] == name
    assert state.seat("ann").population == 20 - lost
    assert lines[0].startswith(f"Disaster check: rolled 1; d20 {table}: {name}!")


def test_heresy_uses_2d6_with_religion() -> None:
    """Disaster Table: "7 Heresy 1D6. Use 2D6 if you have religion." """
    state, _lines = _strike(7, [3, 4], advances={"ann": ["Religion"]})
    assert state.seat("ann").population == 13


@pytest.mark.parametrize(
    ("table", "dice", "mitigator", "lost"),
    [
        (1, [3, 4], "Engineering", 3),
        (14, [5], "Engineering", 2),
        (2, [5], "Architecture", 2),
        (9, [6, 6, 5], "Medicine", 8),
        (17, [1, 2], "Medicine", 1),
        (7, [3], "Philosophy", 1),
        (8, [5], "Art and Sculpture", 2),
        (18, [5], "Music", 2),
        (19, [4], "Drama and Poetry", 2),
        (20, [1], "Music", 0),
    ],
)
def test_a_mitigating_advance_halves_the_loss_rounding_down(
    table: int, dice: list[int], mitigator: str, lost: int
) -> None:
    """Disasters: "If a Culture has a mitigating attribute, the Disaster causes half as much
    Population loss. Round fractions down." """
    state, lines = _strike(table, dice, advances={"ann": [mitigator]})
    assert state.seat("ann").population == 20 - lost
    assert f"halved by {mitigator}" in lines[1]


@pytest.mark.parametrize(
    ("table", "wonder", "dice", "lost"),
    [(14, "Lighthouse", [5], 2), (8, "Pyramids", [3], 1), (18, "Oracle", [6], 3)],
)
def test_a_mitigating_wonder_halves_the_loss(
    table: int, wonder: str, dice: list[int], lost: int
) -> None:
    """Wonder Table: "Lighthouse ... Mitigates Hurricanes; Pyramids ... Mitigates Anarchy;
    Oracle ... Mitigates Unrest" """
    state = make_state(pops=PEOPLE)
    state.seat("ann").cities = [City("Giza", wonder)]
    turn = scripted_turn(state, "ann", dice={"disaster": [1, table, *dice]})
    nature.disaster(turn)
    assert state.seat("ann").population == 20 - lost


def test_volcano_loses_a_random_city() -> None:
    """Disaster Table: "3 Volcano Lose 1 City. Choose it randomly." """
    state = make_state(pops=PEOPLE, cities={"ann": ["Giza", "Thebes", "Ur"]})
    state.seat("ann").cities[1].wonder = "Oracle"
    state.seat("ann").wonders_built = ["Oracle"]
    turn = scripted_turn(state, "ann", dice={"disaster": [1, 3, 2]})
    nature.disaster(turn)
    assert [c.name for c in state.seat("ann").cities] == ["Giza", "Ur"]
    assert state.wonders_lost == ["Oracle"]
    assert texts(turn)[1] == "Volcano: the city of Thebes and its Oracle is lost."


def test_pirates_take_half_the_gold_rounded_up() -> None:
    """Disaster Table: "4 Pirates Lose half of your Gold reserve"; "Round all losses up." """
    state, _ = _strike(4, [], gold=7)
    assert state.seat("ann").gold == 3


@pytest.mark.parametrize("table", [10, 13])
def test_famine_and_drought_take_half_the_food_rounded_up(table: int) -> None:
    """Disaster Table: "10 Famine Lose half of your Food reserve; 13 Drought Lose half of your
    Food reserve"; "Round all losses up." """
    state, _ = _strike(table, [], food=9)
    assert state.seat("ann").food == 4


@pytest.mark.parametrize("table", [10, 13])
def test_pottery_mitigates_famine_and_drought(table: int) -> None:
    """Advance Table: "1 Pottery Mitigates Famine and Drought" - half of the loss, rounded
    down: of 9 food, half (5, rounded up) halved (2)."""
    state, _ = _strike(table, [], food=9, advances={"ann": ["Pottery"]})
    assert state.seat("ann").food == 7


def test_corruption_loses_all_gold() -> None:
    """Disaster Table: "12 Corruption Lose all Gold" """
    state, _ = _strike(12, [], gold=9)
    assert state.seat("ann").gold == 0


@pytest.mark.parametrize("mitigator", ["Law", "Parthenon"])
def test_law_and_the_parthenon_mitigate_corruption(mitigator: str) -> None:
    """Advance Table: "10 Law Mitigates Corruption"; Wonder Table: "Parthenon ... Mitigates
    Corruption" """
    state = make_state(pops=PEOPLE, gold=9, advances={"ann": ["Law"] if mitigator == "Law" else []})
    if mitigator == "Parthenon":
        state.seat("ann").cities[0].wonder = "Parthenon"
    nature.disaster(scripted_turn(state, "ann", dice={"disaster": [1, 12]}))
    assert state.seat("ann").gold == 5


def test_sands_of_time_lose_a_random_wonder() -> None:
    """Disaster Table: "15 Sands of Time Lose 1 Wonder. Choose randomly" """
    state = make_state(pops=PEOPLE, cities={"ann": ["Giza", "Thebes"]})
    state.seat("ann").cities[0].wonder = "Sphinx"
    state.seat("ann").cities[1].wonder = "Oracle"
    state.seat("ann").wonders_built = ["Sphinx", "Oracle"]
    turn = scripted_turn(state, "ann", dice={"disaster": [1, 15, 2]})
    nature.disaster(turn)
    assert state.seat("ann").wonders() == ["Sphinx"]
    assert state.seat("ann").wonders_built == ["Sphinx", "Oracle"]  # still counts for victory


def test_mad_king_loses_a_random_leader() -> None:
    """Disaster Table: "16 Mad King Lose 1 Leader. Choose randomly" """
    leaders = {"ann": [("Cheops", "Builder"), ("Homer", "Thinker")]}
    state = make_state(pops=PEOPLE, leaders=leaders)
    nature.disaster(scripted_turn(state, "ann", dice={"disaster": [1, 16, 1]}))
    assert state.seat("ann").leaders == [Leader("Homer", "Thinker")]


def test_democracy_mitigates_mad_king_to_nothing() -> None:
    """Advance Table: "12 Democracy Mitigates Civil War and Mad King" - half of one leader,
    rounded down, is none."""
    state = make_state(pops=PEOPLE, advances={"ann": ["Democracy"]})
    state.seat("ann").leaders = [Leader("Homer", "Thinker")]
    nature.disaster(scripted_turn(state, "ann", dice={"disaster": [1, 16]}))
    assert len(state.seat("ann").leaders) == 1


def test_barbarians_attack_with_1d6_armies_and_take_all_gold_if_they_win() -> None:
    """Disaster Table: "5 Barbarians War: Attacked by 1D6 Armies. They will take all of your
    Gold if they win." Fought as a war: segments of 3 dice a side."""
    state = make_state(pops={"ann": {"army": 1, "agriculture": 5}}, gold=8)
    # 2 barbarian armies; at most 3 segments; s1: barbarians [1 5 5], ann [4 4 4]
    turn = scripted_turn(state, "ann", dice={"disaster": [1, 5, 2, 3, 1, 5, 5, 4, 4, 4]})
    nature.disaster(turn)
    assert (state.seat("ann").army, state.seat("ann").gold) == (0, 0)
    assert texts(turn)[2] == "Barbarians: the Barbarians take all 8 gold."


def test_barbarians_beaten_take_nothing() -> None:
    """Disaster Table: Barbarians take the gold only "if they win"."""
    state = make_state(pops={"ann": {"army": 3, "agriculture": 5}}, gold=8)
    turn = scripted_turn(state, "ann", dice={"disaster": [1, 5, 1, 3, 5, 5, 5, 1, 4, 4]})
    nature.disaster(turn)
    assert (state.seat("ann").army, state.seat("ann").gold) == (3, 8)
    assert "the invaders are destroyed" in texts(turn)[1]


def test_civil_war_takes_a_random_city_if_it_wins() -> None:
    """Disaster Table: "6 Civil War War: Attacked by 1D6 Armies. They will take a City if they
    win. Choose it randomly." """
    state = make_state(pops={"ann": {"agriculture": 5}}, cities={"ann": ["Giza", "Ur"]})
    turn = scripted_turn(state, "ann", dice={"disaster": [1, 6, 4, 2, 2]})
    nature.disaster(turn)
    assert [c.name for c in state.seat("ann").cities] == ["Giza"]


def test_democracy_halves_the_civil_war_armies() -> None:
    """Advance Table: "12 Democracy Mitigates Civil War" - project decision: half the Armies
    (rounded down) rise; 1 halved is none, and there is no war."""
    state = make_state(pops={"ann": {"agriculture": 5}}, advances={"ann": ["Democracy"]})
    turn = scripted_turn(state, "ann", dice={"disaster": [1, 6, 1]})
    nature.disaster(turn)
    assert len(state.seat("ann").cities) == 1
    assert texts(turn)[1] == "Civil War: 1 Army rise, halved by Democracy to 0; no war."


def test_uprising_takes_2d6_populations_if_it_wins() -> None:
    """Disaster Table: "11 Uprising War: Attacked by 1D6 Armies. They will take 2D6
    Populations if they win." """
    state = make_state(pops=PEOPLE)
    turn = scripted_turn(state, "ann", dice={"disaster": [1, 11, 3, 4, 3, 5]})
    nature.disaster(turn)
    assert state.seat("ann").population == 12


def test_hanging_gardens_mitigate_uprising() -> None:
    """Wonder Table: "Hanging Gardens Irrigation Mitigates Uprising" """
    state = make_state(pops=PEOPLE)
    state.seat("ann").cities[0].wonder = "Hanging Gardens"
    turn = scripted_turn(state, "ann", dice={"disaster": [1, 11, 5, 6, 2, 2]})
    nature.disaster(turn)
    assert "halved by Hanging Gardens to 2" in texts(turn)[1]
    assert state.seat("ann").population == 16


def test_a_disaster_skips_the_build_and_war_phases(monkeypatch: pytest.MonkeyPatch) -> None:
    """Disasters: "If a Culture experiences a Disaster it skips its build phase and War
    phase." """
    state = make_state(pops={"ann": {"army": 2, "labor": 5, "agriculture": 5}, "bob": {}})
    state.seat("ann").food = 30
    state.seat("ann").gold = 10
    patch_dice(monkeypatch, {("ann", "disaster"): [1, 4]})
    after, resolution = play(state, {"ann": "ATTACK bob\nBUILD CITY"})
    assert after.seat("ann").projects == []
    assert [r.note for r in resolution.results["ann"]] == [
        "no war phase after the Pirates",
        "no build phase after the Pirates",
    ]


def test_a_disaster_war_is_fought_alone() -> None:
    """War Phase: "Other Players may send Army and Generals to serve on either side" - project
    decision: in the War phase only; a culture fights a disaster's army alone, with its own
    bonuses."""
    state = make_state(
        pops={"ann": {"army": 2, "agriculture": 5}, "bob": {"army": 5}},
        advances={"ann": ["Equestrian"]},
        leaders={"bob": [("Caesar", "General")]},
    )
    state.seat("bob").standing.supports = [Support("ann", 5, True)]
    turn = scripted_turn(state, "ann", dice={"disaster": [1, 5, 1, 1, 5, 5, 5, 5, 5, 5, 5]})
    nature.disaster(turn)
    assert "attack ann 2 (4 dice +Equestrian)" in texts(turn)[1]
    assert state.seat("bob").army == 5
