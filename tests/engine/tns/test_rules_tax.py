"""Rule-by-rule tests: Tax Phase."""

from __future__ import annotations

import pytest

from engine.rulesets.temples_and_swords import economy
from engine.rulesets.temples_and_swords.model import GameState

from .support import make_state, scripted_turn, texts

TERRAIN = ["ggggg", "ggggg", "ddddd", "ddddd"]


def taxed(
    hexes: dict[str, tuple[str, int, list[str]]], laborers: int = 0, **options: object
) -> int:
    state: GameState = make_state(TERRAIN, hexes=hexes, options=dict(options), gold=1)
    for here in state.hexes.values():
        here.laborers = min(laborers, here.pop)
    turn = scripted_turn(state, "ann")
    economy.tax(turn)
    assert texts(turn)[-1].startswith(f"Tax: {state.seat('ann').gold - 1} GP")
    return state.seat("ann").gold - 1


@pytest.mark.parametrize(("pop", "gold"), [(1, 0), (2, 1), (3, 1), (5, 2), (6, 3)])
def test_half_the_basic_population(pop: int, gold: int) -> None:
    """Tax Phase: "Gain gold points equal to half the sum of all your basic populations." """
    assert taxed({"B1": ("ann", pop, [])}) == gold


def test_half_of_the_sum_not_the_sum_of_halves() -> None:
    """Tax Phase: "half the sum of all your basic populations" - summed over all hexes, then
    halved (rounded down once)."""
    assert taxed({"B1": ("ann", 3, []), "D1": ("ann", 3, []), "B3": ("ann", 1, [])}) == 3


def test_laborers_pay_no_tax() -> None:
    """Tax Phase: "half the sum of all your basic populations" - laborers are not basic."""
    assert taxed({"B1": ("ann", 6, [])}, laborers=4) == 1


def test_other_seats_populations_are_not_yours_to_tax() -> None:
    """Tax Phase: "all your basic populations" """
    assert taxed({"B1": ("ann", 2, []), "D1": ("bob", 6, ["city", "road"])}) == 1


@pytest.mark.parametrize(
    ("projects", "gold"),
    [
        (["city"], 1),
        (["road"], 1),
        (["city", "road"], 3),
        (["city", "temple", "walls", "library"], 1),
    ],
)
def test_project_gold(projects: list[str], gold: int) -> None:
    """Tax Phase: "Each hex containing city - 1 gold; Each hex containing road - 1 gold; Each
    hex containing city an road - 3 gold" (temples, walls and libraries give none)."""
    assert taxed({"B1": ("ann", 1, projects)}, laborers=1) == gold


def test_project_gold_is_counted_for_every_hex() -> None:
    """Tax Phase: "Each hex containing ..." - hex by hex."""
    hexes = {
        "A1": ("ann", 1, ["city", "road"]),
        "C1": ("ann", 1, ["road"]),
        "E1": ("ann", 1, ["city"]),
    }
    assert taxed(hexes, laborers=1) == 5


@pytest.mark.parametrize(
    ("projects", "pop", "gold"),
    [
        (["city", "marketplace"], 0, 2),
        (["city", "road", "marketplace"], 0, 6),
        (["city", "road", "marketplace"], 3, 9),
        (["city", "marketplace"], 1, 3),
    ],
)
def test_marketplace_doubles_the_gold_of_its_hex(projects: list[str], pop: int, gold: int) -> None:
    """Tax Phase: "Each hex containing marketplace - double normal gold intake." Coinage:
    "marketplaces ... which double the gold a hex produces" (option marketplace 'hex', the
    default: the population tax of the hex doubles too)."""
    hexes = {"B1": ("ann", max(pop, 1), projects)}
    assert taxed(hexes, laborers=0 if pop else 1) == gold


@pytest.mark.parametrize(
    ("projects", "pop", "gold"),
    [
        (["city", "road", "marketplace"], 3, 7),
        (["city", "marketplace"], 2, 3),
    ],
)
def test_marketplace_doubles_only_project_gold_with_option_projects(
    projects: list[str], pop: int, gold: int
) -> None:
    """Option marketplace 'projects': "what a Marketplace doubles: ... 'projects' only the
    city and road gold"."""
    assert taxed({"B1": ("ann", pop, projects)}, marketplace="projects") == gold


def test_a_marketplace_does_not_double_other_hexes() -> None:
    """Tax Phase: "Each hex containing marketplace - double normal gold intake." - its own hex."""
    hexes = {"A1": ("ann", 2, ["city", "marketplace"]), "C1": ("ann", 2, ["city", "road"])}
    assert taxed(hexes) == (2 * (2 + 2) + (2 + 6)) // 2
