"""Rule-by-rule tests: Produce, Upkeep, Build, Upgrade, Settle and Recruit."""

from __future__ import annotations

from engine.problems import ProblemKind
from engine.rulesets.classical import economy
from engine.rulesets.classical.model import CITY, VILLAGE
from engine.rulesets.classical.rules import RULES

from .support import city, make_state, play, problems, put, results, scripted_turn, village


def test_a_territory_produces_only_with_a_village_or_city() -> None:
    """Produce: "For a Territory to produce, it must have a Villages Token or City Token on
    it. Put 1 Resource token in each of your Territories (except for Salt)" """
    state = make_state()
    state.seat("ann").levels = {}
    village(state, "C1", "ann")
    put(state, "E1", "ann", units=2)  # armies alone: no production
    turn = scripted_turn(state, "ann")
    economy.produce(turn)
    assert turn.pool == {"food": 0, "luxury": 0, "wood": 0, "iron": 0, "stone": 1, "gold": 0}


def test_salt_produces_nothing() -> None:
    """Produce: "(except for Salt)"; the Sea table: "Salt No Value"."""
    state = make_state()
    state.seat("ann").levels = {}
    put(state, "G3", "ann", VILLAGE)
    turn = scripted_turn(state, "ann")
    economy.produce(turn)
    assert sum(turn.pool.values()) == 0


def test_each_city_also_produces_1_gold() -> None:
    """Produce: "Each City also produces 1 Gold." """
    state = make_state()
    state.seat("ann").levels = {}
    city(state, "A1", "ann")
    turn = scripted_turn(state, "ann")
    economy.produce(turn)
    assert (turn.pool["food"], turn.pool["gold"]) == (1, 1)


def test_trait_levels_give_extra_resources() -> None:
    """Produce: "Gain 1 extra stone resource for each level in engineering you have." (and
    food for Agriculture, gold for Economics, luxury for Industry, wood for Ship Building,
    iron for Metallurgy)"""
    state = make_state()
    state.seat("ann").levels = {
        "engineering": 2,
        "agriculture": 1,
        "economics": 1,
        "industry": 1,
        "shipbuilding": 3,
        "metallurgy": 1,
    }
    village(state, "C1", "ann")
    turn = scripted_turn(state, "ann")
    economy.produce(turn)
    assert turn.pool == {"food": 1, "luxury": 1, "wood": 3, "iron": 1, "stone": 3, "gold": 1}


def test_a_fleet_alone_in_a_sea_space_fishes() -> None:
    """Decision (option sea_production 'fleets'): a sea space produces for the seat whose
    fleet is alone in it, since no settlement can stand at sea."""
    state = make_state()
    state.seat("ann").levels = {}
    put(state, "G1", "ann", units=1)
    turn = scripted_turn(state, "ann")
    economy.produce(turn)
    assert turn.pool["food"] == 1
    state.options["sea_production"] = "none"
    turn = scripted_turn(state, "ann")
    economy.produce(turn)
    assert turn.pool["food"] == 0


def test_each_fleet_army_and_city_requires_1_food() -> None:
    """Upkeep: "Each Fleet and Army and City requires 1 Food." """
    state = make_state()
    city(state, "A1", "ann", units=2)
    put(state, "G1", "ann", units=1)
    turn = scripted_turn(state, "ann", pool={"food": 5})
    economy.upkeep(turn)
    assert turn.pool["food"] == 1
    assert state.space("A1").units_of("ann") == 2


def test_gold_feeds_when_food_runs_out() -> None:
    """Gold table: "Can be used as any other Resource" - it pays upkeep when food is short."""
    state = make_state()
    city(state, "A1", "ann")
    turn = scripted_turn(state, "ann", pool={"gold": 1})
    economy.upkeep(turn)
    assert state.space("A1").settlement == CITY and turn.pool["gold"] == 0


def test_unfed_units_are_discarded() -> None:
    """Upkeep: "Unfed Units are discarded." """
    state = make_state()
    city(state, "A1", "ann", units=3)
    turn = scripted_turn(state, "ann", pool={"food": 2})
    economy.upkeep(turn)
    assert state.space("A1").units_of("ann") == 1


def test_famine_reduces_a_city_to_a_village_keeping_its_monument() -> None:
    """Upkeep: "A city will be reduced to a village by famine. However if it has a Monument,
    the Monument will remain!" """
    state = make_state()
    city(state, "A1", "ann", monuments=2)
    turn = scripted_turn(state, "ann")
    economy.upkeep(turn)
    spot = state.space("A1")
    assert (spot.settlement, spot.monuments, spot.owner) == (VILLAGE, 2, "ann")


def test_feed_order_decides_who_goes_hungry() -> None:
    """Decision: FEED is a standing order naming what is fed first; by default cities, then
    armies, then fleets."""
    state = make_state()
    city(state, "A1", "ann", units=1)
    turn = scripted_turn(state, "ann", pool={"food": 1})
    economy.upkeep(turn)
    assert state.space("A1").settlement == CITY and not state.space("A1").units
    state = make_state()
    city(state, "A1", "ann", units=1)
    state.seat("ann").standing.feed = ["armies", "cities", "fleets"]
    turn = scripted_turn(state, "ann", pool={"food": 1})
    economy.upkeep(turn)
    assert state.space("A1").settlement == VILLAGE and state.space("A1").units_of("ann") == 1


def test_a_monument_costs_2_food_1_stone_and_1_more_per_monument_there() -> None:
    """Build: "you must use up 2 Food and 1 Stone plus any 1 resource for every other Monument
    already located in that city." """
    state = make_state()
    state.seat("ann").levels = {"religion": 5}
    city(state, "A1", "ann", monuments=2)
    turn = scripted_turn(state, "ann", "MONUMENT A1", pool={"food": 2, "stone": 1, "wood": 1})
    economy.build(turn)
    assert state.space("A1").monuments == 2  # short by one
    turn = scripted_turn(state, "ann", "MONUMENT A1", pool={"food": 2, "stone": 1, "wood": 2})
    economy.build(turn)
    assert state.space("A1").monuments == 3 and sum(turn.pool.values()) == 0


def test_a_monument_is_built_in_a_city_you_control() -> None:
    """Build: "You may build a Monument in a City you control." """
    state = make_state()
    village(state, "A1", "ann")
    [problem] = problems(state, "ann", "MONUMENT A1")
    assert problem.kind is ProblemKind.ILLEGAL and problem.rule == RULES["monument"]


def test_no_more_monuments_than_1_plus_religion() -> None:
    """Build: "You cannot Build more total Monuments than 1 + your Level in Religion." (per
    turn by default; option monument_limit 'in all': controlled at once)"""
    state = make_state()
    state.seat("ann").levels = {"religion": 1}
    city(state, "A1", "ann")
    turn = scripted_turn(state, "ann", "MONUMENT A1 3", pool={"food": 9, "stone": 9, "gold": 9})
    economy.build(turn)
    assert state.space("A1").monuments == 2
    assert results(turn)[0][0] == "partly done"
    state.options["monument_limit"] = "in all"
    turn = scripted_turn(state, "ann", "MONUMENT A1", pool={"food": 9, "stone": 9, "gold": 9})
    economy.build(turn)
    assert state.space("A1").monuments == 2


def test_a_village_becomes_a_city_for_2_luxuries_and_1_stone() -> None:
    """Upgrade: "You may convert a Villages Token into a city token. To do this, you must use
    up 2 Luxuries and 1 Stone." """
    state = make_state()
    village(state, "A1", "ann")
    turn = scripted_turn(state, "ann", "UPGRADE A1", pool={"luxury": 1, "stone": 1})
    economy.upgrade(turn)
    assert state.space("A1").settlement == VILLAGE
    turn = scripted_turn(state, "ann", "UPGRADE A1", pool={"luxury": 2, "stone": 1})
    economy.upgrade(turn)
    assert state.space("A1").settlement == CITY


def test_one_city_per_space() -> None:
    """Upgrade: "Max 1 city per space." - only a village is upgraded, so a city stays one."""
    state = make_state()
    city(state, "A1", "ann")
    [problem] = problems(state, "ann", "UPGRADE A1")
    assert problem.rule == RULES["upgrade"]


def test_first_village_is_free_and_more_cost_two_resources() -> None:
    """Settle: "You may build 1 Villages Token for free each turn." ... "each extra village
    placed in a turn requires you to use up 1 Food or Luxury Resource and 1 Wood or Stone
    Resource." """
    state = make_state()
    city(state, "A1", "ann")
    turn = scripted_turn(
        state, "ann", "SETTLE C1\nSETTLE A3\nSETTLE E1", pool={"luxury": 1, "wood": 1}
    )
    economy.settle(turn)
    assert [state.space(n).settlement for n in ("C1", "A3", "E1")] == [VILLAGE, VILLAGE, ""]
    assert results(turn)[2][0] == "skipped"


def test_villages_go_on_empty_land_next_to_your_settlements_or_fleets() -> None:
    """Settle: "Villages are placed in empty Land spaces next to spaces occupied by your
    cities, villages, or fleets." """
    state = make_state()
    city(state, "A1", "ann")
    assert problems(state, "ann", "SETTLE E1")[0].rule == RULES["settle"]  # not next to it
    assert problems(state, "ann", "SETTLE C3")[0].rule == RULES["settle"]  # sea
    put(state, "G1", "ann", units=1)  # a fleet next to E1 and G3
    assert problems(state, "ann", "SETTLE E1") == []


def test_one_village_per_space() -> None:
    """Settle: "(1 max per space)" """
    state = make_state()
    city(state, "A1", "ann")
    village(state, "C1", "bob")
    assert problems(state, "ann", "SETTLE C1")[0].rule == RULES["extra_village"]


def test_armies_cost_iron_and_start_in_cities() -> None:
    """Recruit: "Each Army requires you to use up 1 Iron." "All Armies must start in
    cities." """
    state = make_state()
    city(state, "A1", "ann")
    village(state, "C1", "ann")
    assert problems(state, "ann", "RECRUIT C1")[0].rule == RULES["unit_place"]
    turn = scripted_turn(state, "ann", "RECRUIT A1 2", pool={"iron": 1})
    economy.recruit(turn)
    assert state.space("A1").units_of("ann") == 1


def test_fleets_cost_wood_and_start_in_sea_next_to_cities() -> None:
    """Recruit: "Each Fleet Requires you to use up 1 Wood." "All Fleets must start in Sea
    spaces adjacent to cities." """
    state = make_state()
    city(state, "A3", "ann")
    assert problems(state, "ann", "RECRUIT G1")[0].rule == RULES["unit_place"]
    turn = scripted_turn(state, "ann", "RECRUIT C3", pool={"wood": 1})
    economy.recruit(turn)
    assert state.space("C3").units_of("ann") == 1


def test_no_more_units_than_1_plus_government_plus_cities() -> None:
    """Recruit: "You cannot Build more Units than 1 + your Level in Government + the number
    of cities you control." """
    state = make_state()  # ann: Romans, Government 1
    city(state, "A1", "ann")
    assert problems(state, "ann", "RECRUIT A1 3") == []
    [problem] = problems(state, "ann", "RECRUIT A1 3\nRECRUIT A1")
    assert problem.rule == RULES["unit_limit"]


def test_resources_are_not_saved_from_turn_to_turn() -> None:
    """ "Resources are not saved from turn to turn. Empty this chart at the end of every
    turn." - the pool lives in the seat's turn only; the next turn starts from production."""
    state = make_state()
    state.seat("ann").levels = {}
    city(state, "A1", "ann")
    city(state, "G3", "bob")
    state, first = play(state)
    produced = [e.text for e in first.events if e.code == "produce" and e.seat == "ann"]
    state, second = play(state)
    again = [e.text for e in second.events if e.code == "produce" and e.seat == "ann"]
    assert produced == ["Produced: 1 food, 1 gold (A1 grain; 1 city 1 gold each)."]
    assert again[0].startswith("Produced: 1 food, ") and ", 1 gold (A1 grain;" in again[0]


def test_trade_and_gold_can_be_used_as_any_other_resource() -> None:
    """Sea table: "Trade Can be used as any other Resource"; Land table: "Gold Can be used as
    any other Resource" - both go to the Gold (and Trade) space and pay for anything."""
    state = make_state()
    state.seat("ann").levels = {}
    put(state, "G1", "ann", units=1)
    state.space("G1").resource = "trade"
    turn = scripted_turn(state, "ann")
    economy.produce(turn)
    assert turn.pool["gold"] == 1
    city(state, "A1", "ann")
    turn = scripted_turn(state, "ann", "MONUMENT A1", pool={"food": 2, "gold": 1})
    economy.build(turn)
    assert state.space("A1").monuments == 1  # gold paid for the stone
