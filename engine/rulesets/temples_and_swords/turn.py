"""Resolving a turn: standing orders first, then each seat's turn phase by phase (all seats in
round mode, the active seat in sequential mode), victory checked at the end of every seat's turn."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence

from engine.recorder import Recorder
from engine.rehearsal import Phases, phase_by_phase, play_phases
from engine.rulesets.temples_and_swords.economy import build, distribution, tax, tech, upkeep
from engine.rulesets.temples_and_swords.model import GameState, Seat
from engine.rulesets.temples_and_swords.nature import disaster, population_change
from engine.rulesets.temples_and_swords.orders import (
    AdvancePreference,
    Attack,
    Build,
    Defend,
    Labor,
    Losses,
    Migrate,
    Move,
    Order,
    Tech,
)
from engine.rulesets.temples_and_swords.scoring import eliminate, victory_after_turn, victory_points
from engine.rulesets.temples_and_swords.seat_turn import PHASES, SeatTurn
from engine.rulesets.temples_and_swords.war import war
from engine.turns import close_turn, play_seats, rotate_first

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


def play_turn(state: GameState, orders: Mapping[str, Sequence[Order]], seed: int) -> Recorder:
    """Play the pending turn on `state` (which it changes) and return its record."""
    rec = Recorder()
    _standing_orders(state, orders, rec)

    def play(seat: Seat) -> None:
        _play(SeatTurn(state, seat, list(orders.get(seat.name, ())), rec, seed))
        eliminate(state, rec)

    play_seats(state, rec, play, lambda name: victory_after_turn(state, name))
    if close_turn(state, orders, rec, lambda s: victory_points(state, s.name), lambda v: f"{v} VP"):
        rotate_first(state, rec)
    return rec


def _play(turn: SeatTurn) -> None:
    if turn.seat.alive:
        play_phases(turn, PHASES, PHASE_STEPS)


def rehearse(
    state: GameState, seat: str, orders: list[Order], seed: int, rec: Recorder
) -> Iterator[str]:
    """The seat's turn alone, its standing orders first, for judging orders where they take
    effect (engine.rehearsal); `orders` is the list its phases read."""
    player = state.seat(seat)
    if state.winners or not player.alive:
        return
    _standing_orders(state, {seat: orders}, rec)
    yield from phase_by_phase(SeatTurn(state, player, orders, rec, seed), PHASES, PHASE_STEPS)


PHASES_OF_ORDERS = Phases(
    rehearse,
    {
        Labor: PHASES[0],
        Tech: PHASES[2],
        Move: PHASES[3],
        Attack: PHASES[3],
        Build: PHASES[4],
        Migrate: PHASES[7],
    },
)


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
                seat.standing.advance_only = order.only
            elif isinstance(order, Defend):
                seat.standing.defend_use = order.use
            elif isinstance(order, Losses):
                seat.standing.losses = list(order.kinds)
            else:
                continue
            rec.done(seat.name, order, "standing order recorded")
