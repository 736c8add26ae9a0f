"""Playing a turn: each seat's turn phase by phase (all seats in round mode, the active seat in
sequential mode), elimination and victory checked after every seat's turn."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from engine.recorder import Recorder
from engine.rulesets.tribes.camp import bribes_and_buildings
from engine.rulesets.tribes.model import GameState
from engine.rulesets.tribes.orders import Order
from engine.rulesets.tribes.seat_turn import PHASES, SeatTurn
from engine.rulesets.tribes.upkeep import work_and_upkeep
from engine.rulesets.tribes.war import battle, movement
from engine.turns import advance_clock, finish, seats_playing, skip_unplayed

PHASE_STEPS: tuple[Callable[[SeatTurn], None], ...] = (
    movement,
    battle,
    bribes_and_buildings,
    work_and_upkeep,
)


def play(state: GameState, orders: Mapping[str, Sequence[Order]], seed: int) -> Recorder:
    """Play the pending turn on `state` (which it changes) and return the record."""
    if state.winners:
        raise ValueError("the game is over")
    rec = Recorder()
    for seat in seats_playing(state):
        if not seat.alive:
            continue
        turn = SeatTurn(state, seat, list(orders.get(seat.name, ())), rec, seed)
        for phase, step in zip(PHASES, PHASE_STEPS, strict=True):
            turn.phase = phase
            step(turn)
        state.tidy()
        _eliminate(state, rec)
        if _victory(state, rec, seat.name):
            break
    skip_unplayed(state, orders, rec)
    if advance_clock(state):
        _end_round(state, rec)
    rec.sort_results()
    state.tidy()
    return rec


def _eliminate(state: GameState, rec: Recorder) -> None:
    """A tribe with no unit left on the map is out of the game."""
    for seat in state.seats:
        if seat.alive and not state.held(seat.name):
            seat.alive = False
            rec.event("out", seat.name, "End", f"{seat.name} has no units left and is out.", public=True)


def _victory(state: GameState, rec: Recorder, name: str) -> bool:
    """Rule "victory": fame_to_win fame at the end of the tribe's turn, or the last tribe."""
    alive = [s for s in state.seats if s.alive]
    target = int(state.options["fame_to_win"])
    seat = state.seat(name)
    if seat.alive and seat.fame >= target:
        finish(state, rec, [name], f"{seat.fame} fame of {target}")
        return True
    if len(alive) == 1:
        finish(state, rec, [alive[0].name], "the last tribe left")
        return True
    return False


def _end_round(state: GameState, rec: Recorder) -> None:
    limit = int(state.options["turn_limit"])
    if not state.winners and limit and state.round >= limit:
        fame = {s.name: s.fame for s in state.seats if s.alive}
        best = max(fame.values())
        finish(
            state,
            rec,
            [n for n, f in fame.items() if f == best],
            f"turn limit {limit} reached with {best} fame",
        )
    state.round += 1
