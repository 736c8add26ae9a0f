"""One seat's turn in progress: the state, that seat's orders, its dice and the record."""

from __future__ import annotations

from dataclasses import dataclass

from engine.rulesets.temples_and_swords.model import GameState, Hex, Seat
from engine.rulesets.temples_and_swords.orders import Order
from engine.turns import SeatTurnBase

PHASES = (
    "1 Population distribution",
    "2 Upkeep",
    "3 Tech",
    "4 War",
    "5 Build",
    "6 Tax",
    "7 Disaster",
    "8 Population change",
)


@dataclass
class SeatTurn(SeatTurnBase[GameState, Seat, Order]):
    """The seat's turn as this ruleset's phases see it."""

    def owned_hexes(self) -> list[tuple[str, Hex]]:
        return [(name, self.state.hexes[name]) for name in self.state.owned(self.name)]


def lose_population(state: GameState, hex_name: str, count: int) -> int:
    """Remove up to `count` population (basic first, then laborers); returns how many died.
    A hex left with no population and no project is no longer anyone's."""
    here = state.hex(hex_name)
    lost = min(count, here.pop)
    here.pop -= lost
    here.laborers = min(here.laborers, here.pop)
    release_if_empty(state, hex_name)
    return lost


def release_if_empty(state: GameState, hex_name: str) -> None:
    here = state.hex(hex_name)
    if here.pop == 0 and not here.projects and not here.progress:
        here.owner = ""
        here.disease = 0
