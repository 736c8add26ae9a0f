"""Every state of a seeded bot game is plain JSON that the ruleset reads back without losing
anything; the same seed plays the same game; resolve leaves the state it is given alone."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine import Ruleset
from engine.playthrough import bot_game

from .games import CASES, NAMES, case_id, dump, played

pytestmark = pytest.mark.parametrize(("ruleset", "options"), CASES, ids=case_id)


def assert_plain_json(data: Any, where: str = "state") -> None:
    """Only what json.loads gives back: dicts with str keys, lists, str, int, float, bool, None."""
    if isinstance(data, dict):
        for key, value in data.items():
            assert isinstance(key, str), f"{where}: key {key!r} is not a str"
            assert_plain_json(value, f"{where}.{key}")
    elif isinstance(data, list):
        for index, value in enumerate(data):
            assert_plain_json(value, f"{where}[{index}]")
    else:
        assert data is None or isinstance(data, str | int | float | bool), f"{where}: {data!r}"


def test_every_state_is_plain_json_the_ruleset_reads_back_unchanged(
    ruleset: Ruleset, options: dict[str, Any]
) -> None:
    game = played(ruleset, options, 11)
    assert len(game) > 5
    for turn in game:
        for state in (turn.state_before, turn.resolution.state):
            assert_plain_json(state)
            loaded = json.loads(json.dumps(state))
            assert loaded == state
            assert ruleset.normalise(loaded) == state, f"turn {turn.number}: reading lost data"
        record = turn.resolution.record_json()
        assert_plain_json(record, "record")
        assert json.loads(json.dumps(record)) == record


def test_a_stored_state_plays_on_exactly_as_the_live_one(
    ruleset: Ruleset, options: dict[str, Any]
) -> None:
    """The next turn from a state that went through JSON: same texts, same orders, same turn."""
    for turn in played(ruleset, options, 11)[::3]:
        stored = json.loads(json.dumps(turn.state_before))
        seats = ruleset.seats_to_order(stored)
        assert seats == ruleset.seats_to_order(turn.state_before)
        assert ruleset.turn_number(stored) == turn.number
        for seat in seats:
            assert ruleset.bot_orders(stored, seat, 11) == turn.order_texts[seat]
            assert ruleset.order_template(stored, seat) == ruleset.order_template(
                turn.state_before, seat
            )
        parsed = {s: ruleset.parse_orders(stored, s, t) for s, t in turn.order_texts.items()}
        again = ruleset.resolve(stored, parsed, 11)
        assert dump([again.state, again.record_json()]) == dump(
            [turn.resolution.state, turn.resolution.record_json()]
        )


def test_the_same_seed_gives_the_same_game_byte_for_byte(
    ruleset: Ruleset, options: dict[str, Any]
) -> None:
    def game(seed: int) -> list[str]:
        return [
            dump([t.resolution.state, t.resolution.record_json(), t.order_texts])
            for t in bot_game(ruleset.id, NAMES[:4], seed, options, max_turns=60)
        ]

    first = game(5)
    assert first == game(5)
    assert first != game(6)


def test_a_game_is_played_to_its_end(ruleset: Ruleset, options: dict[str, Any]) -> None:
    last = played(ruleset, options, 11)[-1]
    assert ruleset.outcome(last.resolution.state) is not None
    assert last.resolution.outcome == ruleset.outcome(last.resolution.state)
    assert ruleset.seats_to_order(last.resolution.state) == []


def test_resolve_does_not_change_the_state_it_is_given(
    ruleset: Ruleset, options: dict[str, Any]
) -> None:
    for turn in played(ruleset, options, 11)[:8]:
        frozen = dump(turn.state_before)
        parsed = {
            s: ruleset.parse_orders(turn.state_before, s, t) for s, t in turn.order_texts.items()
        }
        ruleset.resolve(turn.state_before, parsed, 11)
        assert dump(turn.state_before) == frozen
