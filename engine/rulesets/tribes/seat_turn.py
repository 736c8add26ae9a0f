"""One seat's turn in progress: the state, that seat's orders, its dice, the record, and what
the turn itself remembers between phases (work spent, population bribed)."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.rulesets.tribes.model import GameState, Seat
from engine.rulesets.tribes.orders import Order
from engine.rulesets.tribes.rules import RULES
from engine.turns import SeatTurnBase

PHASES = (
    "1 Movement",
    "2 Battle",
    "3 Bribes and buildings",
    "4 Work and upkeep",
)


@dataclass
class SeatTurn(SeatTurnBase[GameState, Seat, Order]):
    """The seat's turn as the phases of Tribes see it."""

    spent: dict[str, int] = field(default_factory=dict)  # population whose work is spent, a hex
    bribed: dict[str, int] = field(default_factory=dict)  # population bribed this turn, a hex

    def refuse(self, order: Order, message: str, rule: str) -> None:
        """Skip an order that its phase found impossible, citing the rule."""
        self.rec.skipped(self.name, order, f"{message}; rule: {RULES[rule].split(':')[0]}")
