"""Positions and a one-call turn for the Tribes rule tests."""

from __future__ import annotations

from engine.recorder import Recorder
from engine.records import ParsedOrders
from engine.rulesets.tribes.examples import position
from engine.rulesets.tribes.model import GameState, Place, Units
from engine.rulesets.tribes.orders import parse
from engine.rulesets.tribes.turn import play


def game() -> GameState:
    """The order reference's position: ann in C3 (barracks, blacksmith, road), D3 (road),
    E2 (dock), a ship in F2; bob in C4."""
    return position()


def put(
    state: GameState, name: str, seat: str, buildings: tuple[str, ...] = (), **units: int
) -> None:
    """Set a hex's contents outright."""
    state.places[name] = Place(seat, Units(**units), list(buildings))


def read(state: GameState, seat: str, text: str) -> ParsedOrders:
    return parse(state, seat, text)


def run(state: GameState, texts: dict[str, str], seed: int = 1) -> Recorder:
    """Parse every seat's text (no problem allowed) and play the turn."""
    orders = {}
    for seat, text in texts.items():
        parsed = parse(state, seat, text)
        assert parsed.problems == [], [p.describe() for p in parsed.problems]
        orders[seat] = parsed.orders
    return play(state, orders, seed)


def codes(rec: Recorder, seat: str = "") -> list[str]:
    return [e.code for e in rec.events if not seat or e.seat == seat]


def notes(rec: Recorder, seat: str) -> list[str]:
    return [f"{r.status.value}: {r.note}" for r in rec.results.get(seat, [])]
