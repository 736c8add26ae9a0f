"""Play a whole game with bots, for the golden transcripts, the benchmark and `pbem demo`-like
checks. Pure: the same seed gives the same game."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from engine.kit import GameRuleset
from engine.records import Event, Outcome, Resolution
from engine.registry import get_ruleset
from engine.turns import seats_playing


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
        # The orders judged where they take effect, as the service plays them (no check reply)
        parsed = ruleset.orders_to_play_of(state, texts)
        resolution = ruleset.resolve(state, parsed, seed)
        yield TurnPlayed(number, state, texts, resolution)
        state = resolution.state


@dataclass
class TurnSketch:
    """What a balance report reads of one turn of a bot game."""

    order_texts: dict[str, str]
    events: list[Event]
    outcome: Outcome | None
    # The state after the turn, written out only when asked: ask before the next turn.
    state: Callable[[], dict[str, Any]]


def sketch_bot_game(
    ruleset_id: str,
    seats: Sequence[str],
    seed: int,
    options: dict[str, Any] | None = None,
    max_turns: int = 1000,
) -> Iterator[TurnSketch]:
    """The same game as `bot_game`, faster, for thousands of games (`pbem balance`): a kit
    ruleset plays on its typed state without writing it to JSON and reading it back between
    the steps of a turn (the contract suite proves the round trip loses nothing)."""
    ruleset = get_ruleset(ruleset_id)
    if not isinstance(ruleset, GameRuleset):
        for played in bot_game(ruleset_id, seats, seed, options, max_turns):
            resolution = played.resolution
            yield TurnSketch(
                played.order_texts,
                resolution.events,
                resolution.outcome,
                _given(resolution.state),
            )
        return
    parts = ruleset.parts
    game = ruleset.load(ruleset.new_game(seats, options or {}, seed))
    for _ in range(max_turns):
        if game.winners:
            return
        names = [seat.name for seat in seats_playing(game)]
        texts = {name: parts.bot(game, name, seed) for name in names}
        orders = {
            name: ruleset.judge_orders(
                game, name, texts[name], _copy(ruleset, game), notes=False
            ).orders
            for name in names
        }
        events = parts.play(game, orders, seed).events
        outcome = Outcome(tuple(game.winners), game.end_reason) if game.winners else None
        yield TurnSketch(texts, events, outcome, game.to_json)


def _copy(ruleset: GameRuleset[Any], game: Any) -> Callable[[], Any]:
    """Copies of the game as it is now, for the order check's rehearsals."""
    return lambda: ruleset.load(game.to_json())


def _given(state: dict[str, Any]) -> Callable[[], dict[str, Any]]:
    return lambda: state
