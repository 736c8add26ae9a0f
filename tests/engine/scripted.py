"""Scripted dice and turn helpers that both rulesets' test support share.

A rules test says which dice a phase rolls, plays the phase, and reads the events and order
results it recorded; nothing here depends on which game is played. Each ruleset's support.py
adds the positions, the parser and its own QUIET rolls.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, TypeVar

import pytest

from engine.records import OrderResult, ParsedOrders, Resolution
from engine.ruleset import Ruleset, State
from engine.turns import SeatTurnBase

T = TypeVar("T")
# Set while play_turn checks the orders: scripted dice are for the resolution alone.
_CHECKING: ContextVar[bool] = ContextVar("checking", default=False)
AnySeatTurn = SeatTurnBase[Any, Any, Any]


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
        """The scripted value is the 1-based position chosen."""
        value = self._next()
        assert 1 <= value <= stop, f"{value} is not a position up to {stop}"
        return value - 1


class QuietDice(ScriptedDice):
    """Scripted dice that, once the script runs out, roll `rest` for ever."""

    def __init__(self, values: Sequence[int], label: str, rest: int | None) -> None:
        super().__init__(values, label)
        self.rest = rest

    def _next(self) -> int:
        if not self.values and self.rest is not None:
            return self.rest
        return super()._next()


@dataclass
class ScriptedDiceMixin:
    """Put before a ruleset's SeatTurn: its dice(purpose) rolls `scripted[purpose]`."""

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


def texts(turn: AnySeatTurn) -> list[str]:
    return [event.text for event in turn.rec.events]


def codes(turn: AnySeatTurn) -> list[str]:
    return [event.code for event in turn.rec.events]


def results(turn: AnySeatTurn, seat: str = "") -> list[tuple[str, str]]:
    """(status, note) of every order result of the seat (default: the turn's), in line order."""
    found = turn.rec.results.get(seat or turn.name, [])
    return [(r.status.value, r.note) for r in sorted(found, key=line)]


def line(result: OrderResult) -> int:
    return result.line_no


def patch_turn_dice(
    monkeypatch: pytest.MonkeyPatch,
    seat_turn: type[AnySeatTurn],
    quiet: Mapping[str, int],
    script: dict[tuple[str, str], list[int]] | None = None,
) -> None:
    """Script the dice of whole turns: {(seat, purpose): values}; `quiet` rolls for ever for
    a purpose the script leaves out, and any other unscripted roll is a test error. The script
    is for the turn's resolution: the order check's rehearsals (play_turn) roll real dice."""
    script = dict(script or {})
    real = seat_turn.dice

    def dice(turn: AnySeatTurn, purpose: str) -> Any:
        if _CHECKING.get():
            return real(turn, purpose)
        values = script.get((turn.name, purpose), [])
        return QuietDice(values, f"{turn.name} {purpose}", quiet.get(purpose))

    monkeypatch.setattr(seat_turn, "dice", dice)


def play_turn(
    ruleset: Ruleset, data: State, orders: dict[str, str] | None = None, seed: int = 0
) -> Resolution:
    """One full turn through the ruleset interface, from JSON; the orders must parse."""
    parsed: dict[str, ParsedOrders] = {}
    checking = _CHECKING.set(True)
    try:
        for seat, text in (orders or {}).items():
            parsed[seat] = ruleset.parse_orders(data, seat, text)
            assert not parsed[seat].problems, [p.describe() for p in parsed[seat].problems]
    finally:
        _CHECKING.reset(checking)
    return ruleset.resolve(data, parsed, seed)
