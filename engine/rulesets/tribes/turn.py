"""Playing a turn: each seat's turn phase by phase (all seats in round mode, the active seat in
sequential mode), elimination and victory checked after every seat's turn."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence

from engine.recorder import Recorder
from engine.rehearsal import Phases, phase_by_phase, play_phases
from engine.rulesets.tribes.camp import bribes_and_buildings
from engine.rulesets.tribes.model import GameState, Seat
from engine.rulesets.tribes.orders import (
    Attack,
    Bribe,
    Build,
    Convert,
    Grow,
    Move,
    Order,
    Upgrade,
)
from engine.rulesets.tribes.seat_turn import PHASES, SeatTurn
from engine.rulesets.tribes.upkeep import work_and_upkeep
from engine.rulesets.tribes.war import battle, movement
from engine.turns import close_turn, finish, play_seats

PHASE_STEPS: tuple[Callable[[SeatTurn], None], ...] = (
    movement,
    battle,
    bribes_and_buildings,
    work_and_upkeep,
)


def play(state: GameState, orders: Mapping[str, Sequence[Order]], seed: int) -> Recorder:
    """Play the pending turn on `state` (which it changes) and return its record."""
    rec = Recorder()

    def play_seat(seat: Seat) -> None:
        if seat.alive:
            turn = SeatTurn(state, seat, list(orders.get(seat.name, ())), rec, seed)
            play_phases(turn, PHASES, PHASE_STEPS)
        state.tidy()
        _eliminate(state, rec)

    play_seats(state, rec, play_seat, lambda name: victory(state, name))
    round_mode = state.options["mode"] == "round"  # sequential: fame counts after each turn
    round_done = close_turn(
        state,
        orders,
        rec,
        lambda s: s.fame,
        lambda fame: f"{fame} fame",
        at_round_end=(lambda: _fame_victory(state, rec)) if round_mode else None,
    )
    if round_done and round_mode and not state.winners:
        state.seats.append(state.seats.pop(0))  # the first tribe plays last next round
    state.tidy()
    return rec


def rehearse(
    state: GameState, seat: str, orders: list[Order], seed: int, rec: Recorder
) -> Iterator[str]:
    """The seat's turn alone, for judging orders where they take effect (engine.rehearsal);
    `orders` is the list its phases read."""
    player = state.seat(seat)
    if state.winners or not player.alive:
        return
    yield from phase_by_phase(SeatTurn(state, player, orders, rec, seed), PHASES, PHASE_STEPS)


PHASES_OF_ORDERS = Phases(
    rehearse,
    {
        Move: PHASES[0],
        Attack: PHASES[1],
        Bribe: PHASES[2],
        Build: PHASES[2],
        Convert: PHASES[2],
        Upgrade: PHASES[2],
        Grow: PHASES[3],
    },
)


def _fame_victory(state: GameState, rec: Recorder) -> None:
    """Round mode: the fame goal is counted when every tribe has played the round, and the
    most fame wins (ties share the win), so playing first is no head start."""
    target = int(state.options["fame_to_win"])
    fame = {s.name: s.fame for s in state.seats if s.alive}
    best = max(fame.values(), default=0)
    if best >= target:
        winners = [name for name, value in fame.items() if value == best]
        finish(state, rec, winners, f"{'/'.join(winners)} reached {best} fame of {target}")


def _eliminate(state: GameState, rec: Recorder) -> None:
    """A tribe with no unit left on the map is out of the game."""
    for seat in state.seats:
        if seat.alive and not state.held(seat.name):
            seat.alive = False
            text = f"{seat.name} has no units left and is out."
            rec.event("out", seat.name, "End", text, public=True)


def victory(state: GameState, name: str) -> str:
    """Rule "victory" after a tribe's turn: the last tribe left; in sequential mode also the
    fame of option fame_to_win. The reason, or '' for none."""
    target = int(state.options["fame_to_win"])
    seat = state.seat(name)
    if state.options["mode"] == "sequential" and seat.alive and seat.fame >= target:
        return f"{name} reached {seat.fame} fame of {target}"
    alive = [s.name for s in state.seats if s.alive]
    if alive == [name]:
        return "the last tribe left"
    return ""
