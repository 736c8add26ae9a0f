"""The fragment's bribing clauses, one test each, the clause quoted."""

from __future__ import annotations

from engine.rulesets.tribes.legality import bribe_price
from tests.engine.tribes.support import codes, game, notes, put, read, run


def test_bribing_is_done_in_phase_three() -> None:
    """ "Bribing is done in phase three." """
    state = game()
    rec = run(state, {"ann": "BRIBE C4"})
    bribes = [e for e in rec.events if e.code == "bribe"]
    assert [e.phase for e in bribes] == ["3 Bribes and buildings"]


def test_a_unit_must_stand_next_to_the_hex_bribed() -> None:
    """ "A player must have a unit adjacent to the hex that will be bribed." """
    state = game()
    parsed = read(state, "ann", "BRIBE H6")
    assert parsed.problems and "no land unit next to H6" in parsed.problems[0].message


def test_every_unit_of_the_hex_is_bribed_but_not_the_building() -> None:
    """ "if a hex has 3 military units, one population unit, and one building, that would be a
    total of 4 units that must be bribed. (The building doesn't count)." """
    state = game()
    put(state, "C4", "bob", ("farm",), population=1, melee=3)
    state.seat("ann").fame = state.seat("bob").fame + 3  # 2 money a unit
    rec = run(state, {"ann": "BRIBE C4"})
    bribe = next(e for e in rec.events if e.code == "bribe")
    assert "for 4 x 2 = 8 money" in bribe.text
    assert state.places["C4"].owner == "ann"
    assert state.places["C4"].buildings == ["farm"]


def test_five_money_a_unit_at_equal_fame() -> None:
    """ "If the player is tied with you in fame, the cost is 5 money per unit." """
    state = game()
    ann, bob = state.seat("ann"), state.seat("bob")
    bob.fame = ann.fame
    assert bribe_price(state, ann, bob) == 5


def test_one_less_for_every_fame_point_above() -> None:
    """ "So if you have 3 more points, your cost to bribe is 5 minus 3, which is two. To bribe 4
    units, you would pay 4 (units) times 2 (the cost to bribe) for 8 money." """
    state = game()
    ann, bob = state.seat("ann"), state.seat("bob")
    ann.fame, bob.fame = 4, 1
    assert bribe_price(state, ann, bob) == 2
    assert 4 * bribe_price(state, ann, bob) == 8


def test_nobody_bribes_a_tribe_with_more_fame() -> None:
    """ "(You cannot bribe someone with more fame points)." """
    state = game()
    state.seat("bob").fame = state.seat("ann").fame + 1
    parsed = read(state, "ann", "BRIBE C4")
    assert parsed.problems and "more fame" in parsed.problems[0].message


def test_each_hunger_chip_takes_a_money_off() -> None:
    """ "If the player you wish to bribe has a hunger chip on their tribe card, then the cost to
    bribe per unit is one less money. If there are 2 hunger chips, then bribing is 2 less money
    per unit, etc." """
    state = game()
    ann, bob = state.seat("ann"), state.seat("bob")
    bob.fame = ann.fame
    bob.hunger = 1
    assert bribe_price(state, ann, bob) == 4
    bob.hunger = 2
    assert bribe_price(state, ann, bob) == 3


def test_five_fame_points_above_make_a_bribe_free() -> None:
    """ "If the player is tied with you in fame, the cost is 5 money per unit. For every fame
    point above the opponent you wish to bribe, the cost per unit is one less money." Five
    points above: 5 minus 5, nothing a unit; further down the price stays at nothing."""
    state = game()
    ann, bob = state.seat("ann"), state.seat("bob")
    ann.fame, bob.fame = 6, 1
    assert bribe_price(state, ann, bob) == 0
    ann.fame, bob.hunger = 9, 3  # 5 - 8 - 3: no money comes back to the briber
    assert bribe_price(state, ann, bob) == 0


def test_a_free_bribe_needs_no_money() -> None:
    """ "To bribe, a player spends money from his money supply on his tribe card for each unit.
    ... For every fame point above the opponent you wish to bribe, the cost per unit is one less
    money." At 5 points above, a tribe with an empty money supply bribes for nothing."""
    state = game()
    state.seat("ann").fame, state.seat("bob").fame = 6, 1
    state.seat("ann").money = 0
    rec = run(state, {"ann": "BRIBE C4"})
    bribe = next(e for e in rec.events if e.code == "bribe")
    assert "for 2 x 0 = 0 money" in bribe.text
    assert state.places["C4"].owner == "ann"


def test_option_bribe_floor_keeps_a_least_price() -> None:
    """Option bribe_floor: the text's price reaches 0 (the default, 0); a table may agree on a
    least price a unit instead (1: a bribe is never free)."""
    state = game()
    ann, bob = state.seat("ann"), state.seat("bob")
    ann.fame, bob.fame, bob.hunger = 9, 0, 3
    state.options["bribe_floor"] = 1
    assert bribe_price(state, ann, bob) == 1
    bob.fame = 7  # 5 - 2 - 3 = 0, lifted to the floor; a price above it is untouched
    assert bribe_price(state, ann, bob) == 1
    bob.hunger = 0
    assert bribe_price(state, ann, bob) == 3


def test_bribed_military_beyond_the_barracks_are_removed_in_phase_four() -> None:
    """ "You may bribe military units past your limit set by the amount of barracks you own. In
    phase four, you will still need to remove unsupported military." """
    state = game()
    put(state, "C4", "bob", melee=5)
    state.seat("ann").fame = 5
    state.seat("ann").money = 30
    rec = run(state, {"ann": "BRIBE C4"})
    assert "bribe" in codes(rec, "ann")
    assert "unsupported" in codes(rec, "ann")
    military = sum(state.places[n].units.military() for n in state.held("ann"))
    assert military == 6  # 3 + 5 bribed, cut to the one barracks's 6


def test_only_a_ship_next_to_a_ship_bribes_it() -> None:
    """ "Only a ship adjeacent to another ship may bribe a ship. Ships can't bribe land, and land
    can't bribe ships." """
    state = game()
    put(state, "G3", "bob", ship=2)  # next to ann's ship in F2
    assert read(state, "ann", "BRIBE G3").problems == []
    put(state, "F3", "bob", ship=1)  # next to ann's land in E2 (no ship of ann's next to it)
    del state.places["F2"]
    problems = read(state, "ann", "BRIBE F3").problems
    assert problems and "no ship next to F3" in problems[0].message
    put(state, "F2", "ann", ship=1)
    put(state, "E3", "bob", population=1)  # land next to ann's ship in F2 and land in E2
    del state.places["E2"], state.places["D3"]
    problems = read(state, "ann", "BRIBE E3").problems
    assert problems and "no land unit next to E3" in problems[0].message


def test_bribed_units_change_colour() -> None:
    """ "Once bribed the player removes all units and replaces them with units of his own
    color." """
    state = game()
    rec = run(state, {"ann": "BRIBE C4"})
    assert state.places["C4"].owner == "ann"
    assert state.places["C4"].units.melee == 1
    bribe = next(e for e in rec.events if e.code == "bribe")
    assert "bribes 1 population, 1 melee of bob in C4" in bribe.text


def test_bribed_population_neither_works_nor_eats_that_turn() -> None:
    """ "Bribed population units may not do work that turn, they must stay as they are ...
    However, bribed population units also do not need to be fed on the turn they were
    bribed." """
    state = game()
    put(state, "C4", "bob", population=3)
    state.seat("ann").fame, state.seat("ann").money = 5, 20  # 1 money a unit
    food = state.seat("ann").food
    rec = run(state, {"ann": "BRIBE C4"})
    assert notes(rec, "ann") == ["done: 3 units for 3 money"]
    # ann's own 6 population (3 in C3, 1 in D3, 2 in E2) work and eat; the three bribed people
    # in C4 do neither.
    work = next(e for e in rec.events if e.code == "work" and e.seat == "ann")
    assert work.text.startswith("Work by 6 workers")
    fed = next(e for e in rec.events if e.code in ("fed", "hunger") and e.seat == "ann")
    assert fed.text.startswith("Food: 6 eaten")
    assert state.seat("ann").food >= food - 6
