"""Rule-by-rule tests: the setup turn (civilizations and first cities), turn order and the
options that change them."""

from __future__ import annotations

from engine.records import Resolution
from engine.rulesets.classical.model import CITY, CIVILIZATIONS, GameState
from engine.rulesets.classical.rules import RULES

from .support import RULESET, city, make_state, play, problems


def _setup_state(seats: tuple[str, ...] = ("ann", "bob"), **options: object) -> GameState:
    state = make_state(seats, options=dict(options))
    for seat in state.seats:
        seat.civilization, seat.levels = "", {}
    state.setup, state.step = True, 1
    return state


def test_each_player_picks_one_civilization_with_its_starting_traits() -> None:
    """ "Each player must pick one Civilization." - with its Starting Traits at level 1
    (Romans: Government 1 Engineering 1)."""
    state, _ = play(_setup_state(), {"ann": "CIVILIZATION Romans\nCITY A1"})
    ann = state.seat("ann")
    assert ann.civilization == "Romans"
    assert ann.levels == {"government": 1, "engineering": 1}


def test_a_civilization_taken_by_an_earlier_seat_goes_to_the_next_wish() -> None:
    """Decision: seats are served in seat order, each the first civilization of its list still
    free; none named or none free: one is drawn."""
    state, resolution = play(
        _setup_state(),
        {"ann": "CIVILIZATION Goths", "bob": "CIVILIZATION Goths, Celts"},
    )
    assert [s.civilization for s in state.seats] == ["Goths", "Celts"]
    [bob] = resolution.results["bob"]
    assert bob.note == "your first choice was taken"
    state, _ = play(_setup_state(), {"ann": "CIVILIZATION Goths"})
    assert state.seat("bob").civilization in CIVILIZATIONS


def test_civilizations_dealt_at_random_by_option() -> None:
    """Option civilizations 'random': dealt at setup, one each."""
    state = RULESET.load(RULESET.new_game(["ann", "bob", "cat"], {"civilizations": "random"}, 4))
    dealt = [s.civilization for s in state.seats]
    assert all(dealt) and len(set(dealt)) == 3


def test_the_first_city_goes_where_the_player_chooses() -> None:
    """ "Each player starts with 1 City placed in one territory of their choice." """
    state, _ = play(_setup_state(), {"ann": "CITY E1", "bob": "CITY A3"})
    assert (state.space("E1").owner, state.space("E1").settlement) == ("ann", CITY)
    assert state.space("A3").owner == "bob"


def test_no_first_city_within_2_spaces_of_another_city() -> None:
    """ "Players may not place within 2 spaces of another City." - the later seat in seat
    order gets a site chosen for it, and the report says so."""
    state = make_state()
    city(state, "A1", "bob")
    assert problems(_with_setup(state), "ann", "CITY E1")[0].rule == RULES["placement"]
    state, resolution = play(_setup_state(), {"ann": "CITY A1", "bob": "CITY C1"})
    assert state.space("C1").owner == ""
    bob_city = [n for n in state.board.territories if state.space(n).owner == "bob"]
    assert bob_city and "C1 was refused" in _event(resolution, "first_city", "bob")


def _with_setup(state: GameState) -> GameState:
    state.setup = True
    return state


def _event(resolution: Resolution, code: str, seat: str) -> str:
    return next(e.text for e in resolution.events if e.code == code and e.seat == seat)


def test_a_seat_that_sends_nothing_gets_a_valid_placement() -> None:
    """Setup by mail: a seat that sends nothing gets a placement chosen for it."""
    state, resolution = play(_setup_state())
    assert all(state.settlements(s.name) for s in state.seats)
    assert "no CITY order" in _event(resolution, "first_city", "ann")


def test_the_oldest_player_goes_first_becomes_seat_order() -> None:
    """ "The oldest player goes first." - by mail the seats play in the order they were listed
    (option first_player 'seats'); 'random' draws an order."""
    names = ["ann", "bob", "cat", "dan"]
    state = RULESET.load(RULESET.new_game(names, {}, 5))
    assert [s.name for s in state.seats] == names
    drawn = [RULESET.load(RULESET.new_game(names, {"first_player": "random"}, n)) for n in range(6)]
    assert any([s.name for s in d.seats] != names for d in drawn)


def test_rotate_first_passes_the_first_turn_on_each_round() -> None:
    """Option rotate_first: the seat that went first plays last in the next round."""
    state = make_state(options={"rotate_first": True})
    city(state, "A1", "ann")
    city(state, "G3", "bob")
    state, _ = play(state)
    assert [s.name for s in state.seats] == ["bob", "ann"]


def test_setup_orders_wait_for_the_setup_turn_and_others_for_play() -> None:
    """Decision: CIVILIZATION and CITY are the orders of the setup turn only."""
    assert problems(_setup_state(), "ann", "MOVE A1 C1")[0].rule == RULES["setup_turn"]


def test_a_crowded_map_still_gives_the_farthest_free_land() -> None:
    """Decision: when the cities placed leave no land 3 spaces from every city, the seat's
    city goes on the free land farthest from them (the rule cannot be kept)."""
    state = _setup_state(("ann", "bob", "cat"))
    state, resolution = play(state, {"ann": "CITY A1", "bob": "CITY G3"})
    cat_city = state.settlements("cat")
    assert cat_city == ["E1"]  # 2 spaces from both cities; every other land is 1
    assert "no CITY order" in _event(resolution, "first_city", "cat")
