"""The project's completions of the fragment (docs/rules/tribes.md marks each): setup and map,
movement, food and hunger, growth, fame, victory and the order of play; edits."""

from __future__ import annotations

import pytest

from engine.hexgrid import distance
from engine.ruleset import EditError
from engine.rulesets.tribes.edits import edit
from engine.rulesets.tribes.hexmap import FIRST_RING, SECOND_RING
from engine.rulesets.tribes.model import SEA, SITES
from engine.rulesets.tribes.rules import OPTIONS
from engine.rulesets.tribes.setup import setup
from engine.rulesets.tribes.turn import play
from tests.engine.tribes.support import codes, game, notes, put, read, run

DEFAULTS = {o.name: o.default for o in OPTIONS}


@pytest.mark.parametrize("seats", [2, 4, 6, 8])
def test_every_home_has_the_same_sites_nearby(seats: int) -> None:
    """Completion: homes at least four hexes apart, each with game, wood and stone next to it,
    ore, game and wood two hexes away, and the sea within two hexes."""
    names = ["ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal"][:seats]
    state = setup(names, DEFAULTS, 11)
    homes = [state.held(name)[0] for name in names]
    assert all(distance(a, b) >= 4 for a in homes for b in homes if a != b)
    for home in homes:
        first = sorted(state.ground(n) for n in state.names() if distance(n, home) == 1)
        second = [state.ground(n) for n in state.names() if distance(n, home) == 2]
        assert all(first.count(s) >= 1 for s in FIRST_RING)
        assert all(second.count(s) >= 1 for s in SECOND_RING)
        assert SEA in second + first
        assert state.places[home].units.population == 3
        assert state.places[home].buildings == ["barracks"]
        assert state.ground(home) not in SITES


def test_a_land_unit_moves_one_hex_or_three_along_roads() -> None:
    """Completion: one hex; up to three when every hex of the way has a road."""
    state = game()
    assert read(state, "ann", "MOVE C3 B3 1 MELEE").problems == []
    problems = read(state, "ann", "MOVE C3 B3 A3 1 MELEE").problems
    assert problems and "too far" in problems[0].message
    put(state, "E3", "", ("road",))
    assert read(state, "ann", "MOVE C3 D3 E3 2 MELEE").problems == []
    run(state, {"ann": "MOVE C3 D3 E3 2 MELEE"})
    assert state.places["E3"].units.melee == 2 and state.places["E3"].owner == "ann"


def test_ships_sail_two_sea_hexes_and_no_one_enters_a_foreign_hex() -> None:
    """Completion: a ship moves up to two sea hexes; no unit enters another tribe's hex."""
    state = game()
    run(state, {"ann": "MOVE F2 G2 H2"})
    assert state.places["H2"].units.ship == 1
    state = game()
    problems = read(state, "ann", "MOVE C3 C4 1 MELEE").problems
    assert problems and "ATTACK it instead" in problems[0].message
    problems = read(state, "ann", "MOVE F2 E2").problems
    assert problems and "only on sea" in problems[0].message


def test_a_move_an_earlier_tribe_made_impossible_is_skipped() -> None:
    """Round mode: each order is checked again when its phase comes."""
    state = game()
    state.seats = [state.seat("bob"), *[s for s in state.seats if s.name != "bob"]]
    put(state, "C4", "bob", ("barracks",), population=1, melee=1)
    rec = run(state, {"bob": "MOVE C4 B4 1 MELEE", "ann": "MOVE C3 B4 1 MELEE"})
    assert notes(rec, "ann") == [
        "skipped: B4 holds bob's units: ATTACK it instead; rule: Movement (completion)"
    ]


def test_hunger_chip_and_fame_lost_when_food_runs_short() -> None:
    """Completion: every population unit eats one food; short of food, a hunger chip and
    -1 fame; a turn fed in full gives a chip back."""
    state = game()
    ann = state.seat("ann")
    put(state, "C3", "ann", ("barracks",), population=12)
    ann.food, fame = 0, ann.fame
    rec = run(state, {"ann": "BUILD C3 FARM\nBUILD D3 FARM\nBUILD E2 FARM"})
    assert "hunger" in codes(rec, "ann")
    assert (ann.hunger, ann.fame) == (1, fame + 1 - 1)  # +1 the first farm, -1 hunger
    run(state, {})
    assert ann.hunger == 0


def test_growth_from_food_left_over() -> None:
    """Completion: without a hunger chip, each 3 food left makes a population unit, at most 2
    a turn, where GROW says."""
    state = game()
    state.seat("ann").food = 20
    rec = run(state, {"ann": "GROW D3\nGROW E2\nGROW C3"})
    assert state.places["D3"].units.population == 2 and state.places["E2"].units.population == 3
    assert notes(rec, "ann")[2].startswith("skipped")


def test_a_worked_shrine_wins_a_fame_point_each_turn() -> None:
    """Completion: +1 fame a turn for each shrine with a worker."""
    state = game()
    state.places["D3"].buildings = ["shrine", "road"]
    fame = state.seat("ann").fame
    run(state, {})
    assert state.seat("ann").fame == fame + 1


def test_fame_wins_at_the_end_of_the_round_ties_share() -> None:
    """Completion: at the end of a round the most fame wins once it reaches fame_to_win."""
    state = game()
    state.seat("ann").fame = 15
    state.seat("cat").fame = 15
    play(state, {}, 1)
    assert state.winners == ["ann", "cat"]
    assert "reached 15 fame of 15" in state.end_reason


def test_the_last_tribe_left_wins() -> None:
    """Completion: a tribe with no units is out; the last one left wins."""
    state = game()
    for name in list(state.places):
        if state.places[name].owner in ("bob", "cat"):
            del state.places[name]
    play(state, {}, 1)
    assert state.winners == [] and not state.seat("bob").alive
    state.places = {n: p for n, p in state.places.items() if p.owner != "dan"}
    play(state, {}, 1)
    assert state.winners == ["ann"] and state.end_reason == "the last tribe left"


def test_the_order_of_play_moves_round_by_round() -> None:
    """Completion: the tribe that played first plays last the next round."""
    state = game()
    play(state, {}, 1)
    assert [s.name for s in state.seats] == ["bob", "cat", "dan", "ann"]


def test_the_turn_limit_gives_the_most_fame_the_win() -> None:
    """Option turn_limit (60 by default): the most fame then wins."""
    state = game()
    state.options["turn_limit"] = 1
    state.seat("dan").fame = 9
    play(state, {}, 1)
    assert state.winners == ["dan"]


def test_referee_edits() -> None:
    """Edits: seat stocks and upgrades, hex owners, units and buildings, each checked."""
    state = game()
    edit(state, "seat.ann.money", "30")
    edit(state, "seat.bob.melee", "2")
    edit(state, "units.B2.cat.melee", "3")
    edit(state, "hex.B2.fortress", "yes")
    edit(state, "hex.C4.owner", "dan")
    assert state.places["C4"].owner == "dan"
    assert state.seat("ann").money == 30 and state.seat("bob").melee == 2
    assert state.places["B2"].units.melee == 3 and state.places["B2"].has("fortress")
    for path, value in [
        ("seat.bob.melee", "3"),
        ("units.Z9.ann.melee", "1"),
        ("units.B2.ann.melee", "1"),
        ("units.B2.cat.ship", "1"),
        ("hex.A1.owner", "ann"),
        ("seat.ann.gold", "1"),
    ]:
        with pytest.raises(EditError):
            edit(state, path, value)
