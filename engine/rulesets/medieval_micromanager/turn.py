"""Playing a turn: every seat alive plays the eight steps in seat order (round mode), or the
active seat alone (sequential mode). The goal is checked when the round is complete, so no
seat wins by playing earlier in the round."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from engine.recorder import Recorder
from engine.rehearsal import Phases
from engine.rulesets.medieval_micromanager.activities import perform
from engine.rulesets.medieval_micromanager.model import GameState, Seat
from engine.rulesets.medieval_micromanager.orders import (
    Attack,
    BreakGround,
    Build,
    Buy,
    Defend,
    Order,
    Spare,
    Work,
)
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
from engine.turns import close_turn, finish, seats_playing
from engine.words import plural


def play(game: GameState, orders: Mapping[str, Sequence[Order]], seed: int) -> Recorder:
    """Play the pending turn on `game` (which it changes) and return the record."""
    rec = Recorder()
    _standing_orders(game, orders, rec)
    for seat in seats_playing(game):
        if seat.alive:
            play_seat(SeatTurn(game, seat, list(orders.get(seat.name, ())), rec, seed))
        _knock_out(game, rec)
        if game.winners:
            break
    close_turn(game, orders, rec, _score, _describe, at_round_end=lambda: _goal(game, rec))
    return rec


def play_seat(turn: SeatTurn) -> None:
    for _phase in seat_phases(turn):
        pass


def seat_phases(turn: SeatTurn) -> Iterator[str]:
    """The eight steps in order, each one's name given just before it runs."""
    attacks: list[tuple[Attack, int]] = []
    for phase in PHASES:
        turn.phase = phase
        yield phase
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


def rehearse(
    game: GameState, seat: str, orders: list[Order], seed: int, rec: Recorder
) -> Iterator[str]:
    """The seat's turn alone, its standing orders first, for judging orders where they take
    effect (engine.rehearsal); `orders` is the list its steps read."""
    player = game.seat(seat)
    if game.winners or not player.alive:
        return
    _standing_orders(game, {seat: orders}, rec)
    yield from seat_phases(SeatTurn(game, player, orders, rec, seed))


PHASES_OF_ORDERS = Phases(
    rehearse,
    {BreakGround: PHASES[2], Build: PHASES[3], Work: PHASES[3], Buy: PHASES[3], Attack: PHASES[3]},
)


def _standing_orders(game: GameState, orders: Mapping[str, Sequence[Order]], rec: Recorder) -> None:
    """DEFEND and SPARE take effect before any seat plays: they hold against an attack by a
    seat that plays earlier in the round."""
    for seat in game.seats:
        for order in orders.get(seat.name, ()):
            if isinstance(order, Defend):
                seat.defend, seat.shields = order.units, order.shields
            elif isinstance(order, Spare):
                seat.spare = list(order.labels)
            else:
                continue
            rec.done(seat.name, order, "standing order recorded")


def _knock_out(game: GameState, rec: Recorder) -> None:
    """A seat with no unit left is out; the last seat in the game wins."""
    for seat in game.seats:
        if seat.alive and seat.units == 0:
            seat.alive = False
            rec.event(
                "out", seat.name, "", f"{seat.name} has no unit left and is out.", public=True
            )
    alive = [s.name for s in game.seats if s.alive]
    if len(alive) == 1 and not game.winners:
        finish(game, rec, alive, "the last seat in the game")


def _goal(game: GameState, rec: Recorder) -> None:
    target = game.options["cathedrals"]
    done = [s for s in game.seats if s.alive and s.cathedrals() >= target]
    if done:
        top = max(_score(s) for s in done)
        winners = [s.name for s in done if _score(s) == top]
        finish(game, rec, winners, f"the goal: {plural(target, 'Cathedral')} standing")


def _score(seat: Seat) -> tuple[int, int]:
    """The most Cathedrals, then the most units; seats still level share the win."""
    return seat.cathedrals(), seat.units


def _describe(score: tuple[int, int]) -> str:
    return f"{plural(score[0], 'Cathedral')} and {plural(score[1], 'unit')}"
