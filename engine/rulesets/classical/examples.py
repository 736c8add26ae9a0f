"""The position the examples in docs/orders/classical.md are written for: a 3-seat game after
the setup turn, seed 1: ann (seat A, Romans) holds a city in A5 with 3 armies, a village in
A8 and a fleet in D5; bob a city in M11 with an army, cat a city in C13.
The variant 'setup' is the same game before its setup turn."""

from __future__ import annotations

from engine.rulesets.classical.model import CITY, VILLAGE, GameState
from engine.rulesets.classical.rules import OPTIONS
from engine.rulesets.classical.setup import new_game

SEATS = ("ann", "bob", "cat")
SEED = 1


def position(variant: str = "") -> GameState:
    state = new_game(list(SEATS), {o.name: o.default for o in OPTIONS}, SEED)
    if variant == "setup":
        return state
    state.setup = False
    state.step = 2
    for seat, civ in zip(state.seats, ("Romans", "Egyptians", "Athenians"), strict=True):
        seat.civilization = civ
    ann = state.seat("ann")
    ann.levels = {"government": 1, "engineering": 1}
    _place(state, "ann", EXAMPLE_CITY, CITY, units=3)
    _place(state, "ann", EXAMPLE_VILLAGE, VILLAGE)
    state.space(EXAMPLE_FLEET).units["ann"] = 1
    _place(state, "bob", "M11", CITY, units=1)
    _place(state, "cat", "C13", CITY)
    return state


def _place(state: GameState, seat: str, label: str, kind: str, units: int = 0) -> None:
    spot = state.space(label)
    spot.owner, spot.settlement = seat, kind
    if units:
        spot.units[seat] = units


EXAMPLE_CITY, EXAMPLE_VILLAGE, EXAMPLE_FLEET = "A5", "A8", "D5"
