"""The game state of Temples and Swords (written to plain JSON and read back by engine.serial)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from engine.rulesets.temples_and_swords.hexmap import HexMap
from engine.serial import Serialisable, sparse
from engine.turns import seat_named

UNIT_TYPES = ("soldier", "swordsman", "horseman", "slave")
MILITARY = ("soldier", "swordsman", "horseman")
PROJECTS = ("city", "road", "temple", "walls", "marketplace", "library")
ADVANCES = (
    "Military Doctrine",
    "Equestrian",
    "Metal Working",
    "Religion",
    "Art",
    "Masonry",
    "Coinage",
    "Writing",
)  # in chart order: a d8 roll of n gives ADVANCES[n - 1]
SEAT_LETTERS = "ABCDEFGH"


@dataclass
class Units(Serialisable):
    """One seat's units in one hex."""

    soldier: int = sparse(0)
    swordsman: int = sparse(0)
    horseman: int = sparse(0)
    slave: int = sparse(0)

    def get(self, kind: str) -> int:
        return int(getattr(self, kind))

    def add(self, kind: str, count: int) -> None:
        setattr(self, kind, self.get(kind) + count)

    def military(self) -> int:
        return self.soldier + self.swordsman + self.horseman

    def total(self) -> int:
        return self.military() + self.slave


@dataclass
class Hex:
    """What is on one hex besides its terrain. Hexes with nothing on them are not stored."""

    owner: str = ""
    pop: int = 0
    laborers: int = sparse(0)
    projects: list[str] = sparse(default_factory=list)  # finished, in PROJECTS order
    progress: dict[str, int] = sparse(default_factory=dict)  # build points, unfinished work
    disease: int = sparse(0)  # turns of Disease still to come

    @property
    def basic(self) -> int:
        return self.pop - self.laborers

    def has(self, project: str) -> bool:
        return project in self.projects

    def is_empty(self) -> bool:
        return not (self.owner or self.pop or self.projects or self.progress or self.disease)


@dataclass
class Standing:
    """Standing orders: the choices a player would make at the table mid-turn."""

    advance_preference: list[str] = field(default_factory=list)
    advance_only: bool = sparse(False)  # ADVANCE ... ONLY: keep the points rather than others
    defend_use: str = "best"  # 'best', 'none', or a unit type
    losses: list[str] = field(default_factory=lambda: ["soldier", "horseman", "swordsman"])


@dataclass
class Seat:
    name: str
    letter: str
    gold: int = 0
    tech_points: int = 0
    advances: list[str] = field(default_factory=list)  # in the order gained
    alive: bool = True
    warband: int = 0  # soldiers of a Warbands disaster that attack in this seat's next war phase
    standing: Standing = field(default_factory=Standing)

    def has(self, advance: str) -> bool:
        return advance in self.advances


@dataclass
class GameState(Serialisable):
    json_tag: ClassVar[dict[str, str]] = {"ruleset": "temples-and-swords"}

    terrain: HexMap
    seats: list[Seat]  # in order of play, as rolled at setup
    hexes: dict[str, Hex]
    armies: dict[str, dict[str, Units]]  # hex -> seat -> units
    options: dict[str, Any]
    round: int = 1
    active: int = 0  # sequential mode: index of the seat whose turn is pending
    step: int = 1  # the number of the pending turn as the service counts turns
    winners: list[str] = field(default_factory=list)
    end_reason: str = ""

    # -- lookups ---------------------------------------------------------------------------
    def seat(self, name: str) -> Seat:
        return seat_named(self.seats, name)

    def hex(self, name: str) -> Hex:
        """The hex's contents, created empty on first use (pruned again by `tidy`)."""
        if name not in self.hexes:
            self.hexes[name] = Hex()
        return self.hexes[name]

    def peek(self, name: str) -> Hex:
        """The hex's contents for reading; an empty Hex that is not stored if there is none."""
        return self.hexes.get(name) or Hex()

    def owned(self, seat: str) -> list[str]:
        return sorted([n for n, h in self.hexes.items() if h.owner == seat])

    def units(self, hex_name: str, seat: str) -> Units:
        return self.armies.get(hex_name, {}).get(seat) or Units()

    def units_for_change(self, hex_name: str, seat: str) -> Units:
        return self.armies.setdefault(hex_name, {}).setdefault(seat, Units())

    def army_hexes(self, seat: str) -> list[str]:
        return sorted(h for h, by_seat in self.armies.items() if seat in by_seat)

    def has_enemy_army(self, hex_name: str, seat: str) -> bool:
        """Another seat has military units in the hex (enemies_in, without the list)."""
        by_seat = self.armies.get(hex_name)
        if not by_seat:
            return False
        return any(s != seat and u.military() for s, u in by_seat.items())

    def enemies_in(self, hex_name: str, seat: str) -> list[str]:
        """Other seats with military units in the hex."""
        return sorted(
            s for s, u in self.armies.get(hex_name, {}).items() if s != seat and u.military()
        )

    def tidy(self) -> None:
        """Drop empty records so that equal games have equal JSON."""
        self.hexes = {n: h for n, h in self.hexes.items() if not h.is_empty()}
        armies: dict[str, dict[str, Units]] = {}
        for hex_name, by_seat in self.armies.items():
            kept = {s: u for s, u in by_seat.items() if u.total()}
            if kept:
                armies[hex_name] = kept
        self.armies = armies

    def to_json(self) -> dict[str, Any]:
        self.tidy()
        return super().to_json()
