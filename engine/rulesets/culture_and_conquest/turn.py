"""Resolving a turn: standing orders and trade offers first, then each seat's turn phase by
phase (all seats in round mode, the active seat in sequential mode), "be the first" checked for
every seat after every phase, the last culture standing at the end of every seat's turn."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from engine.recorder import Recorder
from engine.rulesets.culture_and_conquest import mapwar, movement
from engine.rulesets.culture_and_conquest import trade as trading
from engine.rulesets.culture_and_conquest.economy import build, harvest, income, research, upkeep
from engine.rulesets.culture_and_conquest.geography import settle
from engine.rulesets.culture_and_conquest.model import GameState, Seat, Support
from engine.rulesets.culture_and_conquest.nature import disaster
from engine.rulesets.culture_and_conquest.orders import Order, SupportOrder, Surrender, Tribute
from engine.rulesets.culture_and_conquest.population import distribution, gain_leader, increase
from engine.rulesets.culture_and_conquest.scoring import (
    cultural_victory,
    eliminate,
    last_standing,
    standing,
)
from engine.rulesets.culture_and_conquest.seat_turn import MAP_PHASES, PHASES, SeatTurn
from engine.rulesets.culture_and_conquest.trade import trade
from engine.rulesets.culture_and_conquest.war import war
from engine.turns import close_turn, finish, play_seats

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
    close_turn(state, orders, rec, standing, _wonders_and_advances)
    return rec


def _wonders_and_advances(best: tuple[int, int]) -> str:
    return f"{best[0]} Wonders and {best[1]} Advances"


def _play(turn: SeatTurn) -> None:
    """The seat's phases in order; in the map version the map is brought in step with the
    cultures after each phase."""
    if not turn.seat.alive:
        return
    on_map = turn.state.land is not None
    steps = (
        zip(MAP_PHASES, MAP_STEPS, strict=True) if on_map else zip(PHASES, PHASE_STEPS, strict=True)
    )
    for phase, step in steps:
        turn.phase = phase
        step(turn)
        settle(turn.state)
        winners, reason = cultural_victory(turn.state)
        if winners:  # the first to get there wins, in whatever seat's turn and phase
            finish(turn.state, turn.rec, winners, reason)
            return


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
