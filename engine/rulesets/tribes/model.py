"""The game state of Tribes: plain typed dataclasses (engine.serial writes and reads them).

A hex holds the units of at most one tribe at a time, so a hex's units and its owner are one
record (`Place`); its buildings stay when the units leave, and belong to whoever has a unit
there (rule "owned"). Derived values (who owns a building, how many military a tribe keeps)
are computed, not stored.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from engine.hexgrid import hex_name, parse_hex_name
from engine.serial import Serialisable, sparse
from engine.turns import seat_named

UNIT_KINDS = ("population", "melee", "ranged", "magic", "ship")
MILITARY = ("melee", "ranged", "magic")  # the units a barracks supports (rule "barracks")
LAND_KINDS = ("population", "melee", "ranged", "magic")
BUILDINGS = (
    "barracks",
    "blacksmith",
    "fortress",
    "stables",
    "refinery",
    "farm",
    "market",
    "shrine",
    "dock",
    "road",
)
PLURAL_NAMES = ("stables",)  # a building named in the plural takes no article


def a_building(name: str) -> str:
    """'a farm', 'stables'."""
    return name if name in PLURAL_NAMES else f"a {name}"


UPGRADES = ("melee", "beasts", "ranged")  # tribe-card upgrade tracks, each 0, 1 or 2
MATERIALS = ("wood", "stone", "ore", "food", "money")
SEAT_LETTERS = "ABCDEFGH"

# Terrain letters of the map rows.
SEA = "~"
LAND = "."
SITES = {"w": "wood", "s": "stone", "o": "ore", "g": "food"}  # resource sites on land


@dataclass
class Units(Serialisable):
    """One tribe's units in one hex."""

    population: int = sparse(0)
    melee: int = sparse(0)
    ranged: int = sparse(0)
    magic: int = sparse(0)
    ship: int = sparse(0)

    def get(self, kind: str) -> int:
        return int(getattr(self, kind))

    def add(self, kind: str, count: int) -> None:
        setattr(self, kind, self.get(kind) + count)

    def military(self) -> int:
        return self.melee + self.ranged + self.magic

    def total(self) -> int:
        return self.population + self.military() + self.ship

    def described(self) -> str:
        parts = [
            f"{n} {k}{'s' if k == 'ship' and n > 1 else ''}"
            for k in UNIT_KINDS
            if (n := self.get(k))
        ]
        return ", ".join(parts) or "nothing"


@dataclass
class Place(Serialisable):
    """What stands on one hex: one tribe's units (owner '' when none) and the buildings.
    Hexes with nothing on them are not stored."""

    owner: str = sparse("")
    units: Units = sparse(default_factory=Units)
    buildings: list[str] = sparse(default_factory=list)  # in BUILDINGS order

    def has(self, building: str) -> bool:
        return building in self.buildings

    def is_empty(self) -> bool:
        return not (self.units.total() or self.buildings)


@dataclass
class Seat(Serialisable):
    """A tribe and its tribe card."""

    name: str
    letter: str
    money: int = 0
    wood: int = 0
    stone: int = 0
    ore: int = 0
    food: int = 0
    fame: int = 0
    hunger: int = 0  # hunger chips on the tribe card
    melee: int = 0  # Blacksmith upgrade level
    beasts: int = 0  # Stables (mounted beast) upgrade level
    ranged: int = 0  # Refinery upgrade level
    built_kinds: list[str] = field(default_factory=list)  # first of each kind won fame
    alive: bool = True

    def stock(self, material: str) -> int:
        return int(getattr(self, material))

    def pay(self, material: str, amount: int) -> None:
        setattr(self, material, self.stock(material) - amount)

    def gain(self, material: str, amount: int) -> None:
        setattr(self, material, self.stock(material) + amount)

    def level(self, upgrade: str) -> int:
        return int(getattr(self, upgrade))


@dataclass
class GameState(Serialisable):
    json_tag: ClassVar[dict[str, str]] = {"ruleset": "tribes"}

    terrain: list[str]  # one string a row; see SEA, LAND, SITES
    seats: list[Seat]  # in order of play, as rolled at setup
    places: dict[str, Place]
    options: dict[str, Any]
    round: int = 1
    active: int = 0  # sequential mode: index of the seat whose turn is pending
    step: int = 1  # the number of the pending turn as the service counts turns
    winners: list[str] = field(default_factory=list)
    end_reason: str = ""

    # -- the map ---------------------------------------------------------------------------
    @property
    def width(self) -> int:
        return len(self.terrain[0])

    @property
    def height(self) -> int:
        return len(self.terrain)

    def contains(self, name: str) -> bool:
        place = parse_hex_name(name)
        return place is not None and 0 <= place[0] < self.width and 0 <= place[1] < self.height

    def ground(self, name: str) -> str:
        """The terrain letter of a hex on the map."""
        place = parse_hex_name(name)
        assert place is not None
        return self.terrain[place[1]][place[0]]

    def is_sea(self, name: str) -> bool:
        return self.ground(name) == SEA

    def names(self) -> list[str]:
        return [hex_name(c, r) for r in range(self.height) for c in range(self.width)]

    # -- lookups ---------------------------------------------------------------------------
    def seat(self, name: str) -> Seat:
        return seat_named(self.seats, name)

    def peek(self, name: str) -> Place:
        """The hex's contents for reading; an empty Place that is not stored if there is none."""
        return self.places.get(name) or Place()

    def place(self, name: str) -> Place:
        """The hex's contents for changing, created empty on first use (pruned by `tidy`)."""
        if name not in self.places:
            self.places[name] = Place()
        return self.places[name]

    def held(self, seat: str) -> list[str]:
        """The hexes where `seat` has units, in reading order."""
        return sorted(
            (n for n, p in self.places.items() if p.owner == seat),
            key=lambda n: (parse_hex_name(n) or (0, 0))[::-1],
        )

    def units(self, name: str, seat: str) -> Units:
        here = self.peek(name)
        return here.units if here.owner == seat else Units()

    def owned_buildings(self, seat: str, building: str) -> int:
        """Buildings of a kind the seat legally owns: those in hexes where it has a unit."""
        return sum(self.places[n].has(building) for n in self.held(seat))

    def tidy(self) -> None:
        """Drop empty records and owners without units, so that equal games have equal JSON."""
        for here in self.places.values():
            if not here.units.total():
                here.owner = ""
        self.places = {
            n: self.places[n] for n in sorted(self.places) if not self.places[n].is_empty()
        }
