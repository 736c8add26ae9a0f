"""One seat's turn in progress: the state, that seat's orders, its dice, the record, and the
resources it holds this turn ("Resources are not saved from turn to turn")."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.rulesets.classical.model import CATEGORIES, GameState, Seat
from engine.rulesets.classical.orders import Order
from engine.turns import SeatTurnBase

PHASES = (
    "1 Produce",
    "2 Upkeep",
    "3 Build",
    "4 Upgrade",
    "5 Settle",
    "6 Move",
    "7 Battle",
    "8 Recruit",
    "9 Research",
    "10 Score",
)
ANY = CATEGORIES  # "any 1 resource"
SPEND_LAST = "gold"  # gold and trade "can be used as any other Resource": kept for last


@dataclass
class SeatTurn(SeatTurnBase[GameState, Seat, Order]):
    """The seat's turn as this ruleset's phases see it."""

    pool: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CATEGORIES, 0))
    monuments_built: int = 0
    recruited: int = 0
    villages: int = 0  # placed this turn: the first is free
    arrived: dict[str, int] = field(default_factory=dict)  # units that moved in, by space

    def pay(self, needs: list[tuple[str, ...]], prefer: tuple[str, ...] = ()) -> str | None:
        """Use up one resource for each need (a tuple of the kinds that will do; gold always
        will). All or nothing: returns what was used ('2 food, 1 stone'), or None and nothing
        used when the pool cannot pay."""
        return pay_from(self.pool, needs, prefer)

    def pool_text(self) -> str:
        return ", ".join(f"{n} {k}" for k, n in self.pool.items() if n) or "nothing"


def pay_from(
    pool: dict[str, int], needs: list[tuple[str, ...]], prefer: tuple[str, ...] = ()
) -> str | None:
    """SeatTurn.pay on any pool (the bot plans with it): the kinds a need allows, the most
    plentiful first and gold last, the scarcest needs paid first."""
    left = dict(pool)
    used = dict.fromkeys(CATEGORIES, 0)
    for need in sorted(needs, key=len):
        kind = _pick(left, need, prefer)
        if kind is None:
            return None
        left[kind] -= 1
        used[kind] += 1
    pool.update(left)
    return ", ".join(f"{n} {k}" for k, n in used.items() if n) or "nothing"


def _pick(left: dict[str, int], need: tuple[str, ...], prefer: tuple[str, ...]) -> str | None:
    for kind in prefer:
        if kind in need and left[kind] > 0:
            return kind
    usable = [k for k in need if k != SPEND_LAST and left[k] > 0]
    if usable:
        return max(usable, key=lambda k: (left[k], -CATEGORIES.index(k)))
    return SPEND_LAST if left[SPEND_LAST] > 0 else None
