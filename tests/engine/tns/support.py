"""Building small Temples and Swords positions by hand, and playing phases with scripted dice.

state = make_state(["gggg", "gggd", "dddd"], hexes={"A1": ("ann", 3, ["city"])})
turn = scripted_turn(state, "ann", "LABOR A1 1", dice={"tech": [6, 4]})
economy.tech(turn)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from engine import get_ruleset
from engine.problems import Problem
from engine.recorder import Recorder
from engine.records import Resolution
from engine.rulesets.temples_and_swords import orders as order_parser
from engine.rulesets.temples_and_swords.hexmap import HexMap
from engine.rulesets.temples_and_swords.model import SEAT_LETTERS, GameState, Hex, Seat, Units
from engine.rulesets.temples_and_swords.rules import OPTIONS
from engine.rulesets.temples_and_swords.seat_turn import SeatTurn

# The "x as x" names are re-exported: the rules tests import every helper from here.
from tests.engine.scripted import ScriptedDice as ScriptedDice
from tests.engine.scripted import ScriptedDiceMixin, patch_turn_dice, play_turn
from tests.engine.scripted import codes as codes
from tests.engine.scripted import results as results
from tests.engine.scripted import texts as texts

DEFAULT_OPTIONS = {spec.name: spec.default for spec in OPTIONS}


@dataclass
class ScriptedTurn(ScriptedDiceMixin, SeatTurn):
    """A seat's turn whose dice roll what the test scripted."""


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


QUIET = {"disaster": 6, "migration": 1}


def patch_dice(
    monkeypatch: pytest.MonkeyPatch, script: dict[tuple[str, str], list[int]] | None = None
) -> None:
    """Script the dice of whole turns: {(seat, purpose): values}. Unscripted disaster checks
    roll 6 and migration rolls 1; any other unscripted roll is a test error."""
    patch_turn_dice(monkeypatch, SeatTurn, QUIET, script)


RULESET = get_ruleset("temples-and-swords")


def play(
    state: GameState, orders: dict[str, str] | None = None, seed: int = 0
) -> tuple[GameState, Resolution]:
    """One full turn through the ruleset interface, from and to JSON; the orders must parse."""
    resolution = play_turn(RULESET, state.to_json(), orders, seed)
    return GameState.from_json(resolution.state), resolution


def problems(state: GameState, seat: str, text: str) -> list[Problem]:
    return order_parser.parse(state, seat, text).problems
