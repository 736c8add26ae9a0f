"""Resolving a turn: standing orders and trade offers first, then each seat's turn phase by
phase (all seats in round mode, the active seat in sequential mode), "be the first" checked for
every seat after every phase, the last culture standing at the end of every seat's turn."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence

from engine.recorder import Recorder
from engine.rehearsal import Phases
from engine.rulesets.culture_and_conquest import mapwar, movement
from engine.rulesets.culture_and_conquest import trade as trading
from engine.rulesets.culture_and_conquest.economy import build, harvest, income, research, upkeep
from engine.rulesets.culture_and_conquest.geography import settle
from engine.rulesets.culture_and_conquest.model import GameState, Seat, Support
from engine.rulesets.culture_and_conquest.nature import disaster
from engine.rulesets.culture_and_conquest.orders import (
    Attack,
    Build,
    March,
    Move,
    Order,
    SupportOrder,
    Surrender,
    Tribute,
)
from engine.rulesets.culture_and_conquest.population import distribution, gain_leader, increase
from engine.rulesets.culture_and_conquest.scoring import (
    cultural_victory,
    eliminate,
    last_standing,
    standing,
)
from engine.rulesets.culture_and_conquest.seat_turn import MAP_PHASES, MOVE_PHASE, PHASES, SeatTurn
from engine.rulesets.culture_and_conquest.trade import trade
from engine.rulesets.culture_and_conquest.war import war
from engine.turns import close_turn, finish, play_seats, rotate_first

PHASE_STEPS: tuple[Callable[[SeatTurn], None], ...] = (
    increase,
    distribution,
    gain_leader,
    harvest,
    disaster,
    upkeep,
    war,
    trade,
    build,
    research,
    income,
)
# The map version: war on the map, and the Move Phase after the War Phase.
MAP_STEPS: tuple[Callable[[SeatTurn], None], ...] = (
    *PHASE_STEPS[:6],
    mapwar.war,
    movement.move,
    *PHASE_STEPS[7:],
)


def play_turn(state: GameState, orders: Mapping[str, Sequence[Order]], seed: int) -> Recorder:
    """Play the pending turn on `state` (which it changes) and return its record."""
    rec = Recorder()
    _standing_orders(state, orders, rec)
    trading.register(state, orders, rec)
    every = {(s, o.line_no): o for s, seat_orders in orders.items() for o in seat_orders}

    def play(seat: Seat) -> None:
        if state.winners:  # won in an earlier seat's turn: nobody plays on
            return
        turn = SeatTurn(state, seat, list(orders.get(seat.name, ())), rec, seed, all_orders=every)
        _play(turn)
        eliminate(state, rec)

    play_seats(state, rec, play, lambda name: last_standing(state, name))
    trading.close_turn(state, orders, rec)
    if close_turn(state, orders, rec, standing, _wonders_and_advances):
        rotate_first(state, rec)
    return rec


def _wonders_and_advances(best: tuple[int, int]) -> str:
    return f"{best[0]} Wonders and {best[1]} Advances"


def _play(turn: SeatTurn) -> None:
    if turn.seat.alive:
        for _phase in seat_phases(turn):
            pass


def seat_phases(turn: SeatTurn) -> Iterator[str]:
    """The seat's phases in order, each one's name given just before it runs; in the map
    version the map is brought in step with the cultures after each phase. "Be the first" is
    checked after every phase: the first to get there wins, in whatever seat's turn."""
    on_map = turn.state.land is not None
    names, steps = (MAP_PHASES, MAP_STEPS) if on_map else (PHASES, PHASE_STEPS)
    for phase, step in zip(names, steps, strict=True):
        turn.phase = phase
        yield phase
        step(turn)
        settle(turn.state)
        winners, reason = cultural_victory(turn.state)
        if winners:
            finish(turn.state, turn.rec, winners, reason)
            return


def rehearse(
    state: GameState, seat: str, orders: list[Order], seed: int, rec: Recorder
) -> Iterator[str]:
    """The seat's turn alone, its standing orders and trade offers first, for judging orders
    where they take effect (engine.rehearsal); `orders` is the list its phases read."""
    player = state.seat(seat)
    if state.winners or not player.alive:
        return
    _standing_orders(state, {seat: orders}, rec)
    trading.register(state, {seat: orders}, rec)
    every = {(seat, o.line_no): o for o in orders}
    yield from seat_phases(SeatTurn(state, player, orders, rec, seed, all_orders=every))


PHASES_OF_ORDERS = Phases(
    rehearse,
    {Move: PHASES[1], March: MOVE_PHASE, Attack: PHASES[6], Build: PHASES[8]},
)


def _standing_orders(
    state: GameState, orders: Mapping[str, Sequence[Order]], rec: Recorder
) -> None:
    """Standing orders take effect before any seat plays, so that a surrender condition or an
    alliance ordered this turn holds in a war of a seat that plays earlier."""
    for seat in state.seats:
        for order in orders.get(seat.name, ()):
            if isinstance(order, Surrender):
                seat.standing.surrender_below = order.below
            elif isinstance(order, Tribute):
                seat.standing.tribute = list(order.kinds)
            elif isinstance(order, SupportOrder):
                supports = [s for s in seat.standing.supports if s.seat != order.seat]
                if order.armies or order.general:  # a General may be sent alone
                    supports.append(Support(order.seat, order.armies, order.general))
                seat.standing.supports = supports
            else:
                continue
            rec.done(seat.name, order, "standing order recorded")
