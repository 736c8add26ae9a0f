"""The options where players could disagree: unit_limit, homeless, tokens, mode."""

from __future__ import annotations

from engine.rulesets.classical import economy
from engine.rulesets.classical.mapview import map_lines

from .support import RULESET, city, make_state, play, problems, put, scripted_turn, village


def test_unit_limit_in_all_counts_the_units_held() -> None:
    """Option unit_limit 'in all': 1 + Government + cities units at once."""
    state = make_state(options={"unit_limit": "in all"})  # ann: Government 1
    city(state, "A1", "ann", units=2)
    assert problems(state, "ann", "RECRUIT A1") == []
    assert problems(state, "ann", "RECRUIT A1 2") != []
    turn = scripted_turn(state, "ann", "RECRUIT A1", pool={"iron": 5})
    economy.recruit(turn)
    assert state.space("A1").units_of("ann") == 3


def test_homeless_refound_lets_a_seat_settle_anywhere() -> None:
    """Option homeless 'refound': a seat without settlements places its free village on any
    empty land, and is not out while it can."""
    state = make_state(("ann", "bob", "cat"), options={"homeless": "refound"})
    city(state, "A1", "bob")
    city(state, "G3", "cat")
    assert problems(state, "ann", "SETTLE E1") == []
    state, _ = play(state, {"ann": "SETTLE E1"})
    assert state.seat("ann").alive and state.space("E1").owner == "ann"


def test_reduced_tokens_count_settlement_tokens_on_the_map() -> None:
    """Token Reduction: "Settlement Tokens- 1 in a space represents a village. 2 in a space
    represents a city. 3+ in a space represents a city with monuments." """
    state = make_state(options={"tokens": "reduced"})
    city(state, "A1", "ann", monuments=2)
    village(state, "E1", "bob")
    text = "\n".join(map_lines(state, "ann"))
    assert "A4" in text and "B1" in text


def test_sequential_mode_plays_one_seat_at_a_time() -> None:
    """Option mode 'sequential': only the active seat plays; the turn passes on."""
    state = make_state(options={"mode": "sequential"})
    city(state, "A1", "ann")
    city(state, "G3", "bob")
    state, resolution = play(state)
    assert {e.seat for e in resolution.events if e.code == "produce"} == {"ann"}
    assert state.active == 1 and state.round == 1
    state, _ = play(state)
    assert state.active == 0 and state.round == 2


def test_a_fleet_makes_land_next_to_it_settleable() -> None:
    """Settle: villages may go next to "your ... fleets" - across the sea."""
    state = make_state()
    put(state, "C3", "ann", units=1)
    city(state, "A1", "ann")
    assert problems(state, "ann", "SETTLE E3") == []


def test_the_setup_turn_asks_every_seat_in_sequential_mode() -> None:
    """Setup by mail: every seat picks and places in the setup turn, whatever the mode."""
    state = RULESET.new_game(["ann", "bob", "cat"], {"mode": "sequential"}, 2)
    assert RULESET.seats_to_order(state) == ["ann", "bob", "cat"]
    resolution = RULESET.resolve(state, {}, 2)
    assert RULESET.seats_to_order(resolution.state) == ["ann"]
