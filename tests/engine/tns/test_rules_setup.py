"""Rule-by-rule tests: Setup and Order of play (Temples and Swords v1.1)."""

from __future__ import annotations

import itertools

import pytest

from engine.dice import Dice
from engine.hexgrid import distance
from engine.ruleset import OptionError
from engine.rulesets.temples_and_swords.hexmap import map_size
from engine.rulesets.temples_and_swords.model import GameState

from .support import RULESET

NAMES = ["ann", "bob", "cid", "dee", "eve", "fay", "gus", "hal"]
SEAT_COUNTS = range(2, 9)


def new_game(count: int, seed: int = 7, **options: object) -> GameState:
    return GameState.from_json(RULESET.new_game(NAMES[:count], options, seed))


@pytest.mark.parametrize("count", SEAT_COUNTS)
def test_equal_numbers_of_grassland_and_desert(count: int) -> None:
    """Setup: "Use a piece of hex paper and color equal numbers of squares green for grassland
    and yellow for desert." """
    rows = new_game(count).terrain.rows
    cells = "".join(rows)
    assert set(cells) == {"g", "d"}
    assert cells.count("g") == cells.count("d")


@pytest.mark.parametrize("count", SEAT_COUNTS)
def test_each_seat_starts_on_grassland_with_a_city_and_three_population(count: int) -> None:
    """Setup: "Each player chooses a starting grassland hex and puts a city and 3 population
    points on that hex." """
    state = new_game(count)
    for seat in state.seats:
        owned = state.owned(seat.name)
        assert len(owned) == 1
        start = state.hexes[owned[0]]
        assert state.terrain.terrain(owned[0]) == "g"
        assert (start.pop, start.laborers, start.projects) == (3, 0, ["city"])
    assert state.armies == {}


@pytest.mark.parametrize("count", SEAT_COUNTS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_no_two_starts_closer_than_three_hexes(count: int, seed: int) -> None:
    """Setup: "No two starting hexes may be closer than three hexes from each other." """
    state = new_game(count, seed)
    starts = [state.owned(s.name)[0] for s in state.seats]
    assert len(set(starts)) == count
    assert min(distance(a, b) for a, b in itertools.combinations(starts, 2)) >= 3


def test_the_map_grows_with_the_number_of_seats() -> None:
    """Decision 6 (docs/rules/temples-and-swords.md): "Map size: about 20 hexes a seat ...;
    grassland grows in clumps to exactly half the map", for 2 to 8 seats."""
    sizes = {count: map_size(count) for count in SEAT_COUNTS}
    assert sizes[2] == (7, 6)
    assert sizes[8] == (16, 11)
    for count, (width, height) in sizes.items():
        assert (width * height) % 2 == 0
        assert width * height >= 20 * count
        assert (width, height) == (
            len(new_game(count).terrain.rows[0]),
            new_game(count).terrain.height,
        )


@pytest.mark.parametrize("count", [0, 1, 9])
def test_two_to_eight_seats(count: int) -> None:
    """Project decision (TemplesAndSwords.min_seats/max_seats): a game takes 2 to 8 seats."""
    with pytest.raises(OptionError, match="2 to 8 seats"):
        RULESET.new_game(NAMES[:count] + ["x"] * max(0, count - 8), {}, 1)


def test_seat_names_must_differ() -> None:
    """Project decision (new_game): seat names must differ, in any case."""
    with pytest.raises(OptionError, match="must differ"):
        RULESET.new_game(["ann", "ANN"], {}, 1)


def high_roller(names: list[str], seed: int) -> tuple[str, int]:
    """Who rolls highest on the game's "order of play" dice, rolling again among ties; and how
    many rounds of rolls that took."""
    rolling, attempt = list(names), 0
    while len(rolling) > 1:
        rolls = {n: Dice(seed, 0, n, f"order of play:{attempt}").d(6) for n in rolling}
        rolling = [n for n in rolling if rolls[n] == max(rolls.values())]
        attempt += 1
    return rolling[0], attempt


@pytest.mark.parametrize("seed", range(1, 13))
def test_order_of_play_high_roll_starts_then_clockwise(seed: int) -> None:
    """Order of play: "Each player rolls a dice. High roll starts, then play goes clockwise."
    (Project decision, new_game: clockwise is the order the seats were listed in; ties for the
    high roll roll again.) Seats are stored in order of play, lettered A, B, C..."""
    names = NAMES[:5]
    state = GameState.from_json(RULESET.new_game(names, {}, seed))
    first, _ = high_roller(names, seed)
    start = names.index(first)
    assert [s.name for s in state.seats] == names[start:] + names[:start]
    assert [s.letter for s in state.seats] == list("ABCDE")


def test_order_of_play_ties_for_the_high_roll_roll_again() -> None:
    """Order of play: "High roll starts" - one seat starts; those tied roll again."""
    names = NAMES[:5]
    seeds = [seed for seed in range(1, 60) if high_roller(names, seed)[1] > 1]
    assert seeds, "no seed in 1..59 with a tie for the high roll"
    for seed in seeds[:3]:
        state = GameState.from_json(RULESET.new_game(names, {}, seed))
        assert state.seats[0].name == high_roller(names, seed)[0]


def test_order_of_play_is_not_simply_the_listing_order() -> None:
    """Order of play: "High roll starts" - a later-listed seat with the high roll plays first."""
    for seed in range(1, 50):
        if high_roller(["ann", "bob"], seed)[0] == "bob":
            state = GameState.from_json(RULESET.new_game(["ann", "bob"], {}, seed))
            assert [s.name for s in state.seats] == ["bob", "ann"]
            return
    raise AssertionError("no seed in 1..49 where bob outrolls ann")


def test_starting_gold_option() -> None:
    """Option starting_gold: "gold each seat starts with (the text is silent)", default 5."""
    assert [s.gold for s in new_game(3).seats] == [5, 5, 5]
    assert [s.gold for s in new_game(2, starting_gold=12).seats] == [12, 12]


def test_unknown_option_is_refused() -> None:
    """Project decision (Ruleset.resolve_options): unknown option names are refused."""
    with pytest.raises(OptionError):
        RULESET.new_game(["ann", "bob"], {"victory_pionts": 12}, 1)


def test_new_game_is_deterministic_and_survives_the_json_round_trip() -> None:
    """Design: "States serialise to plain JSON and back with nothing lost"; "Deterministic
    turns: all dice come from a RNG derived from (game seed, turn, seat, purpose)"."""
    first = RULESET.new_game(NAMES[:4], {}, 11)
    assert first == RULESET.new_game(NAMES[:4], {}, 11)
    assert GameState.from_json(first).to_json() == first
    assert (first["round"], first["step"], first["winners"]) == (1, 1, [])
