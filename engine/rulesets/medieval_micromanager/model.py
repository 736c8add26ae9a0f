"""The game state of Medieval Micromanager: plain typed dataclasses (the ruleset kit turns
them into JSON and back). Derived figures (work places, storage, housing) are computed here,
never stored.

A seat is its units (the text's "units" and its "worker" are the same pieces), its commodities
and its building cards, each with its damage and depletion tokens and the units working on it
this turn.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from engine.rulesets.medieval_micromanager.cards import (
    COMMODITIES,
    HOUSED,
    OTHER_COMMODITIES,
    STORE,
    STORE_LOSS,
    TOKENS,
)
from engine.serial import Serialisable, sparse
from engine.turns import seat_named


@dataclass
class Building:
    label: str  # the card's name in orders and reports: kind and number, "farm2"
    kind: str
    # Most cards carry no token and no worker most of the time: left out of the JSON then.
    damage: int = sparse(0)
    depletion: int = sparse(0)
    workers: int = sparse(0)  # units placed on it this turn (taken off at the start of the next)
    produced: bool = sparse(False)  # produced commodities this turn (for the depletion check)

    @property
    def places(self) -> int:
        """ "An fully undepleted building allows for 5 units to work on it a turn. Each point
        of depletion reduces this by one." """
        return max(0, TOKENS - self.depletion)

    @property
    def free_places(self) -> int:
        return max(0, self.places - self.workers)

    @property
    def tokens(self) -> int:
        return self.damage + self.depletion

    @property
    def destroyed(self) -> bool:
        """ "all buildings with five damage or depletion tokens on them" """
        return self.tokens >= TOKENS


@dataclass
class Seat:
    name: str
    alive: bool = True
    units: int = 0
    stock: dict[str, int] = field(default_factory=lambda: dict.fromkeys(COMMODITIES, 0))
    buildings: list[Building] = field(default_factory=list)
    numbered: dict[str, int] = field(default_factory=dict)  # the last number given a kind
    defend: int = sparse(-1)  # standing order: units at home that defend (-1: all)
    shields: int = sparse(-1)  # standing order: shields used in defence (-1: one a defender)
    spare: list[str] = sparse(default_factory=list)  # standing order: razed last, first last
    bought: int = sparse(0)  # units bought this turn (they act from the next turn)
    tools_used: int = sparse(0)  # tools in use this turn (each used once a turn)

    def building(self, label: str) -> Building | None:
        return next((b for b in self.buildings if b.label == label), None)

    def of_kind(self, kind: str, undamaged: bool = False) -> list[Building]:
        return [b for b in self.buildings if b.kind == kind and not (undamaged and b.damage)]

    def next_label(self, kind: str) -> str:
        return f"{kind}{self.numbered.get(kind, 0) + 1}"

    def has_school(self) -> bool:
        """ "After a school has been built": a school standing with no damage token."""
        return bool(self.of_kind("school", undamaged=True))

    def cathedrals(self) -> int:
        """Cathedrals standing with no damage token (the goal counts these)."""
        return len(self.of_kind("cathedral", undamaged=True))

    def grain_room(self) -> int:
        return _room(self.of_kind("granary"))

    def other_room(self) -> int:
        return _room(self.of_kind("warehouse"))

    def others(self) -> int:
        return sum(self.stock[c] for c in OTHER_COMMODITIES)

    def housing(self) -> int:
        """ "A House must exists for every 5 units. If a House is damaged, this is reduced by 1
        per damage token for that house." """
        return sum(max(0, HOUSED - house.damage) for house in self.of_kind("house"))

    def working(self) -> int:
        return sum(b.workers for b in self.buildings)

    def at_home(self) -> int:
        """Units on no building, who may defend: completion of "the defended decides how many
        of his units will defend". Units on a building (where they worked in the seat's last
        turn, until its next turn begins) are at work; new units bought this turn are home."""
        return max(0, self.units - self.working())

    def idle(self) -> int:
        """Units that may still act this turn (units bought this turn act from the next)."""
        return max(0, self.units - self.bought - self.working())

    def tools_free(self) -> int:
        if not self.has_school():
            return 0
        return max(0, self.stock["tools"] - self.tools_used)


def _room(stores: list[Building]) -> int:
    return sum(max(0, STORE - STORE_LOSS * store.damage) for store in stores)


@dataclass
class GameState(Serialisable):
    json_tag: ClassVar[dict[str, str]] = {"ruleset": "medieval-micromanager"}

    seats: list[Seat]  # in seat order, as rolled at setup
    options: dict[str, Any]
    round: int = 1
    active: int = 0
    step: int = 1
    winners: list[str] = field(default_factory=list)
    end_reason: str = ""

    def seat(self, name: str) -> Seat:
        return seat_named(self.seats, name)
