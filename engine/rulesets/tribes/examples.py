"""The position the examples of docs/orders/tribes.md are written for: ann (tribe A) can give
every order in it."""

from __future__ import annotations

from engine.rulesets.tribes.model import GameState, Place, Seat, Units
from engine.rulesets.tribes.rules import OPTIONS

TERRAIN = [
    "..w.s~~~",
    ".g.o.~~~",
    ".s...~~~",
    "w..g..~~",
    ".o...w..",
    "..g.s...",
]


def position(variant: str = "") -> GameState:
    """ann holds C3 (barracks, road, blacksmith), D3 (road), E2 (dock) and a ship in F2; bob
    holds C4 next door; cat and dan are far away."""
    if variant:
        raise KeyError(f"no example position {variant!r}")
    seats = [
        Seat("ann", "A", money=12, wood=3, stone=2, ore=2, food=6, fame=2),
        Seat("bob", "B", money=4, wood=1, stone=1, food=4, fame=1),
        Seat("cat", "C", money=5, wood=1, stone=1, food=4, fame=1),
        Seat("dan", "D", money=5, wood=1, stone=1, food=4, fame=1),
    ]
    places = {
        "C3": Place("ann", Units(population=3, melee=3), ["barracks", "blacksmith", "road"]),
        "D3": Place("ann", Units(population=1), ["road"]),
        "E2": Place("ann", Units(population=2), ["dock"]),
        "F2": Place("ann", Units(ship=1)),
        "C4": Place("bob", Units(population=1, melee=1)),
        "A6": Place("cat", Units(population=3, melee=2), ["barracks"]),
        "H6": Place("dan", Units(population=3, melee=2), ["barracks"]),
    }
    return GameState(TERRAIN, seats, places, {o.name: o.default for o in OPTIONS})
