"""One seat's turn in progress, and the eight steps of the turn sequence by name."""

from __future__ import annotations

from dataclasses import dataclass

from engine.rulesets.medieval_micromanager.model import GameState, Seat
from engine.rulesets.medieval_micromanager.orders import Order
from engine.turns import SeatTurnBase

PHASES = (
    "1 Remove units from buildings",
    "2 Remove destroyed buildings",
    "3 Break ground",
    "4 Perform activities",
    "5 Eliminate surplus commodities",
    "6 Check for depletion",
    "7 Resolve attacks",
    "8 Eliminate surplus units",
)


@dataclass
class SeatTurn(SeatTurnBase[GameState, Seat, Order]):
    """The seat's turn as the steps see it."""


def lose_units(seat: Seat, count: int) -> int:
    """Eliminate up to `count` of the seat's units; the pieces on its buildings this turn go
    with them (from the academy first, then in the order of the cards). Returns how many."""
    lost = min(count, seat.units)
    seat.units -= lost
    seat.bought = min(seat.bought, seat.units)
    excess = seat.working() + seat.bought - seat.units
    order = sorted(seat.buildings, key=lambda b: b.kind != "academy")
    for building in order:
        if excess <= 0:
            break
        taken = min(excess, building.workers)
        building.workers -= taken
        excess -= taken
    return lost
