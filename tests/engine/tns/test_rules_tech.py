"""Rule-by-rule tests: Tech Phase and the Tech Advances Chart."""

from __future__ import annotations

import pytest

from engine.problems import ProblemKind
from engine.rulesets.temples_and_swords import economy
from engine.rulesets.temples_and_swords import orders as order_parser
from engine.rulesets.temples_and_swords.model import ADVANCES
from engine.rulesets.temples_and_swords.orders import AdvancePreference
from engine.rulesets.temples_and_swords.rules import RULES

from .support import codes, make_state, patch_dice, play, problems, results, scripted_turn, texts

TERRAIN = ["ggggg", "ggggg", "ddddd", "ddddd"]
ONE_CITY = {"A1": ("ann", 3, ["city"])}
TWO_CITIES = {"A1": ("ann", 3, ["city"]), "D1": ("ann", 3, ["city"])}


@pytest.mark.parametrize(
    ("cities", "rolls", "cost"),
    [(1, 1, 1), (1, 2, 3), (2, 1, 1), (2, 2, 2), (2, 3, 4), (2, 4, 6), (3, 6, 9)],
)
def test_tech_rolls_cost_one_gp_a_city_then_two_gp_a_city(
    cities: int, rolls: int, cost: int
) -> None:
    """Tech Phase: "Expend on GP per city to gain one tech roll each. Additionally, you can
    spend two GP per city to gain an additional tech roll. ... if you have two cities, you can
    spend two GP, one for each city, to gain two tech rolls, and then can spend two GP per city
    if you want more." """
    hexes = {name: ("ann", 3, ["city"]) for name in ("A1", "C1", "E1")[:cities]}
    state = make_state(TERRAIN, hexes=hexes, gold=20)
    turn = scripted_turn(state, "ann", f"TECH {rolls}", dice={"tech": [2] * rolls})
    economy.tech(turn)
    assert state.seat("ann").gold == 20 - cost
    assert state.seat("ann").tech_points == rolls
    [(status, note)] = results(turn)
    assert (status, note.split()[0], note.split()[-3:]) == (
        "done",
        str(rolls),
        ["for", str(cost), "GP"],
    )
    assert turn.unused() == {}


@pytest.mark.parametrize(("cities", "rolls"), [(1, 3), (2, 5), (0, 1)])
def test_no_more_than_two_tech_rolls_per_city(cities: int, rolls: int) -> None:
    """Tech Phase: "Note that you cannot gain more than two tech rolls per city." """
    hexes = dict(list(TWO_CITIES.items())[:cities]) or {"A1": ("ann", 3, [])}
    state = make_state(TERRAIN, hexes=hexes, gold=20)
    [problem] = problems(state, "ann", f"TECH {rolls}")
    assert problem.kind is ProblemKind.ILLEGAL
    assert problem.rule == RULES["tech_rolls"]
    assert problem.message.startswith(f"{rolls} tech rolls, but with {cities} cit")
    assert problem.message.endswith(f"you may buy at most {2 * cities}")


def test_the_cap_holds_if_cities_are_lost_before_the_tech_phase() -> None:
    """Tech Phase: "you cannot gain more than two tech rolls per city" - counted at the time of
    the tech phase: a seat that lost a city since ordering buys what its cities allow."""
    state = make_state(TERRAIN, hexes=TWO_CITIES, gold=20)
    turn = scripted_turn(state, "ann", "TECH 4", dice={"tech": [1, 1]})
    state.hexes["D1"].owner = "bob"
    economy.tech(turn)
    assert state.seat("ann").gold == 17
    [(status, note)] = results(turn)
    assert (status, note.startswith("bought 2 rolls for 3 GP")) == ("partly done", True)


def test_rolls_are_bought_while_the_gold_lasts() -> None:
    """Tech Phase: "Expend one GP per city to gain one tech roll" - no gold, no roll."""
    state = make_state(TERRAIN, hexes=ONE_CITY, gold=2)
    turn = scripted_turn(state, "ann", "TECH 2", dice={"tech": [6]})
    economy.tech(turn)
    assert (state.seat("ann").gold, state.seat("ann").tech_points) == (1, 3)
    [(status, note)] = results(turn)
    assert status == "partly done"
    assert note.startswith("bought 1 roll")


def test_no_gold_no_roll() -> None:
    """Tech Phase: "Expend one GP per city to gain one tech roll each." """
    state = make_state(TERRAIN, hexes=ONE_CITY, gold=0)
    turn = scripted_turn(state, "ann", "TECH 1")
    economy.tech(turn)
    assert state.seat("ann").tech_points == 0
    [(status, note)] = results(turn)
    # Issue 43, point 14: it said "0 GP and 1 cities".
    assert (status, note) == ("skipped", "no roll bought: 0 GP and 1 city")


@pytest.mark.parametrize(("die", "points"), [(1, 1), (2, 1), (3, 1), (4, 2), (5, 2), (6, 3)])
def test_tech_points_table(die: int, points: int) -> None:
    """Tech Phase: "Result / Tech Points Recieved: 1-3 1; 4-5 2; 6 3" """
    state = make_state(TERRAIN, hexes=ONE_CITY, gold=5)
    turn = scripted_turn(state, "ann", "TECH 1", dice={"tech": [die]})
    economy.tech(turn)
    assert state.seat("ann").tech_points == points
    [event] = turn.rec.events
    assert event.dice == (die,)


def test_tech_points_add_up_across_turns() -> None:
    """Tech Phase: "If a player gains ten tech points" - points are kept until they reach ten."""
    state = make_state(TERRAIN, hexes=ONE_CITY, gold=5)
    state.seat("ann").tech_points = 4
    economy.tech(scripted_turn(state, "ann", "TECH 2", dice={"tech": [6, 4]}))
    assert state.seat("ann").tech_points == 9
    assert state.seat("ann").advances == []


def test_ten_points_roll_three_times_on_the_chart_and_choose_by_preference() -> None:
    """Tech Phase: "If a player gains ten tech points, he may gain one random advance. Roll
    three times on the tech chart and choose one of the three." The choice is the seat's
    standing ADVANCE preference."""
    state = make_state(TERRAIN, hexes=ONE_CITY, gold=5)
    state.seat("ann").tech_points = 9
    text = "TECH 1\nADVANCE Writing, Religion"
    turn = scripted_turn(state, "ann", text, dice={"tech": [1], "advance:0": [4, 6, 8]})
    turn.seat.standing.advance_preference = ["Writing", "Religion"]
    economy.tech(turn)
    assert state.seat("ann").advances == ["Writing"]
    assert state.seat("ann").tech_points == 0
    advance = turn.rec.events[-1]
    assert (advance.code, advance.dice, advance.public) == ("advance", (4, 6, 8), True)
    assert "Religion, Masonry, Writing" in advance.text
    assert turn.unused() == {}


@pytest.mark.parametrize(("roll", "advance"), list(enumerate(ADVANCES, 1)))
def test_the_tech_advances_chart(roll: int, advance: str) -> None:
    """Tech Advances Chart: "1 Military Doctrine, 2 Equestrian, 3 Metal Working, 4 Religion,
    5 Art, 6 Masonry, 7 Coinage, 8 Writing" (a d8)."""
    state = make_state(TERRAIN, hexes=ONE_CITY)
    state.seat("ann").tech_points = 10
    turn = scripted_turn(state, "ann", dice={"advance:0": [roll, roll, roll]})
    economy.tech(turn)
    assert state.seat("ann").advances == [advance]


def test_without_a_preference_the_documented_default_order_chooses() -> None:
    """Decision 19 (docs/rules/temples-and-swords.md): with no ADVANCE order a seat takes, of
    those rolled, the first of Religion, Masonry, Art, Writing, Coinage, Metal Working,
    Military Doctrine, Equestrian."""
    state = make_state(TERRAIN, hexes=ONE_CITY)
    state.seat("ann").tech_points = 10
    turn = scripted_turn(state, "ann", dice={"advance:0": [1, 7, 5]})
    economy.tech(turn)
    assert state.seat("ann").advances == ["Art"]


def test_a_preference_not_rolled_falls_back_to_the_default_order() -> None:
    """Tech Phase: "choose one of the three" - a preference that names none of the three (and
    nothing another player has) leaves the choice to the documented default order."""
    state = make_state(TERRAIN, hexes=ONE_CITY)
    state.seat("ann").tech_points = 10
    state.seat("ann").standing.advance_preference = ["Coinage"]
    economy.tech(scripted_turn(state, "ann", dice={"advance:0": [2, 3, 1]}))
    assert state.seat("ann").advances == ["Metal Working"]


def test_an_advance_already_known_is_not_gained_twice() -> None:
    """Tech Phase: "choose one of the three" - among those the player has not got yet."""
    state = make_state(TERRAIN, hexes=ONE_CITY, advances={"ann": ["Religion"]})
    state.seat("ann").tech_points = 10
    state.seat("ann").standing.advance_preference = ["Religion", "Art"]
    economy.tech(scripted_turn(state, "ann", dice={"advance:0": [4, 4, 5]}))
    assert state.seat("ann").advances == ["Religion", "Art"]


def test_nothing_new_rolled_keeps_the_points() -> None:
    """Tech Phase: "he may gain one random advance" - when the three rolls are all known and
    no other player has anything new, nothing is gained and the ten points are kept."""
    state = make_state(TERRAIN, hexes=ONE_CITY, advances={"ann": ["Religion"]})
    state.seat("ann").tech_points = 12
    turn = scripted_turn(state, "ann", dice={"advance:0": [4, 4, 4]})
    economy.tech(turn)
    assert state.seat("ann").advances == ["Religion"]
    assert state.seat("ann").tech_points == 12
    assert codes(turn) == ["advance_none"]


def test_an_advance_another_player_has_may_be_taken_instead() -> None:
    """Tech Phase: "Alternatively, a player may gain an advance already gained by another
    player." """
    state = make_state(TERRAIN, hexes=ONE_CITY, advances={"bob": ["Coinage"]})
    state.seat("ann").tech_points = 10
    state.seat("ann").standing.advance_preference = ["Coinage", "Religion"]
    turn = scripted_turn(state, "ann", dice={"advance:0": [4, 5, 6]})
    economy.tech(turn)
    assert state.seat("ann").advances == ["Coinage"]
    assert "gains Coinage (already known to another player)" in texts(turn)[-1]


def test_a_rolled_advance_is_preferred_to_copying_by_default() -> None:
    """Decision 19 (docs/rules/temples-and-swords.md): without a preference naming it, a seat
    takes a rolled advance before copying one another player has."""
    state = make_state(TERRAIN, hexes=ONE_CITY, advances={"bob": ["Religion"]})
    state.seat("ann").tech_points = 10
    economy.tech(scripted_turn(state, "ann", dice={"advance:0": [1, 1, 2]}))
    assert state.seat("ann").advances == ["Military Doctrine"]


def test_copying_when_all_three_rolls_are_known() -> None:
    """Tech Phase: "Alternatively, a player may gain an advance already gained by another
    player." - used when the rolls bring nothing new."""
    state = make_state(
        TERRAIN, hexes=ONE_CITY, advances={"ann": ["Art"], "bob": ["Art", "Equestrian"]}
    )
    state.seat("ann").tech_points = 10
    economy.tech(scripted_turn(state, "ann", dice={"advance:0": [5, 5, 5]}))
    assert state.seat("ann").advances == ["Art", "Equestrian"]
    assert state.seat("ann").tech_points == 0


def test_twenty_points_give_two_advances() -> None:
    """Tech Phase: "If a player gains ten tech points, he may gain one random advance" - for
    every ten points, each with its own three rolls."""
    state = make_state(TERRAIN, hexes=ONE_CITY)
    state.seat("ann").tech_points = 21
    turn = scripted_turn(state, "ann", dice={"advance:0": [4, 4, 4], "advance:1": [4, 6, 6]})
    economy.tech(turn)
    assert state.seat("ann").advances == ["Religion", "Masonry"]
    assert state.seat("ann").tech_points == 1


def test_library_gives_an_extra_tech_roll_by_default() -> None:
    """Writing: "Each library gives you one extra tech roll per turn." (option library_effect
    'roll', the default) - a free roll, bought rolls not needed."""
    state = make_state(TERRAIN, hexes={"A1": ("ann", 3, ["city", "library"])}, gold=0)
    turn = scripted_turn(state, "ann", dice={"tech": [6]})
    economy.tech(turn)
    assert (state.seat("ann").tech_points, state.seat("ann").gold) == (3, 0)
    assert turn.unused() == {}


def test_library_roll_comes_on_top_of_the_bought_rolls() -> None:
    """Writing: "Each library gives you one extra tech roll per turn." - extra to the two
    rolls a city may buy."""
    state = make_state(TERRAIN, hexes={"A1": ("ann", 3, ["city", "library"])}, gold=3)
    turn = scripted_turn(state, "ann", "TECH 2", dice={"tech": [1, 4, 6]})
    economy.tech(turn)
    assert (state.seat("ann").tech_points, state.seat("ann").gold) == (6, 0)
    assert turn.unused() == {}


def test_library_gives_a_free_tech_point_with_option_point() -> None:
    """Project chart: "Library ... 1 free tech point per turn" (option library_effect
    'point'): no die is rolled for it."""
    state = make_state(
        TERRAIN,
        hexes={"A1": ("ann", 3, ["city", "library"])},
        options={"library_effect": "point"},
    )
    turn = scripted_turn(state, "ann")
    economy.tech(turn)
    assert state.seat("ann").tech_points == 1
    assert turn.rec.events[0].dice == ()


@pytest.mark.parametrize(
    ("order", "preference"),
    [("ADVANCE Coinage ONLY", ["Coinage"]), ("ADVANCE NONE", [])],
)
def test_a_seat_may_keep_its_points_rather_than_take_an_advance_it_did_not_choose(
    order: str, preference: list[str]
) -> None:
    """Tech Phase: "If a player gains ten tech points, he may gain one random advance" - may:
    with ADVANCE ... ONLY (or ADVANCE NONE) a seat takes only the advances it named and keeps
    its points until one is on offer, rolled or known to another player (issue 13: an advance
    was always taken)."""
    state = make_state(TERRAIN, hexes=ONE_CITY, advances={"bob": ["Art"]})
    state.seat("ann").tech_points = 10
    [advance] = order_parser.parse(state, "ann", order).orders
    assert isinstance(advance, AdvancePreference) and advance.only
    state.seat("ann").standing.advance_preference = preference
    state.seat("ann").standing.advance_only = True
    turn = scripted_turn(state, "ann", dice={"advance:0": [2, 3, 4]})
    economy.tech(turn)
    assert state.seat("ann").advances == [] and state.seat("ann").tech_points == 10
    assert texts(turn)[-1].endswith(
        "None you chose (ADVANCE ... ONLY) is on offer; the points are kept."
    )
    if preference:
        state.seat("bob").advances.append("Coinage")  # now on offer: known to another player
        economy.tech(scripted_turn(state, "ann", dice={"advance:0": [2, 3, 4]}))
        assert state.seat("ann").advances == ["Coinage"]


def test_advance_only_is_a_standing_order_until_replaced(monkeypatch: pytest.MonkeyPatch) -> None:
    state = make_state(TERRAIN, hexes=ONE_CITY | {"E4": ("bob", 3, ["city"])})
    patch_dice(monkeypatch)
    after, _ = play(state, {"ann": "ADVANCE Coinage, Art ONLY"})
    standing = after.seat("ann").standing
    assert (standing.advance_preference, standing.advance_only) == (["Coinage", "Art"], True)
    after, _ = play(after, {"ann": "ADVANCE Art"})
    assert after.seat("ann").standing.advance_only is False
