"""Rule-by-rule tests: Research, Score, victory and the end of a seat."""

from __future__ import annotations

from engine.rulesets.classical import economy
from engine.rulesets.classical.model import TRAITS

from .support import city, make_state, play, put, scripted_turn


def test_one_free_roll_and_one_more_per_science_level() -> None:
    """Research: "You get one free roll on the Research Table. Get 1 extra roll for every
    level in Science you have." """
    state = make_state()
    state.seat("ann").levels = {"science": 2}
    turn = scripted_turn(state, "ann", dice={"research": [1, 2, 4]})
    economy.research(turn)
    assert turn.rec.events[-1].dice == (1, 2, 4)


def test_paid_rolls_cost_1_then_2_then_3_resources() -> None:
    """Research: "You may pay 1 resource of any type to get an extra roll. You may pay 2
    resources of any type to get a second extra roll. You may pay 3 ..." """
    state = make_state()
    state.seat("ann").levels = {}
    turn = scripted_turn(state, "ann", "RESEARCH 3", dice={"research": [1, 1, 1]}, pool={"wood": 4})
    economy.research(turn)  # 1 + 2 paid; the third would need 3 more
    assert turn.pool["wood"] == 1 and len(turn.rec.events[-1].dice) == 3


def test_the_research_table_gives_a_point_in_the_rolled_trait() -> None:
    """Research: "When you make a roll you gain a research point in the indicated trait."
    (1D12: 1 Nautical ... 12 Religion)"""
    state = make_state()
    state.seat("ann").levels = {"arts": 5}
    turn = scripted_turn(state, "ann", dice={"research": [3]})
    economy.research(turn)
    assert state.seat("ann").points["arts"] == 1
    assert TRAITS[11] == "religion" and TRAITS[0] == "nautical"


def test_a_level_when_points_exceed_the_level_by_one() -> None:
    """Research: "When the number of research points you have in a trait exceeds your level
    in that trait by one, you gain 1 level in that trait and your current number of research
    points (RP) in that trait is reset to zero." (1 RP to level 1, 2 more to level 2)"""
    state = make_state()
    seat = state.seat("ann")
    seat.levels = {}
    turn = scripted_turn(state, "ann", dice={"research": [3]})
    economy.research(turn)
    assert (seat.level("arts"), seat.points["arts"]) == (1, 0)
    for expected in ((1, 1), (2, 0)):
        turn = scripted_turn(state, "ann", dice={"research": [3]})
        economy.research(turn)
        assert (seat.level("arts"), seat.points["arts"]) == expected


def test_score_a_vp_per_monument_controlled_plus_the_arts_level() -> None:
    """Score: "Gain 1 Victory Point (VP) for every Monument you control. Gain 1 VP equal to
    your current level in the Arts." """
    state = make_state()
    state.seat("ann").levels = {"arts": 2}
    city(state, "A1", "ann", monuments=3)
    put(state, "C1", "ann", "village", monuments=1)
    turn = scripted_turn(state, "ann")
    economy.score(turn)
    assert state.seat("ann").vp == 6


def test_the_first_to_100_vp_wins() -> None:
    """ "The first player to accumulate 100+ Victory Points is the winner." - the first in
    turn order to reach it, at the end of his turn (option same_round_win 'first')."""
    state = make_state()
    city(state, "A1", "ann", monuments=1)
    city(state, "G3", "bob", monuments=5)
    state.seat("ann").vp, state.seat("bob").vp = 99, 99
    state, resolution = play(state)
    assert state.winners == ["ann"] and resolution.outcome is not None


def test_same_round_win_round_lets_the_round_finish() -> None:
    """Option same_round_win 'round': the most VP among those who reached it win."""
    state = make_state(options={"same_round_win": "round"})
    state.seat("ann").levels = {}
    state.seat("bob").levels = {}
    city(state, "A1", "ann", monuments=1)
    city(state, "G3", "bob", monuments=5)
    state.seat("ann").vp, state.seat("bob").vp = 99, 99
    state, _ = play(state)
    assert state.winners == ["bob"]


def test_a_seat_with_no_settlement_and_no_unit_is_out() -> None:
    """Decision (option homeless 'out'): a seat that holds no settlement and no unit is out;
    the last seat in the game wins."""
    state = make_state(("ann", "bob", "cat"))
    city(state, "A1", "ann")
    city(state, "G3", "bob")
    state, resolution = play(state)
    assert not state.seat("cat").alive
    assert "eliminated" in [e.code for e in resolution.events]
