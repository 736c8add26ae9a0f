"""The game state of Temples and Swords, and its exact round trip to plain JSON."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.rulesets.temples_and_swords.hexmap import HexMap

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
class Units:
    """One seat's units in one hex."""

    soldier: int = 0
    swordsman: int = 0
    horseman: int = 0
    slave: int = 0

    def get(self, kind: str) -> int:
        return int(getattr(self, kind))

    def add(self, kind: str, count: int) -> None:
        setattr(self, kind, self.get(kind) + count)

    def military(self) -> int:
        return self.soldier + self.swordsman + self.horseman

    def total(self) -> int:
        return self.military() + self.slave

    def to_json(self) -> dict[str, int]:
        return {kind: self.get(kind) for kind in UNIT_TYPES if self.get(kind)}

    @classmethod
    def from_json(cls, data: dict[str, int]) -> Units:
        return cls(**data)


@dataclass
class Hex:
    """What is on one hex besides its terrain. Hexes with nothing on them are not stored."""

    owner: str = ""
    pop: int = 0
    laborers: int = 0
    projects: list[str] = field(default_factory=list)  # finished, in PROJECTS order
    progress: dict[str, int] = field(default_factory=dict)  # build points toward unfinished work
    disease: int = 0  # turns of Disease still to come

    @property
    def basic(self) -> int:
        return self.pop - self.laborers

    def has(self, project: str) -> bool:
        return project in self.projects

    def is_empty(self) -> bool:
        return not (self.owner or self.pop or self.projects or self.progress or self.disease)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"owner": self.owner, "pop": self.pop}
        if self.laborers:
            data["laborers"] = self.laborers
        if self.projects:
            data["projects"] = list(self.projects)
        if self.progress:
            data["progress"] = dict(sorted(self.progress.items()))
        if self.disease:
            data["disease"] = self.disease
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Hex:
        return cls(
            owner=data["owner"],
            pop=data["pop"],
            laborers=data.get("laborers", 0),
            projects=list(data.get("projects", [])),
            progress=dict(data.get("progress", {})),
            disease=data.get("disease", 0),
        )


@dataclass
class Standing:
    """Standing orders: the choices a player would make at the table mid-turn."""

    advance_preference: list[str] = field(default_factory=list)
    defend_use: str = "best"  # 'best', 'none', or a unit type
    losses: list[str] = field(default_factory=lambda: ["soldier", "horseman", "swordsman"])

    def to_json(self) -> dict[str, Any]:
        return {
            "advance_preference": list(self.advance_preference),
            "defend_use": self.defend_use,
            "losses": list(self.losses),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Standing:
        return cls(list(data["advance_preference"]), data["defend_use"], list(data["losses"]))


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

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "letter": self.letter,
            "gold": self.gold,
            "tech_points": self.tech_points,
            "advances": list(self.advances),
            "alive": self.alive,
            "warband": self.warband,
            "standing": self.standing.to_json(),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Seat:
        return cls(
            name=data["name"],
            letter=data["letter"],
            gold=data["gold"],
            tech_points=data["tech_points"],
            advances=list(data["advances"]),
            alive=data["alive"],
            warband=data["warband"],
            standing=Standing.from_json(data["standing"]),
        )


@dataclass
class GameState:
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
        for seat in self.seats:
            if seat.name == name:
                return seat
        raise KeyError(name)

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

    # -- JSON ------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        self.tidy()
        return {
            "ruleset": "temples-and-swords",
            "terrain": list(self.terrain.rows),
            "seats": [seat.to_json() for seat in self.seats],
            "hexes": {n: self.hexes[n].to_json() for n in sorted(self.hexes)},
            "armies": {
                n: {s: u.to_json() for s, u in sorted(self.armies[n].items())}
                for n in sorted(self.armies)
            },
            "options": dict(sorted(self.options.items())),
            "round": self.round,
            "active": self.active,
            "step": self.step,
            "winners": list(self.winners),
            "end_reason": self.end_reason,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameState:
        return cls(
            terrain=HexMap(tuple(data["terrain"])),
            seats=[Seat.from_json(s) for s in data["seats"]],
            hexes={n: Hex.from_json(h) for n, h in data["hexes"].items()},
            armies={
                n: {s: Units.from_json(u) for s, u in by_seat.items()}
                for n, by_seat in data["armies"].items()
            },
            options=dict(data["options"]),
            round=data["round"],
            active=data["active"],
            step=data["step"],
            winners=list(data["winners"]),
            end_reason=data["end_reason"],
        )
