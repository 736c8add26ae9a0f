"""Resolving a turn: standing orders first, then each seat's turn phase by phase (all seats in
round mode, the active seat in sequential mode), victory checked at the end of every seat's turn."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from engine.recorder import Recorder
from engine.records import Outcome, Resolution
from engine.rulesets.temples_and_swords.economy import build, distribution, tax, tech, upkeep
from engine.rulesets.temples_and_swords.model import GameState
from engine.rulesets.temples_and_swords.nature import disaster, population_change
from engine.rulesets.temples_and_swords.orders import (
    AdvancePreference,
    Defend,
    Losses,
    Order,
)
from engine.rulesets.temples_and_swords.scoring import eliminate, victory_after_turn, victory_points
from engine.rulesets.temples_and_swords.seat_turn import PHASES, SeatTurn
from engine.rulesets.temples_and_swords.war import war
from engine.turns import advance_clock, finish, seats_playing, skip_unplayed

PHASE_STEPS: tuple[Callable[[SeatTurn], None], ...] = (
    distribution,
    upkeep,
    tech,
    war,
    build,
    tax,
    disaster,
    population_change,
)


def resolve_turn(state: GameState, orders: Mapping[str, Sequence[Order]], seed: int) -> Resolution:
    """Play the pending turn on `state` (which it changes) and return the record."""
    if state.winners:
        raise ValueError("the game is over")
    rec = Recorder()
    _standing_orders(state, orders, rec)
    for seat in seats_playing(state):
        turn = SeatTurn(state, seat, list(orders.get(seat.name, ())), rec, seed)
        _play(turn)
        eliminate(state, rec)
        reason = victory_after_turn(state, seat.name)
        if reason:
            finish(state, rec, [seat.name], reason)
            break
    skip_unplayed(state, orders, rec)
    if advance_clock(state):
        _end_round(state, rec)
    rec.sort_results()
    state.tidy()
    outcome = Outcome(tuple(state.winners), state.end_reason) if state.winners else None
    return Resolution(state.to_json(), rec.events, rec.results, outcome)


def _play(turn: SeatTurn) -> None:
    if not turn.seat.alive:
        return
    for phase, step in zip(PHASES, PHASE_STEPS, strict=True):
        turn.phase = phase
        step(turn)


def _standing_orders(
    state: GameState, orders: Mapping[str, Sequence[Order]], rec: Recorder
) -> None:
    """Standing orders take effect before any seat plays, so that a defence ordered this turn
    holds against an attack by a seat that plays earlier."""
    for seat in state.seats:
        preference: list[str] = []  # several ADVANCE lines make one list, in order
        for order in orders.get(seat.name, ()):
            if isinstance(order, AdvancePreference):
                preference += [a for a in order.advances if a not in preference]
                seat.standing.advance_preference = list(preference)
            elif isinstance(order, Defend):
                seat.standing.defend_use = order.use
            elif isinstance(order, Losses):
                seat.standing.losses = list(order.kinds)
            else:
                continue
            rec.done(seat.name, order, "standing order recorded")


def _end_round(state: GameState, rec: Recorder) -> None:
    limit = state.options["turn_limit"]
    if not state.winners and limit and state.round >= limit:
        scores = {s.name: victory_points(state, s.name) for s in state.seats if s.alive}
        best = max(scores.values())
        finish(
            state,
            rec,
            [n for n, v in scores.items() if v == best],
            f"turn limit {limit} reached with {best} VP",
        )
    state.round += 1
