"""The fragment's barracks and blacksmith clauses, one test each (the clause quoted), and the
buildings and upgrades the project added (completions)."""

from __future__ import annotations

import pytest

from engine.rulesets.tribes.upkeep import yields
from tests.engine.tribes.support import codes, game, notes, put, read, run


def test_a_barracks_costs_one_stone_or_wood_and_one_work() -> None:
    """ "Barracks cost one stone or wood plus one work to build." """
    state = game()
    ann = state.seat("ann")
    run(state, {"ann": "BUILD D3 BARRACKS STONE"})
    assert state.places["D3"].has("barracks")
    assert ann.stone == 1  # ann's hexes are plain land: her workers make food and money
    state = game()
    state.seat("ann").wood = state.seat("ann").stone = 0
    problems = read(state, "ann", "BUILD D3 BARRACKS").problems
    assert problems and "one wood or stone" in problems[0].message


def test_the_building_is_built_in_phase_three() -> None:
    """ "The building is built in phase 3." """
    state = game()
    rec = run(state, {"ann": "BUILD D3 BARRACKS"})
    assert [e.phase for e in rec.events if e.code == "build:barracks"] == ["3 Bribes and buildings"]


def test_each_barracks_supports_six_military_removed_in_phase_four() -> None:
    """ "For each barracks a player owns, he may support 6 military units ... In phase 4, a
    player is required to remove military units until he has not exceeded his maximum allowed
    by his barracks. Two barracks will allow for 12 military units" """
    state = game()
    put(state, "C3", "ann", ("barracks",), population=3, melee=9)
    rec = run(state, {})
    unsupported = [e for e in rec.events if e.code == "unsupported" and e.seat == "ann"]
    assert [e.phase for e in unsupported] == ["4 Work and upkeep"]
    assert state.places["C3"].units.melee == 6
    state = game()
    put(state, "C3", "ann", ("barracks",), population=3, melee=7)
    put(state, "D3", "ann", ("barracks",), population=1, melee=5)
    run(state, {})
    assert state.places["C3"].units.melee + state.places["D3"].units.melee == 12


@pytest.mark.parametrize("mage_bonus", [3, 0])
def test_a_barracks_supports_magic_units_too(mage_bonus: int) -> None:
    """ "For each barracks a player owns, he may support 6 military units. Specifically up to
    six melees, ranged, or magic units." A place in a barracks keeps a magic unit as well as a
    melee or a ranged one; no Shrine is needed, whatever the mage bonus."""
    state = game()
    state.options["mage_bonus"] = mage_bonus
    put(state, "C3", "ann", ("barracks",), population=3, melee=2, ranged=1, magic=3)
    rec = run(state, {})
    assert "unsupported" not in codes(rec, "ann")
    assert state.places["C3"].units.magic == 3
    put(state, "C3", "ann", ("barracks",), population=3, magic=8)
    run(state, {})
    assert state.places["C3"].units.magic == 6  # the barracks' six, and no more


def test_a_building_is_owned_only_with_a_unit_in_its_hex() -> None:
    """ "A building is only legally owned by a player if the player has either a military or
    population unit in the hex with the barracks." """
    state = game()
    put(state, "B2", "", ("barracks",))
    put(state, "C3", "ann", (), population=3, melee=6)
    rec = run(state, {})
    assert "unsupported" in codes(rec, "ann")  # the empty barracks in B2 supports no one
    assert state.owned_buildings("ann", "barracks") == 0
    put(state, "B2", "ann", ("barracks",), population=1)  # one population unit is enough
    assert state.owned_buildings("ann", "barracks") == 1


def test_converting_a_population_unit_into_three_military() -> None:
    """ "one population unit that has not spent his work for that turn must be taken from the
    board off of a hex with a barracks, as well as 3 money ... Then any combination of 3
    military units (melee, ranged or magic) may be placed in that same hex." """
    state = game()
    money = state.seat("ann").money
    run(state, {"ann": "CONVERT C3 1 MELEE 1 RANGED 1 MAGIC"})
    units = state.places["C3"].units
    assert (units.population, units.melee, units.ranged) == (2, 4, 1)
    assert state.seat("ann").money <= money - 3 + 3  # 3 paid; at most 3 made in phase 4


def test_a_population_unit_that_worked_is_not_converted() -> None:
    """ "one population unit that has not spent his work for that turn": the work of C3's
    people given to buildings leaves none to convert."""
    state = game()
    put(state, "C3", "ann", ("barracks",), population=1, melee=1)
    problems = read(state, "ann", "BUILD C3 FARM\nCONVERT C3 3 MELEE").problems
    assert [p.line_no for p in problems] == [2]
    assert "no population in C3 has work left" in problems[0].message


def test_less_than_three_money_buys_one_or_two() -> None:
    """ "If a player has less than 3 money in his money supply, he may sacrifice a population
    unit for all of his money, getting a return of one or two military units, pending on
    whether 1 or 2 money was spent." """
    state = game()
    state.seat("ann").money = 2
    assert read(state, "ann", "CONVERT C3 3 MELEE").problems
    run(state, {"ann": "CONVERT C3 2 RANGED"})
    assert state.places["C3"].units.ranged == 2
    state = game()
    state.seat("ann").money = 0
    problems = read(state, "ann", "CONVERT C3 1 MELEE").problems
    assert problems and "no money" in problems[0].message


def test_three_money_must_all_be_spent() -> None:
    """ "If a player has 3 money, then the player must use all three money for military units.
    (Even if doing so would exceed the amount he can support for the barracks. In phase four
    excess military must be removed from play.)" """
    state = game()
    problems = read(state, "ann", "CONVERT C3 2 MELEE").problems
    assert problems and "exactly 3" in problems[0].message
    put(state, "C3", "ann", ("barracks",), population=3, melee=5)
    rec = run(state, {"ann": "CONVERT C3 3 MELEE"})
    assert "unsupported" in codes(rec, "ann")
    assert state.places["C3"].units.melee == 6


def test_new_military_may_use_roads_that_very_turn() -> None:
    """ "Military units may then use roads on that very turn." """
    state = game()
    run(state, {"ann": "CONVERT C3 3 MELEE TO D3"})
    assert state.places["D3"].units.melee == 3
    state = game()
    problems = read(state, "ann", "CONVERT C3 3 MELEE TO C2").problems
    assert problems and "only along roads" in problems[0].message


def test_a_blacksmith_costs_one_wood_or_stone_and_one_work() -> None:
    """ "A blacksmith costs either one wood or stone and one work in the hex the player wants to
    build." """
    state = game()
    wood = state.seat("ann").wood
    rec = run(state, {"ann": "BUILD D3 BLACKSMITH WOOD"})
    assert state.places["D3"].has("blacksmith")
    assert state.seat("ann").wood == wood - 1
    assert notes(rec, "ann") == ["done: built (wood and one work)"]


def test_the_blacksmith_is_required_for_the_melee_upgrades() -> None:
    """ "A blacksmith is required for two upgrades." Completion: Melee I costs 1 ore, Melee II
    2 more; each adds +1 attack and -1 defence to every melee unit ("+1 / +2")."""
    state = game()
    run(state, {"ann": "UPGRADE MELEE"})
    assert state.seat("ann").melee == 1 and state.seat("ann").ore == 1
    problems = read(state, "ann", "UPGRADE MELEE").problems
    assert problems and "costs 2 ore" in problems[0].message
    state = game()
    state.places["C3"].buildings = ["barracks", "road"]
    problems = read(state, "ann", "UPGRADE MELEE").problems
    assert problems and "needs a blacksmith" in problems[0].message


def test_stables_and_refinery_upgrades() -> None:
    """Completion: Beasts at Stables (food), Ranged at a Refinery (ore), levels I and II."""
    state = game()
    state.places["C3"].buildings += ["stables", "refinery"]
    run(state, {"ann": "UPGRADE BEASTS\nUPGRADE RANGED"})
    assert (state.seat("ann").beasts, state.seat("ann").ranged) == (1, 1)


def test_a_dock_builds_ships_into_the_sea_next_to_it() -> None:
    """Completion: BUILD <dock hex> SHIP, one wood and one work; the ship joins the tribe's
    ships next to the dock."""
    state = game()
    run(state, {"ann": "BUILD E2 SHIP"})
    assert state.places["F2"].units.ship == 2


def test_what_workers_make() -> None:
    """Completion: plain land 2 food a worker, game 3, a wood/stone/ore site 1; a farm +1 food
    and a market +1 money a worker; a worked shrine 1 fame."""
    state = game()
    assert yields(state, "D3", 2) == {"food": 4}
    assert yields(state, "B2", 1) == {"food": 3}
    assert yields(state, "D2", 2) == {"ore": 2}
    put(state, "D3", "ann", ("farm", "market", "shrine"), population=1)
    assert yields(state, "D3", 1) == {"food": 3, "money": 1, "fame": 1}


def test_the_first_building_of_a_kind_wins_fame() -> None:
    """Completion: +1 fame for the first building of each kind."""
    state = game()
    fame = state.seat("ann").fame
    run(state, {"ann": "BUILD D3 FARM"})
    assert state.seat("ann").fame == fame + 1
    run(state, {"ann": "BUILD C3 FARM"})
    assert state.seat("ann").fame == fame + 1


def test_one_building_of_a_kind_a_hex() -> None:
    """Completion: a hex holds one building of each kind."""
    state = game()
    problems = read(state, "ann", "BUILD C3 BARRACKS").problems
    assert problems and "already has a barracks" in problems[0].message
