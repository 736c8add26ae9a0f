"""Playing a turn: the setup turn, or each seat's ten phases in turn order (all seats in round
mode, the active seat in sequential mode), with elimination and victory checked after every
seat's turn."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from engine.recorder import Recorder
from engine.rulesets.classical import economy, war
from engine.rulesets.classical.model import GameState
from engine.rulesets.classical.orders import Feed, Order
from engine.rulesets.classical.seat_turn import PHASES, SeatTurn
from engine.rulesets.classical.setup import play_setup
from engine.turns import advance_clock, finish, seats_playing, skip_unplayed

PHASE_STEPS: tuple[Callable[[SeatTurn], None], ...] = (
    economy.produce,
    economy.upkeep,
    economy.build,
    economy.upgrade,
    economy.settle,
    war.move,
    war.battle,
    economy.recruit,
    economy.research,
    economy.score,
)


def play(state: GameState, orders: Mapping[str, Sequence[Order]], seed: int) -> Recorder:
    """Play the pending turn on `state` (which it changes) and return the record."""
    if state.winners:
        raise ValueError("the game is over")
    rec = Recorder()
    if state.setup:
        _standing_orders(state, orders, rec)
        play_setup(state, orders, seed, rec)
        state.setup = False
        state.step += 1
    else:
        _play_round(state, orders, seed, rec)
    skip_unplayed(state, orders, rec)
    rec.sort_results()
    return rec


def _play_round(
    state: GameState, orders: Mapping[str, Sequence[Order]], seed: int, rec: Recorder
) -> None:
    _standing_orders(state, orders, rec)
    for seat in seats_playing(state):
        turn = SeatTurn(state, seat, list(orders.get(seat.name, ())), rec, seed)
        for phase, step in zip(PHASES, PHASE_STEPS, strict=True):
            turn.phase = phase
            step(turn)
        _eliminate(state, rec)
        if _victory_after_turn(state, seat.name, rec):
            return
    if advance_clock(state):
        _end_round(state, rec)


def _standing_orders(
    state: GameState, orders: Mapping[str, Sequence[Order]], rec: Recorder
) -> None:
    """FEED takes effect before any seat plays, and stays until changed."""
    for seat in state.seats:
        for order in orders.get(seat.name, ()):
            if isinstance(order, Feed):
                seat.standing.feed = list(order.classes)
                rec.done(seat.name, order, "standing order recorded")


def _eliminate(state: GameState, rec: Recorder) -> None:
    """A seat with no settlement and no unit is out (option homeless 'refound': only when no
    empty land is left to refound on either)."""
    room = any(not t.sea and not t.settlement for t in state.board.territories.values())
    for seat in state.seats:
        if not seat.alive or state.settlements(seat.name) or state.unit_spaces(seat.name):
            continue
        if state.options["homeless"] == "refound" and room:
            continue
        seat.alive = False
        rec.event(
            "eliminated",
            seat.name,
            "End",
            f"{seat.name} holds no settlement and no unit and is out of the game.",
            public=True,
        )
    alive = [s.name for s in state.seats if s.alive]
    if len(alive) == 1 and len(state.seats) > 1 and not state.winners:
        finish(state, rec, alive, "the last civilization standing")


def _victory_after_turn(state: GameState, seat: str, rec: Recorder) -> bool:
    if state.winners:
        return True
    target = state.options["victory_points"]
    if state.options["same_round_win"] == "first" and state.seat(seat).vp >= target:
        finish(state, rec, [seat], f"first to {target} VP with {state.seat(seat).vp}")
        return True
    return False


def _end_round(state: GameState, rec: Recorder) -> None:
    target, limit = state.options["victory_points"], state.options["turn_limit"]
    alive = [s for s in state.seats if s.alive]
    reached = [s for s in alive if s.vp >= target]
    if not state.winners and reached:
        best = max(s.vp for s in reached)
        finish(state, rec, [s.name for s in reached if s.vp == best], f"{best} VP of {target}")
    elif not state.winners and limit and state.round >= limit:
        best = max(s.vp for s in alive)
        finish(
            state,
            rec,
            [s.name for s in alive if s.vp == best],
            f"turn limit {limit} reached with {best} VP",
        )
    state.round += 1
