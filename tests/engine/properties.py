"""Property checks both rulesets' tests share: random orders (drawn by the ruleset's own
generator) resolve, every accepted order is answered and the ruleset's invariants hold; bot
games keep the invariants. Each check runs its examples itself, so a test that uses it depends
on no other test having run."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.playthrough import bot_game
from engine.ruleset import Ruleset, State

QUICK = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
# Draws one seat's order text on a position: (data, position, seat) -> text
OrderText = Callable[[st.DataObject, State, str], str]
# Checks a state after a turn (and the state before it): raises AssertionError when broken
Invariants = Callable[[State, State], None]


def check_random_orders(
    ruleset: Ruleset,
    positions: Sequence[State],
    order_text: OrderText,
    invariants: Invariants,
    examples: int,
) -> None:
    accepted: list[int] = []

    @settings(QUICK, max_examples=examples)
    @given(data=st.data(), position=st.sampled_from(list(positions)))
    def one_turn(data: st.DataObject, position: State) -> None:
        seats = ruleset.seats_to_order(position)
        texts = {seat: order_text(data, position, seat) for seat in seats}
        parsed = {seat: ruleset.parse_orders(position, seat, texts[seat]) for seat in seats}
        accepted.append(sum(len(p.orders) for p in parsed.values()))
        resolution = ruleset.resolve(position, parsed, 99)
        invariants(position, resolution.state)
        for seat, orders in parsed.items():
            answered = sorted(r.line_no for r in resolution.results.get(seat, []))
            assert answered == sorted(o.line_no for o in orders.orders)

    one_turn()
    # Guards the generator: random orders that were all rejected would test nothing.
    assert sum(accepted) > len(accepted), accepted


def check_bot_games(
    ruleset: Ruleset,
    seats: Sequence[str],
    options: Callable[[bool], dict[str, Any]],
    invariants: Invariants,
    examples: int,
    max_turns: int,
) -> None:
    """Bot games from random seeds (and a random variant, options(flag)) keep the invariants
    and their bots write only orders without a problem."""

    @settings(QUICK, max_examples=examples)
    @given(seed=st.integers(min_value=0, max_value=2**32), flag=st.booleans())
    def one_game(seed: int, flag: bool) -> None:
        for played in bot_game(ruleset.id, seats, seed, options(flag), max_turns=max_turns):
            for seat, text in played.order_texts.items():
                problems = ruleset.parse_orders(played.state_before, seat, text).problems
                assert problems == [], (seat, text, [p.describe() for p in problems])
            invariants(played.state_before, played.resolution.state)

    one_game()
