"""Building small Medieval Micromanager positions by hand, and playing a seat's turn (or one
step of it) with scripted dice.

game = make_game(units={"ann": 6}, stock={"ann": {"lumber": 3}})
turn = scripted_turn(game, "ann", "WORK 2 farm1", dice={"depletion farm1": [1]})
play_seat(turn)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.problems import Problem
from engine.recorder import Recorder
from engine.rulesets.medieval_micromanager import orders as order_parser
from engine.rulesets.medieval_micromanager.model import Building, GameState, Seat
from engine.rulesets.medieval_micromanager.rules import OPTIONS
from engine.rulesets.medieval_micromanager.seat_turn import SeatTurn
from engine.rulesets.medieval_micromanager.setup import starting_seat
from engine.rulesets.medieval_micromanager.turn import play_seat as play_seat
from tests.engine.scripted import QuietDice
from tests.engine.scripted import codes as codes
from tests.engine.scripted import results as results
from tests.engine.scripted import texts as texts

DEFAULT_OPTIONS = {spec.name: spec.default for spec in OPTIONS}
NO_DEPLETION = 6  # an unscripted die rolls this: no depletion, and a miss in an attack


@dataclass
class ScriptedTurn(SeatTurn):
    """A seat's turn whose dice roll what the test scripted, then NO_DEPLETION for ever."""

    scripted: dict[str, list[int]] | None = None

    def dice(self, purpose: str) -> Any:
        return QuietDice((self.scripted or {}).get(purpose, []), purpose, NO_DEPLETION)


def make_game(
    seats: Sequence[str] = ("ann", "bob"),
    units: dict[str, int] | None = None,
    stock: dict[str, dict[str, int]] | None = None,
    cards: dict[str, list[Building]] | None = None,
    round_: int = 2,
    options: dict[str, Any] | None = None,
) -> GameState:
    """Every seat as it starts (4 units, farm1, woodcutter1, house1, granary1, warehouse1,
    5 grain, 5 lumber), changed as given; `cards` are added to the seat's buildings."""
    made: list[Seat] = []
    for name in seats:
        seat = starting_seat(name)
        seat.units = (units or {}).get(name, seat.units)
        seat.stock |= (stock or {}).get(name, {})
        for building in (cards or {}).get(name, []):
            seat.buildings.append(building)
            number = int("".join(ch for ch in building.label if ch.isdigit()))
            seat.numbered[building.kind] = max(seat.numbered.get(building.kind, 0), number)
        made.append(seat)
    return GameState(
        seats=made, options=DEFAULT_OPTIONS | (options or {}), round=round_, step=round_
    )


def scripted_turn(
    game: GameState, seat: str, text: str = "", dice: dict[str, list[int]] | None = None
) -> ScriptedTurn:
    parsed = order_parser.parse(game, seat, text)
    assert not parsed.problems, [p.describe() for p in parsed.problems]
    return ScriptedTurn(game, game.seat(seat), parsed.orders, Recorder(), 0, scripted=dice)


def problems(game: GameState, seat: str, text: str) -> list[Problem]:
    return order_parser.parse(game, seat, text).problems


def card(game: GameState, seat: str, label: str) -> Building:
    found = game.seat(seat).building(label)
    assert found is not None, f"{seat} has no {label}"
    return found
