"""Deterministic turns: same inputs, same outputs byte for byte; a corrected seat leaves the
other seats' dice alone; every state survives the JSON round trip."""

from __future__ import annotations

import json

from engine import get_ruleset
from engine.playthrough import bot_game
from engine.rulesets.culture_and_conquest.model import GameState

SEATS = ["ann", "bob", "cat", "dan"]
RULESET = get_ruleset("culture-and-conquest")


def _dump(data: object) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def test_every_state_of_a_seeded_game_survives_the_json_round_trip() -> None:
    states = 0
    for played in bot_game("culture-and-conquest", SEATS, 11):
        for state in (played.state_before, played.resolution.state):
            assert json.loads(_dump(state)) == state
            assert GameState.from_json(state).to_json() == state
            states += 1
        record = played.resolution.record_json()
        assert json.loads(_dump(record)) == record
    assert states > 20


def test_the_same_seed_gives_the_same_game_byte_for_byte() -> None:
    def game() -> list[str]:
        return [
            _dump([p.resolution.state, p.resolution.record_json(), p.order_texts])
            for p in bot_game("culture-and-conquest", SEATS, 5)
        ]

    first, second = game(), game()
    assert first == second
    assert RULESET.outcome(json.loads(first[-1])[0]) is not None


def test_different_seeds_give_different_games() -> None:
    one = [RULESET.new_game(SEATS, {}, seed) for seed in (1, 2, 3)]
    assert len({_dump(state) for state in one}) == 3


def test_correcting_one_seats_orders_leaves_the_other_seats_dice_unchanged() -> None:
    """Rerun a turn with one seat's orders changed: every other seat rolls exactly as before,
    in every stream (Dice(seed, round, seat, purpose))."""
    played = list(bot_game("culture-and-conquest", SEATS, 3, max_turns=6))[-1]
    state, texts = played.state_before, dict(played.order_texts)
    changed = SEATS[0]
    corrected = dict(texts, **{changed: "MOVE 1 AGRICULTURE TO SCHOLARS\n# corrected\n"})

    def rerun(order_texts: dict[str, str]) -> dict[str, list[tuple[str, tuple[int, ...]]]]:
        parsed = {s: RULESET.parse_orders(state, s, t) for s, t in order_texts.items()}
        resolution = RULESET.resolve(state, parsed, 3)
        dice: dict[str, list[tuple[str, tuple[int, ...]]]] = {}
        for event in resolution.events:
            if event.dice and event.code not in ("war", "tribute"):
                dice.setdefault(event.seat, []).append((event.code, event.dice))
        return dice

    before, after = rerun(texts), rerun(corrected)
    for seat in set(SEATS) - {changed}:
        assert before[seat] == after[seat]
        assert before[seat]  # they did roll
    assert texts[changed] != corrected[changed]


def test_resolve_does_not_change_the_state_it_is_given() -> None:
    state = RULESET.new_game(SEATS, {}, 9)
    frozen = _dump(state)
    orders = {s: RULESET.parse_orders(state, s, RULESET.bot_orders(state, s, 9)) for s in SEATS}
    RULESET.resolve(state, orders, 9)
    assert _dump(state) == frozen


MAP = {"map": "generated"}


def test_a_map_game_survives_the_json_round_trip_and_repeats_byte_for_byte() -> None:
    """The map version: every state round-trips, and the same seed plays the same game."""

    def game() -> list[str]:
        dumps = []
        for played in bot_game("culture-and-conquest", SEATS, 12, MAP, max_turns=25):
            state = played.resolution.state
            assert GameState.from_json(state).to_json() == state
            dumps.append(_dump([state, played.resolution.record_json(), played.order_texts]))
        return dumps

    first = game()
    assert first == game()
    assert '"map"' in first[0]


def test_on_the_map_correcting_one_seat_leaves_the_others_dice_unchanged() -> None:
    played = list(bot_game("culture-and-conquest", SEATS, 3, MAP, max_turns=6))[-1]
    state, texts = played.state_before, dict(played.order_texts)
    corrected = dict(texts, **{SEATS[0]: "MOVE 1 AGRICULTURE TO SCHOLARS\n"})

    def rerun(order_texts: dict[str, str]) -> dict[str, list[tuple[str, tuple[int, ...]]]]:
        parsed = {s: RULESET.parse_orders(state, s, t) for s, t in order_texts.items()}
        dice: dict[str, list[tuple[str, tuple[int, ...]]]] = {}
        for event in RULESET.resolve(state, parsed, 3).events:
            if event.dice and event.code not in ("war", "tribute"):
                dice.setdefault(event.seat, []).append((event.code, event.dice))
        return dice

    before, after = rerun(texts), rerun(corrected)
    for seat in SEATS[1:]:
        assert before[seat] == after[seat]
