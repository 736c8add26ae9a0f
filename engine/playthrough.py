"""Play a whole game with bots, for the golden transcripts, the benchmark and `pbem demo`-like
checks. Pure: the same seed gives the same game."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from engine.records import Resolution
from engine.registry import get_ruleset


@dataclass
class TurnPlayed:
    number: int
    state_before: dict[str, Any]
    order_texts: dict[str, str]
    resolution: Resolution


def bot_game(
    ruleset_id: str,
    seats: Sequence[str],
    seed: int,
    options: dict[str, Any] | None = None,
    max_turns: int = 1000,
) -> Iterator[TurnPlayed]:
    """Every turn of a bot game, until it ends or `max_turns` turns were played."""
    ruleset = get_ruleset(ruleset_id)
    state = ruleset.new_game(seats, options or {}, seed)
    for _ in range(max_turns):
        if ruleset.outcome(state):
            return
        number = ruleset.turn_number(state)
        texts = {
            seat: ruleset.bot_orders(state, seat, seed) for seat in ruleset.seats_to_order(state)
        }
        parsed = {seat: ruleset.parse_orders(state, seat, text) for seat, text in texts.items()}
        resolution = ruleset.resolve(state, parsed, seed)
        yield TurnPlayed(number, state, texts, resolution)
        state = resolution.state
