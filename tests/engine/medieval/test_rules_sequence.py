"""Rule-by-rule tests: the turn sequence's steps 1-3, 5, 6 and 8, each quoting its clause."""

from __future__ import annotations

from engine.problems import ProblemKind
from engine.rulesets.medieval_micromanager.model import Building
from engine.rulesets.medieval_micromanager.rules import RULES
from engine.rulesets.medieval_micromanager.seat_turn import PHASES

from .support import card, codes, make_game, play_seat, problems, scripted_turn, texts


def test_the_turn_is_the_eight_steps_in_order() -> None:
    """ "1. Remove all units from buildings 2. Remove destroyed buildings 3. Break ground on a
    new building 4. Perform activities 5. Eliminate surplus commodities 6. Check for depletion
    7. Resolve attack(s) 8. Eliminate surplus units" """
    game = make_game()
    turn = scripted_turn(game, "ann", "WORK 2 farm1")
    play_seat(turn)
    assert [p.split(" ", 1)[0] for p in PHASES] == [str(n) for n in range(1, 9)]
    assert [e.phase for e in turn.rec.events] == [PHASES[3], PHASES[5]]


def test_units_come_off_the_buildings_they_worked_last_turn() -> None:
    """ "On all subsequent turns, units will be on the building in which they worked last turn,
    and at the start of the turn must be removed in order to begin your turn." """
    game = make_game(round_=2, stock={"ann": {"grain": 0}})
    card(game, "ann", "farm1").workers = 4
    turn = scripted_turn(game, "ann", "WORK 4 farm1")
    play_seat(turn)
    assert card(game, "ann", "farm1").workers == 4
    assert game.seat("ann").stock["grain"] == 8


def test_on_the_first_turn_no_unit_is_on_a_building() -> None:
    """ "On the first turn, no units will have been placed on buildings, and so this phase can
    be skipped." """
    game = make_game(round_=1)
    assert all(b.workers == 0 for s in game.seats for b in s.buildings)
    turn = scripted_turn(game, "ann", "WORK 4 farm1")
    play_seat(turn)
    assert [e.phase for e in turn.rec.events if e.phase == PHASES[0]] == []
    assert card(game, "ann", "farm1").workers == 4


def test_a_building_with_five_damage_tokens_is_removed() -> None:
    """ "A player must remove all buildings with five damage or depletion tokens on them." """
    game = make_game(cards={"ann": [Building("house2", "house", damage=5)]})
    turn = scripted_turn(game, "ann")
    play_seat(turn)
    assert game.seat("ann").building("house2") is None
    assert "removed" in codes(turn)


def test_a_building_with_five_depletion_tokens_is_removed() -> None:
    """ "all buildings with five damage or depletion tokens on them" """
    game = make_game(cards={"ann": [Building("farm2", "farm", depletion=5)]})
    play_seat(scripted_turn(game, "ann"))
    assert game.seat("ann").building("farm2") is None


def test_five_tokens_of_both_kinds_together_remove_a_building() -> None:
    """Reading of "five damage or depletion tokens": five of either kind together."""
    game = make_game(
        cards={
            "ann": [
                Building("farm2", "farm", damage=2, depletion=3),
                Building("farm3", "farm", damage=1, depletion=3),
            ]
        }
    )
    play_seat(scripted_turn(game, "ann"))
    assert game.seat("ann").building("farm2") is None
    assert game.seat("ann").building("farm3") is not None


def test_breaking_ground_puts_a_new_card_in_play_with_five_damage_tokens() -> None:
    """ "He does this by putting a new building card into his play area, and placing five
    damage tokens on the card." """
    game = make_game()
    turn = scripted_turn(game, "ann", "BREAK GROUND SCHOOL")
    play_seat(turn)
    school = card(game, "ann", "school1")
    assert (school.kind, school.damage, school.depletion) == ("school", 5, 0)
    assert "Ground broken on school1, with 5 damage tokens." in texts(turn)


def test_breaking_ground_is_not_required() -> None:
    """ "Each turn, the player may break ground on a new building. He is not required to do
    so, however." """
    game = make_game()
    play_seat(scripted_turn(game, "ann", "WORK 4 farm1"))
    assert len(game.seat("ann").buildings) == 5


def test_ground_is_broken_on_one_building_a_turn() -> None:
    """ "Each turn, the player may break ground on a new building." """
    [problem] = problems(make_game(), "ann", "BREAK GROUND HOUSE\nBREAK GROUND FARM")
    assert (problem.kind, problem.line_no) == (ProblemKind.ILLEGAL, 2)
    assert problem.rule == RULES["break_ground"]


def test_a_new_building_left_untouched_is_removed_next_turn() -> None:
    """ "If no damage tokens are removed from this building this turn, it will be removed at
    the beginning of his next turn during the Remove Destroyed Buildings phase." """
    game = make_game()
    play_seat(scripted_turn(game, "ann", "BREAK GROUND HOUSE"))
    assert card(game, "ann", "house2").damage == 5
    game.round += 1
    turn = scripted_turn(game, "ann")
    play_seat(turn)
    assert game.seat("ann").building("house2") is None
    assert "house2 is removed with 5 damage tokens." in texts(turn)


def test_a_new_building_with_a_token_removed_stays() -> None:
    """ "If no damage tokens are removed from this building this turn, it will be removed" -
    and so one with a token removed stays."""
    game = make_game()
    play_seat(scripted_turn(game, "ann", "BREAK GROUND HOUSE\nBUILD 1 NEW"))
    game.round += 1
    play_seat(scripted_turn(game, "ann"))
    assert card(game, "ann", "house2").damage == 4


def test_grain_beyond_ten_a_granary_is_lost() -> None:
    """ "He can store 10 Grain per Granary" """
    game = make_game(stock={"ann": {"grain": 9}})
    turn = scripted_turn(game, "ann", "WORK 4 farm1")
    play_seat(turn)
    assert game.seat("ann").stock["grain"] == 10
    assert "spoilt" in codes(turn)


def test_other_commodities_beyond_ten_a_warehouse_are_lost() -> None:
    """ "and 10 other commodities per Warehouse." """
    game = make_game(stock={"ann": {"lumber": 6, "ore": 3}})
    play_seat(scripted_turn(game, "ann", "WORK 3 woodcutter1"))
    seat = game.seat("ann")
    assert seat.others() == 10
    assert (seat.stock["lumber"], seat.stock["ore"]) == (7, 3)


def test_each_damage_token_on_a_store_takes_two_from_its_room() -> None:
    """ "For each damage token in the storage structure, the number of commodities stored is
    reduced by 2." """
    game = make_game(stock={"ann": {"grain": 10, "lumber": 10}})
    card(game, "ann", "granary1").damage = 1
    card(game, "ann", "warehouse1").damage = 3
    play_seat(scripted_turn(game, "ann"))
    assert (game.seat("ann").stock["grain"], game.seat("ann").stock["lumber"]) == (8, 4)


def test_a_raw_material_building_that_produced_rolls_for_depletion() -> None:
    """ "For each raw material building that produced commodities this turn, roll one six
    sided die. If a 1 shows up, that building gets a depletion token." """
    game = make_game()
    turn = scripted_turn(game, "ann", "WORK 2 farm1\nWORK 2 woodcutter1", {"depletion farm1": [1]})
    play_seat(turn)
    assert card(game, "ann", "farm1").depletion == 1
    assert card(game, "ann", "woodcutter1").depletion == 0
    assert [e.dice for e in turn.rec.events if "depleted" in e.code] == [(1,), (6,)]


def test_buildings_that_did_not_produce_raw_materials_do_not_roll() -> None:
    """ "For each raw material building that produced commodities this turn" - and no other."""
    game = make_game(
        stock={"ann": {"ore": 2}},
        cards={"ann": [Building("smithy1", "smithy"), Building("mine1", "mine")]},
    )
    turn = scripted_turn(game, "ann", "WORK 2 smithy1", {"depletion smithy1": [1]})
    play_seat(turn)
    assert card(game, "ann", "smithy1").depletion == 0
    assert [c for c in codes(turn) if "depleted" in c] == []


def test_units_beyond_five_a_house_are_eliminated() -> None:
    """ "A House must exists for every 5 units. ... Units in excess of the housing capacity are
    eliminated." """
    game = make_game(units={"ann": 7})
    turn = scripted_turn(game, "ann")
    play_seat(turn)
    assert game.seat("ann").units == 5
    assert "2 units without a house eliminated (houses for 5)." in texts(turn)


def test_a_damaged_house_houses_one_fewer_a_token() -> None:
    """ "If a House is damaged, this is reduced by 1 per damage token for that house." """
    game = make_game(units={"ann": 5}, cards={"ann": [Building("house2", "house", damage=3)]})
    play_seat(scripted_turn(game, "ann"))
    assert game.seat("ann").units == 5
    card(game, "ann", "house1").damage = 2
    game.seat("ann").units = 6
    play_seat(scripted_turn(game, "ann"))
    assert game.seat("ann").units == 3 + 2
