"""One seat's turn in progress: the state, that seat's orders, its dice and the record."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.rulesets.culture_and_conquest.model import CATEGORIES, LOSS_TIES, GameState, Seat
from engine.rulesets.culture_and_conquest.orders import Order
from engine.turns import SeatTurnBase

PHASES = (
    "1 Population increase",
    "2 Population distribution",
    "3 Gain leader",
    "4 Harvest",
    "5 Disaster check",
    "6 Upkeep",
    "7 War",
    "8 Trade",
    "9 Build",
    "10 Research",
    "11 Income",
)
MOVE_PHASE = "7b Move"  # the map version: "Add a Move Phase after War Phase."
MAP_PHASES = (*PHASES[:7], MOVE_PHASE, *PHASES[7:])


@dataclass
class SeatTurn(SeatTurnBase[GameState, Seat, Order]):
    """The seat's turn as this ruleset's phases see it, with what disasters and trades add."""

    disaster: str = ""  # the disaster suffered this turn: its build and war phases are skipped
    # every seat's orders of this turn by (seat, line), for results of trades across seats
    all_orders: dict[tuple[str, int], Order] = field(default_factory=dict)


def lose_population(seat: Seat, count: int, spare_army: bool = False) -> dict[str, int]:
    """Remove up to `count` populations, one at a time from the largest category (ties in
    LOSS_TIES order); `spare_army` takes armies only when nothing else is left. Returns what
    each category lost."""
    lost: dict[str, int] = {}
    for _ in range(count):
        pool = [c for c in LOSS_TIES if seat.pops[c] and not (spare_army and c == "army")]
        pool = pool or [c for c in LOSS_TIES if seat.pops[c]]
        if not pool:
            break
        largest = max(pool, key=lambda c: (seat.pops[c], -LOSS_TIES.index(c)))
        seat.pops[largest] -= 1
        lost[largest] = lost.get(largest, 0) + 1
    return {c: lost[c] for c in CATEGORIES if c in lost}


def describe_loss(lost: dict[str, int]) -> str:
    if not lost:
        return "none"
    return ", ".join(f"{n} {c}" for c, n in lost.items())


def trim_scholars(seat: Seat) -> int:
    """Scholars beyond 1 per city return to Agriculture; returns how many did."""
    extra = max(0, seat.pops["scholars"] - len(seat.cities))
    seat.pops["scholars"] -= extra
    seat.pops["agriculture"] += extra
    return extra
