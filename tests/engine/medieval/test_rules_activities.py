"""Rule-by-rule tests: step 4, Perform Activities, each quoting its clause."""

from __future__ import annotations

from engine.problems import ProblemKind
from engine.rulesets.medieval_micromanager.model import Building
from engine.rulesets.medieval_micromanager.rules import RULES

from .support import card, make_game, play_seat, problems, results, scripted_turn

SCHOOL = Building("school1", "school")


def test_each_unit_may_perform_one_action() -> None:
    """ "Each unit may perform one action in a building." """
    [problem] = problems(make_game(), "ann", "WORK 3 farm1\nWORK 2 woodcutter1")
    assert (problem.kind, problem.line_no, problem.rule) == (
        ProblemKind.ILLEGAL,
        2,
        RULES["one_action"],
    )


def test_units_lost_before_the_turn_act_no_more() -> None:
    """ "Each unit may perform one action": units an earlier seat's attack killed do not act."""
    game = make_game(stock={"ann": {"grain": 0}})
    turn = scripted_turn(game, "ann", "WORK 4 farm1")
    game.seat("ann").units = 2
    play_seat(turn)
    assert game.seat("ann").stock["grain"] == 4
    assert results(turn) == [("partly done", "4 grain made; only 2 units left to act")]


def test_a_tool_doubles_production_once_a_school_stands() -> None:
    """ "After a school has been built, a tool may be used to double the productivity of the
    unit." """
    game = make_game(stock={"ann": {"tools": 1, "lumber": 0}}, cards={"ann": [SCHOOL]})
    play_seat(scripted_turn(game, "ann", "WORK 2 woodcutter1"))
    assert game.seat("ann").stock["lumber"] == 2 + 1


def test_a_tool_does_nothing_without_a_school() -> None:
    """ "After a school has been built, a tool may be used" - and not before."""
    unbuilt = Building("school1", "school", damage=1)
    game = make_game(stock={"ann": {"tools": 2, "lumber": 0}}, cards={"ann": [unbuilt]})
    play_seat(scripted_turn(game, "ann", "WORK 2 woodcutter1"))
    assert game.seat("ann").stock["lumber"] == 2


def test_building_removes_a_damage_token_for_a_lumber() -> None:
    """ "a worker spends his action building/repairing the structure, and removed one damage
    token ... 1 lumber for each damage token removed." """
    game = make_game(cards={"ann": [Building("house2", "house", damage=4)]})
    play_seat(scripted_turn(game, "ann", "BUILD 3 house2"))
    assert card(game, "ann", "house2").damage == 1
    assert game.seat("ann").stock["lumber"] == 5 - 3


def test_building_with_a_tool_removes_two_tokens() -> None:
    """ "removed one damage token (two if using a tool)" - paying for both."""
    game = make_game(
        stock={"ann": {"tools": 1}},
        cards={"ann": [SCHOOL, Building("house2", "house", damage=4)]},
    )
    play_seat(scripted_turn(game, "ann", "BUILD 2 house2"))
    assert card(game, "ann", "house2").damage == 4 - 3
    assert game.seat("ann").stock["lumber"] == 5 - 3


def test_building_stops_when_the_lumber_runs_out() -> None:
    """ "Most buildings also require lumber in order to build/repair" """
    game = make_game(
        stock={"ann": {"lumber": 1}}, cards={"ann": [Building("house2", "house", damage=4)]}
    )
    turn = scripted_turn(game, "ann", "BUILD 3 house2")
    play_seat(turn)
    assert card(game, "ann", "house2").damage == 3
    assert results(turn) == [
        ("partly done", "1 damage token removed from house2; not enough 1 lumber a token")
    ]


def test_a_farm_is_built_without_lumber() -> None:
    """Completion of "Most buildings also require lumber": fields and a woodcutters' camp need
    none."""
    game = make_game(
        stock={"ann": {"lumber": 0}},
        cards={
            "ann": [
                Building("farm2", "farm", damage=4),
                Building("woodcutter2", "woodcutter", damage=4),
            ]
        },
    )
    play_seat(scripted_turn(game, "ann", "BUILD 2 farm2\nBUILD 2 woodcutter2"))
    assert (card(game, "ann", "farm2").damage, card(game, "ann", "woodcutter2").damage) == (2, 2)


def test_depletion_tokens_cannot_be_removed() -> None:
    """ "Depletion tokens cannot be removed." """
    game = make_game(cards={"ann": [Building("farm2", "farm", depletion=2)]})
    [problem] = problems(game, "ann", "BUILD 1 farm2")
    assert (problem.kind, problem.rule) == (ProblemKind.ILLEGAL, RULES["depletion_stays"])


def test_raw_materials_cost_only_actions() -> None:
    """ "Raw materials don't cost any other type of commodity, just actions" """
    game = make_game(
        stock={"ann": {"grain": 0, "lumber": 0}}, cards={"ann": [Building("mine1", "mine")]}
    )
    play_seat(scripted_turn(game, "ann", "WORK 2 farm1\nWORK 1 woodcutter1\nWORK 1 mine1"))
    stock = game.seat("ann").stock
    assert (stock["grain"], stock["lumber"], stock["ore"]) == (4, 1, 1)


def test_finished_goods_use_up_their_raw_material() -> None:
    """ "there are two types of commodity: Raw Materials, and Finished Goods" - a smithy makes
    a tool of an ore (a completion: the cards)."""
    game = make_game(stock={"ann": {"ore": 3}}, cards={"ann": [Building("smithy1", "smithy")]})
    turn = scripted_turn(game, "ann", "WORK 4 smithy1")
    play_seat(turn)
    assert (game.seat("ann").stock["ore"], game.seat("ann").stock["tools"]) == (0, 3)
    assert results(turn) == [("partly done", "3 tools made; no ore left to make tools of")]


def test_a_building_takes_five_units_less_one_a_depletion_token() -> None:
    """ "An fully undepleted building allows for 5 units to work on it a turn. Each point of
    depletion reduces this by one." """
    game = make_game(units={"ann": 5}, cards={"ann": [Building("farm2", "farm", depletion=2)]})
    assert problems(game, "ann", "WORK 5 farm1") == []
    [problem] = problems(game, "ann", "WORK 4 farm2")
    assert (problem.kind, problem.rule) == (ProblemKind.ILLEGAL, RULES["places"])
    assert problems(game, "ann", "WORK 3 farm2") == []


def test_a_damaged_building_cannot_produce() -> None:
    """ "A damaged building cannot produce commodities, and must be fully repaired first." """
    game = make_game()
    card(game, "ann", "farm1").damage = 1
    [problem] = problems(game, "ann", "WORK 2 farm1")
    assert (problem.kind, problem.rule) == (ProblemKind.ILLEGAL, RULES["damaged"])


def test_a_building_repaired_on_an_earlier_line_produces() -> None:
    """ "must be fully repaired first" - by an earlier line of the same turn."""
    game = make_game(stock={"ann": {"grain": 0}})
    card(game, "ann", "farm1").damage = 1
    play_seat(scripted_turn(game, "ann", "BUILD 1 farm1\nWORK 3 farm1"))
    assert game.seat("ann").stock["grain"] == 6


def test_work_at_a_building_left_damaged_is_skipped() -> None:
    """ "A damaged building cannot produce commodities" - the repair fell short."""
    game = make_game(stock={"ann": {"grain": 0}})
    card(game, "ann", "farm1").damage = 3
    turn = scripted_turn(game, "ann", "BUILD 1 farm1\nWORK 3 farm1")
    play_seat(turn)
    assert game.seat("ann").stock["grain"] == 0
    assert results(turn)[1][0] == "skipped"


def test_attacks_are_set_at_an_undamaged_academy() -> None:
    """ "setting a unit to attack an enemy, which is done at an undamaged Academy" - an order
    for a damaged one is refused, and an academy damaged since the order was read (razed by
    an earlier seat) takes no unit."""
    game = make_game(units={"ann": 5}, cards={"ann": [Building("academy1", "academy", damage=1)]})
    assert problems(game, "ann", "ATTACK bob WITH 2")[0].rule == RULES["academy"]
    card(game, "ann", "academy1").damage = 0
    turn = scripted_turn(game, "ann", "ATTACK bob WITH 2")
    card(game, "ann", "academy1").damage = 1
    play_seat(turn)
    assert results(turn) == [("skipped", "no undamaged academy with room")]
    assert game.seat("ann").idle() == 5
    assert game.seat("bob").units == 4
    assert problems(make_game(), "ann", "ATTACK bob WITH 2")[0].rule == RULES["academy"]


def test_buying_a_unit_costs_five_grain() -> None:
    """ "buying a new unit, which costs 5 Grain." """
    game = make_game(stock={"ann": {"grain": 10}})
    turn = scripted_turn(game, "ann", "BUY 1")
    play_seat(turn)
    assert (game.seat("ann").units, game.seat("ann").stock["grain"]) == (5, 5)
    assert card(game, "ann", "house1").workers == 1


def test_buying_stops_when_the_grain_runs_out() -> None:
    """ "buying a new unit, which costs 5 Grain." """
    game = make_game(stock={"ann": {"grain": 7}})
    turn = scripted_turn(game, "ann", "BUY 2")
    play_seat(turn)
    assert game.seat("ann").units == 5
    assert results(turn) == [("partly done", "1 unit bought; a unit costs 5 grain")]


def test_a_bought_unit_acts_from_the_next_turn() -> None:
    """Completion: the new unit acts from the next turn (it was bought with this turn's
    action of another)."""
    game = make_game(units={"ann": 2}, stock={"ann": {"grain": 10}})
    turn = scripted_turn(game, "ann", "BUY 1\nWORK 1 woodcutter1")
    game.seat("ann").units = 2
    play_seat(turn)
    assert game.seat("ann").units == 3
    assert game.seat("ann").idle() == 0


def test_a_tool_is_used_only_if_the_player_wishes() -> None:
    """ "Raw materials don't cost any other type of commodity, just actions (and optionally
    tools with a school built to double production)" - TOOLS <n> on the line: at most n of
    its units use a tool, TOOLS 0 none."""
    stock = {"tools": 2, "lumber": 0, "grain": 0}
    game = make_game(stock={"ann": stock}, cards={"ann": [Building("school1", "school")]})
    turn = scripted_turn(game, "ann", "WORK 2 woodcutter1 TOOLS 0\nWORK 2 farm1 TOOLS 1")
    play_seat(turn)
    assert (game.seat("ann").stock["lumber"], game.seat("ann").stock["grain"]) == (2, 4 + 2)
    assert [o.understood() for o in turn.orders] == [
        "2 units work at woodcutter1, no tool",
        "2 units work at farm1, at most 1 tool",
    ]


def test_declining_a_tool_leaves_ore_for_another_line() -> None:
    """ "After a school has been built, a tool may be used to double the productivity of the
    unit." - may: with a school, 1 tool and 2 ore, a smithy that declines the tool leaves an
    ore for the swordsmith (a tool and a sword, not two tools)."""
    cards = [
        Building("school1", "school"),
        Building("smithy1", "smithy"),
        Building("swordsmith1", "swordsmith"),
    ]
    game = make_game(stock={"ann": {"tools": 1, "ore": 2}}, cards={"ann": cards})
    play_seat(scripted_turn(game, "ann", "WORK 1 smithy1 TOOLS 0\nWORK 1 swordsmith1"))
    stock = game.seat("ann").stock
    assert (stock["ore"], stock["tools"], stock["swords"]) == (0, 2, 1)


def test_building_without_a_tool_removes_one_token() -> None:
    """ "removed one damage token (two if using a tool)" - if: BUILD ... TOOLS 0 removes one
    token a unit and pays for one."""
    game = make_game(
        stock={"ann": {"tools": 1}},
        cards={"ann": [Building("school1", "school"), Building("house2", "house", damage=4)]},
    )
    play_seat(scripted_turn(game, "ann", "BUILD 2 house2 TOOLS 0"))
    assert card(game, "ann", "house2").damage == 4 - 2
    assert game.seat("ann").stock["lumber"] == 5 - 2
