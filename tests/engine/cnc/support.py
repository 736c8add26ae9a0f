"""Building small Culture & Conquest positions by hand, and playing phases with scripted dice.

state = make_state(pops={"ann": {"agriculture": 4}}, gold=5)
turn = scripted_turn(state, "ann", "MOVE 2 AGRICULTURE TO ARMY", dice={"war": [3, 1, 1, 1]})
population.distribution(turn)
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
from engine.rulesets.culture_and_conquest import orders as order_parser
from engine.rulesets.culture_and_conquest.model import (
    CATEGORIES,
    SEAT_LETTERS,
    City,
    GameState,
    Land,
    Leader,
    Seat,
    Territory,
)
from engine.rulesets.culture_and_conquest.rules import OPTIONS
from engine.rulesets.culture_and_conquest.seat_turn import SeatTurn

# The "x as x" names are re-exported: the rules tests import every helper from here.
from tests.engine.scripted import ScriptedDiceMixin, patch_turn_dice, play_turn
from tests.engine.scripted import codes as codes
from tests.engine.scripted import results as results
from tests.engine.scripted import texts as texts

DEFAULT_OPTIONS = {spec.name: spec.default for spec in OPTIONS}
CULTURE_NAMES = ("Egyptian", "Roman", "Athenian", "Spartan")
CITY_OF = {"ann": "Giza", "bob": "Rome", "cat": "Athens", "dan": "Sparta"}


@dataclass
class ScriptedTurn(ScriptedDiceMixin, SeatTurn):
    """A seat's turn whose dice roll what the test scripted."""


def make_state(
    seats: Sequence[str] = ("ann", "bob"),
    pops: dict[str, dict[str, int]] | None = None,
    gold: int = 0,
    food: int = 0,
    advances: dict[str, list[str]] | None = None,
    cities: dict[str, list[str]] | None = None,
    leaders: dict[str, list[tuple[str, str]]] | None = None,
    options: dict[str, Any] | None = None,
) -> GameState:
    """A position. Every seat has the given gold and food, populations as given (none
    unless given), one city (its culture's) unless `cities` says otherwise, and no advance."""
    made = []
    for index, name in enumerate(seats):
        seat = Seat(name, SEAT_LETTERS[index], CULTURE_NAMES[index], gold=gold, food=food)
        seat.pops = dict.fromkeys(CATEGORIES, 0) | (pops or {}).get(name, {})
        seat.advances = list((advances or {}).get(name, []))
        seat.cities = [City(n) for n in (cities or {}).get(name, [CITY_OF[name]])]
        seat.leaders = [Leader(n, k) for n, k in (leaders or {}).get(name, [])]
        made.append(seat)
    return GameState(seats=made, options=DEFAULT_OPTIONS | (options or {}))


def scripted_turn(
    state: GameState, seat: str, text: str = "", dice: dict[str, list[int]] | None = None
) -> ScriptedTurn:
    parsed = order_parser.parse(state, seat, text)
    assert not parsed.problems, [p.describe() for p in parsed.problems]
    return ScriptedTurn(
        state, state.seat(seat), parsed.orders, Recorder(), seed=0, scripted=dict(dice or {})
    )


# Unscripted: no population increase (2 - 2), no leader, no disaster, no death of old age,
# no discovery (1 + 1), segments of 6.
QUIET = {"increase": 2, "leader": 6, "disaster": 6, "old age": 6, "research": 1, "war": 6}


def patch_dice(
    monkeypatch: pytest.MonkeyPatch, script: dict[tuple[str, str], list[int]] | None = None
) -> None:
    """Script the dice of whole turns: {(seat, purpose): values}; QUIET for the rest."""
    patch_turn_dice(monkeypatch, SeatTurn, QUIET, script)


RULESET = get_ruleset("culture-and-conquest")


def play(
    state: GameState, orders: dict[str, str] | None = None, seed: int = 0
) -> tuple[GameState, Resolution]:
    """One full turn through the ruleset interface, from and to JSON; the orders must parse."""
    resolution = play_turn(RULESET, state.to_json(), orders, seed)
    return GameState.from_json(resolution.state), resolution


def problems(state: GameState, seat: str, text: str) -> list[Problem]:
    return order_parser.parse(state, seat, text).problems


def event_texts(resolution: Resolution, code: str) -> list[str]:
    return [e.text for e in resolution.events if e.code == code]


# A small map for the map version (see docs/orders/culture-and-conquest.md):
#    A  B  C  D  E  F  G
# 1  L  L  L  L  L  ~  ~
# 2   L  L  L  ~  ~  ~  L
# 3  L  L  ~  ~  ~  L  L
# 4   L  L  L  ~  L  L  L
# 5  L  L  L  L  L  L  L
MAP_ROWS = ("LLLLL~~", "LLL~~~L", "LL~~~LL", "LLL~LLL", "LLLLLLL")
MAP_OPTIONS = {"map": "generated"}


def make_map_state(
    at: dict[str, dict[str, dict[str, int]]],
    cities: dict[str, dict[str, str]] | None = None,
    seats: Sequence[str] = ("ann", "bob"),
    leaders: dict[str, list[tuple[str, str, str]]] | None = None,
    **kwargs: Any,
) -> GameState:
    """A position on MAP_ROWS: `at` {seat: {territory: {category: n}}}, `cities` {seat:
    {territory: name}} (a seat without one has none), `leaders` {seat: [(name, kind,
    territory)]}; the seats' totals follow the map. Other arguments as make_state."""
    totals = {
        seat: {c: sum(t.get(c, 0) for t in places.values()) for c in CATEGORIES}
        for seat, places in at.items()
    }
    named = {seat: list((cities or {}).get(seat, {}).values()) for seat in seats}
    state = make_state(
        seats,
        pops=totals,
        cities=named,
        leaders={s: [(n, k) for n, k, _ in xs] for s, xs in (leaders or {}).items()},
        options=MAP_OPTIONS | kwargs.pop("options", {}),
        **kwargs,
    )
    land = Land.blank(MAP_ROWS)
    for seat, places in at.items():
        for name, pops in places.items():
            land.territories[name].owner = seat
            land.territories[name].pops |= pops
    for seat, sites in (cities or {}).items():
        for name, city in sites.items():
            land.territories[name].owner = seat
            land.territories[name].city = city
    for seat, xs in (leaders or {}).items():
        for leader, _kind, name in xs:
            land.territories[name].owner = seat
            land.territories[name].leaders.append(leader)
    state.land = land
    return state


def spot(state: GameState, name: str) -> Territory:
    assert state.land is not None
    return state.land.territories[name]
