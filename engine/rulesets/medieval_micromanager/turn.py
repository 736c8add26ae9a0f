"""Playing a turn: every seat alive plays the eight steps in seat order (round mode), or the
active seat alone (sequential mode); the goal is checked when the round is complete, so no
seat gains by playing earlier in the round."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.recorder import Recorder
from engine.rulesets.medieval_micromanager.activities import perform
from engine.rulesets.medieval_micromanager.model import GameState, Seat
from engine.rulesets.medieval_micromanager.orders import Attack, Defend, Order
from engine.rulesets.medieval_micromanager.seat_turn import PHASES, SeatTurn
from engine.rulesets.medieval_micromanager.sequence import (
    break_ground,
    depletion,
    remove_destroyed,
    remove_units,
    surplus_commodities,
    surplus_units,
)
from engine.rulesets.medieval_micromanager.war import resolve_attacks
from engine.turns import advance_clock, finish, seats_playing, skip_unplayed


def play(game: GameState, orders: Mapping[str, Sequence[Order]], seed: int) -> Recorder:
    """Play the pending turn on `game` (which it changes) and return the record."""
    if game.winners:
        raise ValueError("the game is over")
    rec = Recorder()
    _standing_orders(game, orders, rec)
    for seat in seats_playing(game):
        if seat.alive:
            _play_seat(SeatTurn(game, seat, list(orders.get(seat.name, ())), rec, seed))
        _knock_out(game, rec)
        if game.winners:
            break
    skip_unplayed(game, orders, rec)
    if advance_clock(game):
        _end_round(game, rec)
    rec.sort_results()
    return rec


def _play_seat(turn: SeatTurn) -> None:
    attacks: list[tuple[Attack, int]] = []
    for phase in PHASES:
        turn.phase = phase
        if phase == PHASES[0] and turn.state.round > 1:
            remove_units(turn)
        elif phase == PHASES[1]:
            remove_destroyed(turn)
        elif phase == PHASES[2]:
            break_ground(turn)
        elif phase == PHASES[3]:
            attacks = perform(turn)
        elif phase == PHASES[4]:
            surplus_commodities(turn)
        elif phase == PHASES[5]:
            depletion(turn)
        elif phase == PHASES[6]:
            resolve_attacks(turn, attacks)
        elif phase == PHASES[7]:
            surplus_units(turn)


def _standing_orders(
    game: GameState, orders: Mapping[str, Sequence[Order]], rec: Recorder
) -> None:
    """DEFEND takes effect before any seat plays: it holds against an attack by a seat that
    plays earlier in the round."""
    for seat in game.seats:
        for order in orders.get(seat.name, ()):
            if isinstance(order, Defend):
                seat.defend, seat.shields = order.units, order.shields
                rec.done(seat.name, order, "standing order recorded")


def _knock_out(game: GameState, rec: Recorder) -> None:
    """A seat with no unit left is out; the last seat in the game wins."""
    for seat in game.seats:
        if seat.alive and seat.units == 0:
            seat.alive = False
            rec.event("out", seat.name, "", f"{seat.name} has no unit left and is out.", public=True)
    alive = [s.name for s in game.seats if s.alive]
    if len(alive) == 1 and len(game.seats) > 1 and not game.winners:
        finish(game, rec, alive, "the last seat in the game")


def _end_round(game: GameState, rec: Recorder) -> None:
    target, limit = game.options["cathedrals"], game.options["turn_limit"]
    alive = [s for s in game.seats if s.alive]
    if not game.winners:
        done = [s for s in alive if s.cathedrals() >= target]
        if done:
            finish(game, rec, _best(done), f"{target} Cathedrals standing")
        elif limit and game.round >= limit:
            finish(game, rec, _best(alive or game.seats), f"turn limit {limit} reached")
    game.round += 1


def _best(seats: list[Seat]) -> list[str]:
    """The most Cathedrals, then the most units; seats still level share the win."""
    top = max((s.cathedrals(), s.units) for s in seats)
    return [s.name for s in seats if (s.cathedrals(), s.units) == top]
