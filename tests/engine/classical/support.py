"""Small Classical positions on a fixed map, and playing phases with scripted dice.

The map (MAP_ROWS) is 8 cells by 4, territories named by their top-left cell:

    A1 A1 C1 C1 E1 E1 G1 G1      A1 land   C1 land   E1 land   G1 sea
    A1 A1 C1 C1 E1 E1 G1 G1      A3 land   C3 sea    E3 land   G3 land
    A3 A3 C3 C3 E3 E3 G3 G3
    A3 A3 C3 C3 E3 E3 G3 G3
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine import get_ruleset
from engine.problems import Problem
from engine.recorder import Recorder
from engine.records import Resolution
from engine.rulesets.classical import orders as order_parser
from engine.rulesets.classical.model import (
    CITY,
    CIVILIZATIONS,
    SEAT_LETTERS,
    VILLAGE,
    Board,
    GameState,
    Seat,
    Territory,
)
from engine.rulesets.classical.rules import OPTIONS
from engine.rulesets.classical.seat_turn import SeatTurn
from tests.engine.scripted import ScriptedDiceMixin, play_turn
from tests.engine.scripted import codes as codes
from tests.engine.scripted import results as results
from tests.engine.scripted import texts as texts

DEFAULT_OPTIONS = {spec.name: spec.default for spec in OPTIONS}
ROW_1 = "A1 A1 C1 C1 E1 E1 G1 G1"
ROW_3 = "A3 A3 C3 C3 E3 E3 G3 G3"
MAP_ROWS = [ROW_1, ROW_1, ROW_3, ROW_3]
SEA = {"G1", "C3"}
RESOURCES = {
    "A1": "grain",
    "C1": "stone",
    "E1": "wine",
    "G1": "fish",
    "A3": "iron",
    "C3": "fish",
    "E3": "wood",
    "G3": "salt",
}
CIVS = ("Romans", "Egyptians", "Athenians")


@dataclass
class ScriptedTurn(ScriptedDiceMixin, SeatTurn):
    """A seat's turn whose dice roll what the test scripted."""


def make_state(
    seats: Sequence[str] = ("ann", "bob"), options: dict[str, Any] | None = None
) -> GameState:
    """The small map, nobody on it, each seat with its civilization's starting traits; play
    under way (the setup turn done)."""
    territories = {
        label: Territory(sea=label in SEA, resource=resource, roll=1)
        for label, resource in RESOURCES.items()
    }
    made = [
        Seat(name, SEAT_LETTERS[i], CIVS[i], levels=dict.fromkeys(CIVILIZATIONS[CIVS[i]], 1))
        for i, name in enumerate(seats)
    ]
    state = GameState(
        seats=made,
        options=DEFAULT_OPTIONS | (options or {}),
        board=Board(list(MAP_ROWS), territories),
    )
    state.setup, state.step = False, 2
    return state


def put(
    state: GameState,
    label: str,
    seat: str,
    settlement: str = "",
    units: int = 0,
    monuments: int = 0,
) -> Territory:
    spot = state.space(label)
    if settlement:
        spot.owner, spot.settlement, spot.monuments = seat, settlement, monuments
    if units:
        spot.units[seat] = units
    return spot


def city(state: GameState, label: str, seat: str, units: int = 0, monuments: int = 0) -> Territory:
    return put(state, label, seat, CITY, units, monuments)


def village(state: GameState, label: str, seat: str, units: int = 0) -> Territory:
    return put(state, label, seat, VILLAGE, units)


def scripted_turn(
    state: GameState,
    seat: str,
    text: str = "",
    dice: dict[str, list[int]] | None = None,
    pool: dict[str, int] | None = None,
) -> ScriptedTurn:
    parsed = order_parser.parse(state, seat, text)
    assert not parsed.problems, [p.describe() for p in parsed.problems]
    turn = ScriptedTurn(
        state, state.seat(seat), parsed.orders, Recorder(), seed=0, scripted=dict(dice or {})
    )
    for kind, count in (pool or {}).items():
        turn.pool[kind] = count
    return turn


RULESET = get_ruleset("classical")


def play(
    state: GameState, orders: dict[str, str] | None = None, seed: int = 0
) -> tuple[GameState, Resolution]:
    resolution = play_turn(RULESET, state.to_json(), orders, seed)
    return GameState.from_json(resolution.state), resolution


def problems(state: GameState, seat: str, text: str) -> list[Problem]:
    return order_parser.parse(state, seat, text).problems
