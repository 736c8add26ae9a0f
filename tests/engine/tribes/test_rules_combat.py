"""The fragment's combat clauses, one test each (the clause quoted), and the battle that the
project built around them (completions)."""

from __future__ import annotations

from engine.dice import Dice
from engine.rulesets.tribes.combat import (
    combined_strength,
    defence,
    fight,
    kills,
    line_up,
    offence,
)
from engine.rulesets.tribes.model import Units
from tests.engine.tribes.support import codes, game, put, read, run


def test_an_attack_roll_of_4_or_more_kills() -> None:
    """ "During battle resolution, an attack roll of a 4 or greater kills the target." """
    assert kills(4, 0)
    assert kills(6, 0)
    assert not kills(3, 0)


def test_negative_defence_modifiers_help_a_unit_survive() -> None:
    """ "When units are attacked, negative defensive modifiers increase a unit's chance of
    survival." A strength of 4 kills a unit without modifiers, not one at -1."""
    assert kills(4, 0)
    assert not kills(4, -1)
    assert kills(5, -1)


def test_population_attacks_and_defends_better_in_a_fortress() -> None:
    """OFFENSIVE MODIFIERS "Population Fortress (+1)"; DEFENSIVE MODIFIERS "Population
    Fortress (-1)"."""
    state = game()
    ann = state.seat("ann")
    assert (offence(state, ann, "population", False), offence(state, ann, "population", True)) == (
        0,
        1,
    )
    assert (defence(state, ann, "population", False), defence(state, ann, "population", True)) == (
        0,
        -1,
    )


def test_melee_blacksmith_upgrades_add_one_then_two() -> None:
    """ "Melee Black Smith (+1 / +2)" and defensive "Black Smith (-1 / -2)"."""
    state = game()
    ann = state.seat("ann")
    found = []
    for level in (0, 1, 2):
        ann.melee = level
        found.append((offence(state, ann, "melee", False), defence(state, ann, "melee", False)))
    assert found == [(0, -1), (1, -2), (2, -3)]


def test_melee_starts_with_a_minus_one_defence() -> None:
    """DEFENSIVE MODIFIERS: "Melee (starts with a -1 modifier)"."""
    state = game()
    assert defence(state, state.seat("bob"), "melee", False) == -1


def test_melee_in_a_fortress() -> None:
    """Melee "Fortress (+1)" in attack and "Fortress (-1)" in defence."""
    state = game()
    bob = state.seat("bob")
    assert (offence(state, bob, "melee", True), defence(state, bob, "melee", True)) == (1, -2)


def test_mounted_beasts_add_one_then_two() -> None:
    """ "Stables: Mounted Beast (+1 / +2)" and "(-1 / -2)"."""
    state = game()
    bob = state.seat("bob")
    bob.beasts = 2
    assert (offence(state, bob, "melee", False), defence(state, bob, "melee", False)) == (2, -3)


def test_beast_and_fortress_bonuses_do_not_stack() -> None:
    """ "(Beast upgrades and Fortress upgrades are mutually exclusive)"; "Note that the fortress
    bonus does NOT stack with the beast bonus." """
    state = game()
    bob = state.seat("bob")
    bob.beasts = 1
    assert offence(state, bob, "melee", True) == offence(state, bob, "melee", False) == 1
    assert defence(state, bob, "melee", True) == defence(state, bob, "melee", False) == -2


def test_ranged_refinery_and_fortress() -> None:
    """ "Ranged Refinery (+1 / +2) Fortress (+1)" (offensive)."""
    state = game()
    bob = state.seat("bob")
    bob.ranged = 2
    assert offence(state, bob, "ranged", False) == 2
    assert offence(state, bob, "ranged", True) == 3


def test_ranged_fortress_defence_is_an_option() -> None:
    """DEFENSIVE "Ranged Fortress (+1)", among entries that are all negative: read as -1 by
    default (option ranged_fortress = minus), as printed with ranged_fortress = plus."""
    state = game()
    bob = state.seat("bob")
    assert defence(state, bob, "ranged", True) == -1
    state.options["ranged_fortress"] = "plus"
    assert defence(state, bob, "ranged", True) == 1
    assert defence(state, bob, "ranged", False) == 0


def test_ships_have_no_modifiers() -> None:
    """ "Ship none" (offensive); "Ship" with no entry (defensive)."""
    state = game()
    bob = state.seat("bob")
    bob.melee = bob.beasts = bob.ranged = 2
    assert (offence(state, bob, "ship", True), defence(state, bob, "ship", True)) == (0, 0)


def test_combined_attack_is_the_highest_roll_plus_one_a_joiner() -> None:
    """ "The final attack strength ... will be the highest attack roll of the units attacking
    together, plus one for every unit that joined the attack." """
    assert combined_strength([2, 5, 1], [0, 0, 0]) == 5 + 2
    assert combined_strength([3], [1]) == 4


def test_the_texts_worked_example() -> None:
    """ "if a melee, a ranged, and a magic unit each rolled an attack roll. The magic rolled a
    4. The attack roll is then 4 + 3 (for the mage bonus) + 2 (for the melee and ranged unit
    that joined the battle). The defender would then have to have enough negative defensive
    modifiers to get the attack strength below 4. Not likely." """
    state = game()
    ann = state.seat("ann")
    kinds = ("melee", "ranged", "magic")
    modifiers = [offence(state, ann, kind, False) for kind in kinds]
    strength = combined_strength([1, 2, 4], modifiers)
    assert strength == 4 + 3 + 2
    # The toughest defender the tables allow, a melee with both blacksmith and beast upgrades:
    bob = state.seat("bob")
    bob.melee, bob.beasts = 2, 2
    assert defence(state, bob, "melee", True) == -5
    assert kills(strength, -5)  # 9 - 5 = 4: still dead. "Not likely."


def test_the_mage_bonus_is_an_option() -> None:
    """The tables give magic no modifier; the example's "+3 (for the mage bonus)" is the
    default, option mage_bonus = 0 follows the tables."""
    state = game()
    assert offence(state, state.seat("ann"), "magic", False) == 3
    state.options["mage_bonus"] = 0
    assert offence(state, state.seat("ann"), "magic", False) == 0


def test_defenders_stand_toughest_first_and_strike_back() -> None:
    """Completion: a side's units line up hardest to kill first; in every round both sides
    strike at once."""
    state = game()
    bob = state.seat("bob")
    side = line_up(state, bob, Units(population=1, melee=1, ranged=1), False)
    assert [f.kind for f in side.fighters] == ["melee", "ranged", "population"]
    attacker = line_up(state, state.seat("ann"), Units(melee=1), False)
    strikes = fight(attacker, side, 1, 0, Dice(1, 1, "ann", "battle:test"))
    assert [s.seat for s in strikes[:2]] == ["ann", "bob"]
    assert not attacker.fighters or not side.fighters or strikes[-1].round == 10
    assert all(len(s.dice) >= 1 for s in strikes)


def test_an_attack_that_clears_a_hex_takes_it_and_wins_fame() -> None:
    """Completion: phase 2; the winner moves in, wins 1 fame, the loser loses 1."""
    state = game()
    put(state, "C4", "bob", population=1)
    put(state, "C3", "ann", ("barracks",), population=1, magic=2)
    before = state.seat("ann").fame, state.seat("bob").fame
    rec = run(state, {"ann": "ATTACK C4 FROM C3 COMBINE ALL"})
    assert "battle" in codes(rec, "ann")
    assert state.places["C4"].owner == "ann"
    assert state.places["C4"].units.magic in (1, 2)  # bob's one strike back may kill
    assert state.seat("ann").fame >= before[0] + 1
    assert state.seat("bob").fame == before[1] - 1


def test_land_does_not_attack_sea() -> None:
    """Completion: land fights land and ships fight ships."""
    state = game()
    put(state, "F3", "bob", ship=1)
    put(state, "E2", "ann", ("dock",), population=2, melee=1)
    parsed = read(state, "ann", "ATTACK F3 FROM E2")
    assert parsed.problems and "land fights land" in parsed.problems[0].message


def test_an_army_may_move_and_attack_in_the_same_turn() -> None:
    """Completion: phase 1 moves, then phase 2 attacks; an ATTACK may start from the hex an
    earlier MOVE of the same orders ends in."""
    state = game()
    put(state, "B4", "bob", population=1)
    assert read(state, "ann", "ATTACK B4 FROM B3").problems
    rec = run(state, {"ann": "MOVE C3 B3 3 MELEE\nATTACK B4 FROM B3 COMBINE 3"})
    assert "battle" in codes(rec, "ann")
