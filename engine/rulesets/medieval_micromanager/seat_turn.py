"""One seat's turn in progress, and the eight steps of the turn sequence by name."""

from __future__ import annotations

from dataclasses import dataclass

from engine.rulesets.medieval_micromanager.model import Building, GameState, Seat
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
    """Eliminate up to `count` of the seat's units, wherever they stand: those at home first,
    then those on its buildings (the academy first, then in the order of the cards). For
    units beyond the housing (step 8), which the text does not pick. Returns how many."""
    lost = lose_at_home(seat, count)
    workplaces = sorted(seat.buildings, key=lambda b: b.kind != "academy")
    return lost + lose_on(seat, workplaces, count - lost)


def lose_at_home(seat: Seat, count: int) -> int:
    """Eliminate up to `count` of the units at home (the defenders that fall); the units at
    work stay on their buildings. Returns how many."""
    lost = min(count, seat.at_home())
    seat.units -= lost
    seat.bought = min(seat.bought, seat.at_home())  # units bought this turn are at home
    return lost


def lose_on(seat: Seat, buildings: list[Building], count: int) -> int:
    """Eliminate up to `count` of the units standing on these buildings, taking them off (the
    attackers that fall, from the academies): a later attack that round sees the position as
    it is. Returns how many."""
    lost = 0
    for building in buildings:
        taken = min(count - lost, building.workers)
        building.workers -= taken
        lost += taken
    seat.units -= lost
    return lost
