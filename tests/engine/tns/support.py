"""Building small Temples and Swords positions by hand, and playing phases with scripted dice.

state = make_state(["gggg", "gggd", "dddd"], hexes={"A1": ("ann", 3, ["city"])})
turn = scripted_turn(state, "ann", "LABOR A1 1", dice={"tech": [6, 4]})
economy.tech(turn)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import pytest

from engine import get_ruleset
from engine.problems import Problem
from engine.records import OrderResult, Resolution
from engine.rulesets.temples_and_swords import orders as order_parser
from engine.rulesets.temples_and_swords.hexmap import HexMap
from engine.rulesets.temples_and_swords.model import SEAT_LETTERS, GameState, Hex, Seat, Units
from engine.rulesets.temples_and_swords.record import Recorder
from engine.rulesets.temples_and_swords.rules import OPTIONS
from engine.rulesets.temples_and_swords.seat_turn import SeatTurn

T = TypeVar("T")
DEFAULT_OPTIONS = {spec.name: spec.default for spec in OPTIONS}


class ScriptedDice:
    """Dice that roll what the test says, in order; running out is a test error."""

    def __init__(self, values: Sequence[int], label: str) -> None:
        self.values = list(values)
        self.label = label

    def _next(self) -> int:
        if not self.values:
            raise AssertionError(f"the test gave too few dice for {self.label}")
        return self.values.pop(0)

    def d(self, sides: int) -> int:
        value = self._next()
        assert 1 <= value <= sides, f"{value} is not a d{sides} roll"
        return value

    def roll(self, count: int, sides: int = 6) -> list[int]:
        return [self.d(sides) for _ in range(count)]

    def choice(self, items: Sequence[T]) -> T:
        """The scripted value is the 1-based position of the item chosen."""
        return items[self._next() - 1]

    def randrange(self, stop: int) -> int:
        return self._next() % stop


@dataclass
class ScriptedTurn(SeatTurn):
    scripted: dict[str, list[int]] = field(default_factory=dict)
    handed: list[ScriptedDice] = field(default_factory=list)

    def dice(self, purpose: str) -> Any:
        dice = ScriptedDice(self.scripted.get(purpose, []), purpose)
        self.handed.append(dice)
        return dice

    def unused(self) -> dict[str, list[int]]:
        """Scripted dice the phase did not roll (each call of dice() starts its purpose over)."""
        rolled = {d.label: d.values for d in self.handed}
        return {p: v for p, v in rolled.items() if v}


def make_state(
    terrain: Sequence[str],
    seats: Sequence[str] = ("ann", "bob"),
    hexes: dict[str, tuple[str, int, list[str]]] | None = None,
    armies: dict[str, dict[str, dict[str, int]]] | None = None,
    options: dict[str, Any] | None = None,
    gold: int = 0,
    advances: dict[str, list[str]] | None = None,
) -> GameState:
    """A position: terrain rows of 'g'/'d'; hexes as {name: (owner, pop, projects)};
    armies as {hex: {seat: {unit: count}}}."""
    return GameState(
        terrain=HexMap(tuple(terrain)),
        seats=[
            Seat(name, SEAT_LETTERS[i], gold=gold, advances=list((advances or {}).get(name, [])))
            for i, name in enumerate(seats)
        ],
        hexes={
            n: Hex(owner=o, pop=p, projects=list(pr)) for n, (o, p, pr) in (hexes or {}).items()
        },
        armies={
            n: {s: Units(**u) for s, u in by_seat.items()} for n, by_seat in (armies or {}).items()
        },
        options=DEFAULT_OPTIONS | (options or {}),
    )


def scripted_turn(
    state: GameState, seat: str, text: str = "", dice: dict[str, list[int]] | None = None
) -> ScriptedTurn:
    parsed = order_parser.parse(state, seat, text)
    assert not parsed.problems, [p.describe() for p in parsed.problems]
    return ScriptedTurn(
        state, state.seat(seat), parsed.orders, Recorder(), seed=0, scripted=dict(dice or {})
    )


def texts(turn: SeatTurn) -> list[str]:
    return [event.text for event in turn.rec.events]


def codes(turn: SeatTurn) -> list[str]:
    return [event.code for event in turn.rec.events]


def results(turn: SeatTurn) -> list[tuple[str, str]]:
    """(status, note) of every order result of the turn's seat, in line order."""
    return [(r.status.value, r.note) for r in sorted(turn.rec.results.get(turn.name, []), key=line)]


def line(result: OrderResult) -> int:
    return result.line_no


class QuietDice(ScriptedDice):
    """Scripted dice that, once the script runs out, roll `rest` for ever (a d6 of 6 means no
    disaster; a 1 means no migration below six population)."""

    def __init__(self, values: Sequence[int], label: str, rest: int | None) -> None:
        super().__init__(values, label)
        self.rest = rest

    def _next(self) -> int:
        if not self.values and self.rest is not None:
            return self.rest
        return super()._next()


QUIET = {"disaster": 6, "migration": 1}


def patch_dice(
    monkeypatch: pytest.MonkeyPatch, script: dict[tuple[str, str], list[int]] | None = None
) -> None:
    """Script the dice of whole turns: {(seat, purpose): values}. Unscripted disaster checks
    roll 6 and migration rolls 1; any other unscripted roll is a test error."""
    script = dict(script or {})

    def dice(turn: SeatTurn, purpose: str) -> Any:
        values = script.get((turn.name, purpose), [])
        return QuietDice(values, f"{turn.name} {purpose}", QUIET.get(purpose))

    monkeypatch.setattr(SeatTurn, "dice", dice)


RULESET = get_ruleset("temples-and-swords")


def play(
    state: GameState, orders: dict[str, str] | None = None, seed: int = 0
) -> tuple[GameState, Resolution]:
    """One full turn through the ruleset interface, from and to JSON; the orders must parse."""
    data = state.to_json()
    parsed = {}
    for seat, text in (orders or {}).items():
        parsed[seat] = RULESET.parse_orders(data, seat, text)
        assert not parsed[seat].problems, [p.describe() for p in parsed[seat].problems]
    resolution = RULESET.resolve(data, parsed, seed)
    return GameState.from_json(resolution.state), resolution


def problems(state: GameState, seat: str, text: str) -> list[Problem]:
    return order_parser.parse(state, seat, text).problems
