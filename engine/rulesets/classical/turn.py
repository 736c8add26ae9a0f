"""Playing a turn: the setup turn, or each seat's ten phases in turn order (all seats in round
mode, the active seat in sequential mode), with elimination and victory checked after every
seat's turn."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence

from engine.recorder import Recorder
from engine.rehearsal import Phases, phase_by_phase, play_phases
from engine.rulesets.classical import economy, war
from engine.rulesets.classical.model import GameState, Seat
from engine.rulesets.classical.orders import (
    Feed,
    Monument,
    Move,
    Order,
    Recruit,
    Research,
    Settle,
    Upgrade,
)
from engine.rulesets.classical.seat_turn import PHASES, SeatTurn
from engine.rulesets.classical.setup import play_setup
from engine.turns import close_turn, finish, play_seats, rotate_first, skip_unplayed

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
    rec = Recorder()
    _standing_orders(state, orders, rec)
    if state.setup:
        play_setup(state, orders, seed, rec)
        state.setup = False
        state.step += 1
        skip_unplayed(state, orders, rec)
        return rec

    def play_one(seat: Seat) -> None:
        if not seat.alive:  # put out earlier in this round
            return
        turn = SeatTurn(state, seat, list(orders.get(seat.name, ())), rec, seed)
        play_phases(turn, PHASES, PHASE_STEPS)
        _eliminate(state, rec)

    play_seats(state, rec, play_one, lambda name: _victory_after_turn(state, name))
    alive = [s.name for s in state.seats if s.alive]
    if not state.winners and len(alive) == 1 and len(state.seats) > 1:
        finish(state, rec, alive, "the last civilization standing")
    round_done = close_turn(
        state,
        orders,
        rec,
        lambda seat: seat.vp,
        lambda vp: f"{vp} VP",
        at_round_end=lambda: _round_victory(state, rec),
    )
    if round_done:
        rotate_first(state, rec)
    return rec


def rehearse(
    state: GameState, seat: str, orders: list[Order], seed: int, rec: Recorder
) -> Iterator[str]:
    """The seat's turn alone, its standing orders first, for judging orders where they take
    effect (engine.rehearsal); `orders` is the list its phases read."""
    player = state.seat(seat)
    if state.setup or state.winners or not player.alive:
        return
    _standing_orders(state, {seat: orders}, rec)
    yield from phase_by_phase(SeatTurn(state, player, orders, rec, seed), PHASES, PHASE_STEPS)


PHASES_OF_ORDERS = Phases(
    rehearse,
    {
        Monument: PHASES[2],
        Upgrade: PHASES[3],
        Settle: PHASES[4],
        Move: PHASES[5],
        Recruit: PHASES[7],
        Research: PHASES[8],
    },
)


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


def _victory_after_turn(state: GameState, seat: str) -> str:
    """The seat that just played wins if it reached the VP (option same_round_win 'first') or
    is the last seat in the game."""
    vp, target = state.seat(seat).vp, state.options["victory_points"]
    if state.options["same_round_win"] == "first" and vp >= target:
        return f"first to {target} VP, with {vp}"
    alive = [s.name for s in state.seats if s.alive]
    if alive == [seat] and len(state.seats) > 1:
        return "the last civilization standing"
    return ""


def _round_victory(state: GameState, rec: Recorder) -> None:
    """Option same_round_win 'round': at the end of the round, the most VP among the seats
    that reached the target win (ties share)."""
    target = state.options["victory_points"]
    reached = [s for s in state.seats if s.alive and s.vp >= target]
    if reached:
        best = max(s.vp for s in reached)
        finish(state, rec, [s.name for s in reached if s.vp == best], f"{best} VP of {target}")
