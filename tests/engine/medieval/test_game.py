"""Whole games: bot orders read by the same parser, states through JSON and back, the same
seed the same game, one seat's changed orders leaving the others' dice alone, referee edits."""

from __future__ import annotations

import pytest

from engine import get_ruleset
from engine.playthrough import bot_game
from engine.ruleset import EditError

RULESET = get_ruleset("medieval-micromanager")
SEATS = ["ann", "bob", "cat", "dan"]


def test_the_aliases_find_the_ruleset() -> None:
    assert get_ruleset("mm") is RULESET
    assert get_ruleset("medieval") is RULESET


def test_a_bot_game_ends_by_the_goal_and_every_bot_order_reads() -> None:
    played = list(bot_game(RULESET.id, SEATS, 11))
    outcome = played[-1].resolution.outcome
    assert outcome is not None and outcome.reason.startswith("the goal")
    for turn in played:
        for seat, text in turn.order_texts.items():
            assert RULESET.parse_orders(turn.state_before, seat, text).problems == []


def test_every_state_survives_the_json_round_trip() -> None:
    for turn in bot_game(RULESET.id, SEATS, 3, max_turns=25):
        state = turn.resolution.state
        assert RULESET.load(state).to_json() == state  # type: ignore[attr-defined]


def test_the_same_seed_plays_the_same_game() -> None:
    one = [t.resolution.state for t in bot_game(RULESET.id, SEATS, 8, max_turns=12)]
    two = [t.resolution.state for t in bot_game(RULESET.id, SEATS, 8, max_turns=12)]
    assert one == two


def test_one_seats_orders_do_not_move_another_seats_dice() -> None:
    """Rerun a turn with ann's orders changed: every die of the other seats rolls the same."""
    played = list(bot_game(RULESET.id, SEATS, 4, max_turns=10))
    turn = played[-1]
    texts = dict(turn.order_texts)
    texts["ann"] = "WORK 1 farm1\n"
    parsed = {s: RULESET.parse_orders(turn.state_before, s, t) for s, t in texts.items()}
    again = RULESET.resolve(turn.state_before, parsed, 4)

    def others(events: list) -> list:  # type: ignore[type-arg]
        return [(e.seat, e.code, e.dice) for e in events if e.seat != "ann" and e.dice]

    assert others(again.events) == others(turn.resolution.events)


def test_a_referee_edit_changes_one_thing_and_a_bad_one_is_refused() -> None:
    state = RULESET.new_game(SEATS, {}, 1)
    edited = RULESET.edit(state, "building.ann.farm1.depletion", "2")
    farm = RULESET.load(edited).seat("ann").building("farm1")  # type: ignore[attr-defined]
    assert farm.depletion == 2
    edited = RULESET.edit(edited, "seat.bob.buildings", "+school")
    assert RULESET.load(edited).seat("bob").building("school1") is not None  # type: ignore[attr-defined]
    for path, value in [
        ("seat.zed.units", "3"),
        ("seat.ann.gold", "3"),
        ("seat.ann.units", "-1"),
        ("building.ann.castle1.damage", "1"),
        ("building.ann.farm1.depletion", "6"),
        ("seat.ann.buildings", "+castle"),
        ("nothing", "1"),
    ]:
        with pytest.raises(EditError):
            RULESET.edit(state, path, value)


def test_the_example_position_is_the_one_the_order_reference_describes() -> None:
    state = RULESET.example_position("")
    game = RULESET.load(state)  # type: ignore[attr-defined]
    ann = game.seat("ann")
    assert (ann.units, ann.housing(), ann.building("house2").damage) == (7, 7, 3)
