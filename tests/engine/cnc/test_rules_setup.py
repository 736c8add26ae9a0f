"""Rule-by-rule tests: Set Up and the Culture Table (Culture & Conquest)."""

from __future__ import annotations

import pytest

from engine import get_ruleset
from engine.dice import Dice
from engine.ruleset import OptionError
from engine.rulesets.culture_and_conquest import roll_cultures
from engine.rulesets.culture_and_conquest.model import CITY_NAMES, CULTURES, GameState

from .support import RULESET

NAMES = ["ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal", "ivy", "jon", "kim", "lee"]


def new_game(count: int, seed: int = 7, **options: object) -> GameState:
    return GameState.from_json(RULESET.new_game(NAMES[:count], options, seed))


@pytest.mark.parametrize("count", [2, 4, 12])
def test_each_player_starts_with_ten_populations_and_one_city(count: int) -> None:
    """Set Up: "Each Player starts with 10 Populations and 1 City." The ten start as
    Agriculture, like every new population (project decision)."""
    for seat in new_game(count).seats:
        assert seat.population == 10
        assert seat.pops["agriculture"] == 10
        assert len(seat.cities) == 1
        assert (seat.gold, seat.food, seat.leaders, seat.projects) == (0, 0, [], [])


@pytest.mark.parametrize("seed", range(6))
def test_the_culture_table_gives_a_culture_and_its_starting_advance(seed: int) -> None:
    """Set Up: "Randomly determine your Culture by rolling on the Culture Table." Culture
    Table: "D12 Roll Culture Starting Advance"; a culture another seat has is rerolled."""
    state = new_game(12, seed)
    table = dict(CULTURES)
    assert sorted(s.culture for s in state.seats) == sorted(table)
    for seat in state.seats:
        assert seat.advances == [table[seat.culture]]


def test_the_culture_is_the_d12_roll() -> None:
    """Culture Table: "1 Egyptian Engineering ... 12 Mongolian Equestrian" - a roll of n
    gives the n-th culture."""
    roll = Dice(5, 0, "ann", "culture").d(12)
    assert roll_cultures(["ann"], 5) == {"ann": CULTURES[roll - 1]}


def test_turn_order_by_rolling_high() -> None:
    """Set Up: "Determine Turn Order by rolling high." Ties keep the order seats were given."""
    rolls = {n: Dice(3, 0, n, "order of play").d(6) for n in NAMES[:6]}
    expected = sorted(NAMES[:6], key=lambda n: (-rolls[n], NAMES.index(n)))
    assert [s.name for s in new_game(6, 3).seats] == expected
    assert [s.letter for s in new_game(6, 3).seats] == list("ABCDEF")


def test_first_cities_are_the_cultures_own_or_the_first_free_names() -> None:
    """City Names: the starting city is named from the list: the culture's own city where the
    list has one (Roman: Rome), else the first name no other culture can claim."""
    state = new_game(12)
    names = [c.name for s in state.seats for c in s.cities]
    assert len(set(names)) == 12
    assert all(name in CITY_NAMES for name in names)
    roman = next(s for s in state.seats if s.culture == "Roman")
    assert roman.cities[0].name == "Rome"


@pytest.mark.parametrize("count", [0, 1, 13])
def test_two_to_twelve_seats(count: int) -> None:
    """Introduction: "Any number can play." Project decision: 2 to 12, one culture each from
    the twelve of the Culture Table."""
    with pytest.raises(OptionError, match="2 to 12 seats"):
        RULESET.new_game([f"p{i}" for i in range(count)], {}, 1)


def test_seat_names_must_differ() -> None:
    with pytest.raises(OptionError, match="differ"):
        RULESET.new_game(["ann", "ANN"], {}, 1)


def test_options_are_checked() -> None:
    with pytest.raises(OptionError, match="no option"):
        RULESET.new_game(["ann", "bob"], {"colour": "red"}, 1)
    state = new_game(2, starting_gold=9, mode="sequential")
    assert [s.gold for s in state.seats] == [9, 9]
    assert RULESET.seats_to_order(state.to_json()) == [state.seats[0].name]


def test_registered_by_id_and_aliases() -> None:
    assert get_ruleset("cnc") is RULESET
    assert get_ruleset("Culture") is RULESET
