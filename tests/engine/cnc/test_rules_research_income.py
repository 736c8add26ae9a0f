"""Rule-by-rule tests: Research Phase and Income Phase."""

from __future__ import annotations

import pytest

from engine.rulesets.culture_and_conquest import economy
from engine.rulesets.culture_and_conquest.model import ADVANCES, City

from .support import make_state, scripted_turn, texts


@pytest.mark.parametrize(("dice", "found"), [([5, 5], 0), ([5, 6], 1), ([6, 6], 1), ([4, 6], 0)])
def test_2d6_per_scholar_11_or_12_gains_an_advance(dice: list[int], found: int) -> None:
    """Research Phase: "Roll 2D6 per scholar ... On a roll of 11 or 12 gain one random
    Advance." """
    state = make_state(pops={"ann": {"scholars": 1}})
    turn = scripted_turn(state, "ann", dice={"research": dice, "advance:0": [4]})
    economy.research(turn)
    assert state.seat("ann").advances == ["Literacy"][:found]


def test_thinkers_and_research_advances_and_the_great_library_add_rolls() -> None:
    """Research Phase: "Roll 2D6 per scholar, thinker, or research generator you have."
    Astronomy, Literacy, Mathematics: "Research: 1 additional roll per turn"; Great Library:
    "1 additional Research roll per turn"; Thinker: "Research: 1 additional roll" """
    state = make_state(
        pops={"ann": {"scholars": 1}},
        advances={"ann": ["Astronomy", "Literacy", "Mathematics"]},
        leaders={"ann": [("Plato", "Thinker")]},
    )
    state.seat("ann").cities[0].wonder = "Great Library"
    turn = scripted_turn(state, "ann", dice={"research": [1] * 12})
    economy.research(turn)
    assert texts(turn)[0].startswith(
        "Research: 6 rolls (1 scholar, 1 Thinker, 1 Astronomy, 1 Literacy, 1 Mathematics, "
        "1 Great Library)"
    )


def test_scholars_count_only_1_per_city() -> None:
    """Population Distribution table: "Scholars ... 1 Research Roll, 1 per City" """
    state = make_state(pops={"ann": {"scholars": 3}}, cities={"ann": ["Giza", "Ur"]})
    turn = scripted_turn(state, "ann", dice={"research": [1] * 4})
    economy.research(turn)
    assert texts(turn)[0].startswith("Research: 2 rolls (2 scholar)")


def test_the_random_advance_is_rerolled_while_known() -> None:
    """Advance Table: "D20 Roll Advance" - a random Advance; project decision: a known one is
    rolled again."""
    state = make_state(pops={"ann": {"scholars": 1}}, advances={"ann": ["Pottery", "Religion"]})
    turn = scripted_turn(state, "ann", dice={"research": [6, 6], "advance:0": [1, 2, 20]})
    economy.research(turn)
    assert state.seat("ann").advances[-1] == "Equestrian"
    assert "(rerolled known: [1, 2])" in texts(turn)[1]


def test_nothing_to_gain_when_every_advance_is_known() -> None:
    """Advance Table: twenty advances; project decision: a discovery with all twenty known
    gains nothing."""
    state = make_state(pops={"ann": {"scholars": 1}}, advances={"ann": list(ADVANCES)})
    turn = scripted_turn(state, "ann", dice={"research": [6, 6] + [1] * 6})
    economy.research(turn)
    assert texts(turn)[1] == "Research: every advance is already known."


def test_gold_1_per_trade_population_and_per_city() -> None:
    """Income Phase: "Collect Gold: 1 per Trade Population and 1 per City." """
    state = make_state(pops={"ann": {"trade": 4}}, cities={"ann": ["Giza", "Ur"]}, gold=1)
    turn = scripted_turn(state, "ann")
    economy.income(turn)
    assert state.seat("ann").gold == 7
    assert texts(turn) == ["Income: 6 gold (4 trade, 2 from cities); gold now 7."]


@pytest.mark.parametrize("advances", [["Coinage"], ["Navigation"], ["Coinage", "Navigation"]])
def test_coinage_and_navigation_add_1_gold_per_city(advances: list[str]) -> None:
    """Advance Table: "6 Coinage Gold +1 per City per turn; 19 Navigation Gold +1 per City per
    turn" """
    state = make_state(cities={"ann": ["Giza", "Ur"]}, advances={"ann": advances})
    economy.income(scripted_turn(state, "ann"))
    assert state.seat("ann").gold == 2 + 2 * len(advances)


def test_a_ruler_and_the_colossus_add_1d6_gold() -> None:
    """Leaders: "1 Ruler Gold: +1D6 per turn"; Wonder Table: "Colossus Metal Working Gold
    +1D6" """
    state = make_state(leaders={"ann": [("Solomon", "Ruler")]})
    state.seat("ann").cities = [City("Giza", "Colossus")]
    turn = scripted_turn(state, "ann", dice={"income": [4, 6]})
    economy.income(turn)
    assert state.seat("ann").gold == 11
    assert texts(turn) == [
        "Income: 11 gold (0 trade, 1 from cities, 4 Solomon, 6 Colossus); gold now 11."
    ]
