"""The game state of Classical (the Warpspawn civilization game): plain typed dataclasses.

The kit turns them into plain JSON and back; nothing here is written by hand for that. What can
be worked out from the state (a territory's neighbours, a seat's cities, its recruit limit) is
computed, not stored.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, ClassVar

from engine.serial import Serialisable, sparse
from engine.turns import seat_named

# The Research Table (1D12), in die order: a roll of n gives TRAITS[n - 1].
TRAITS = (
    "nautical",
    "military",
    "arts",
    "engineering",
    "agriculture",
    "industry",
    "metallurgy",
    "shipbuilding",
    "economics",
    "government",
    "science",
    "religion",
)
TRAIT_TITLES = {
    "nautical": "Nautical",
    "military": "Military",
    "arts": "Arts",
    "engineering": "Engineering",
    "agriculture": "Agriculture",
    "industry": "Industry",
    "metallurgy": "Metallurgy",
    "shipbuilding": "Ship Building",
    "economics": "Economics",
    "government": "Government",
    "science": "Science",
    "religion": "Religion",
}

# The Land (1D8) and Sea (1D6) tables: a roll of n gives the n-th entry.
LAND_TABLE = ("grain", "herds", "wine", "olives", "wood", "iron", "stone", "gold")
SEA_TABLE = ("salt", "salt", "salt", "fish", "fish", "trade")

# "Keep a paper with a circled space labeled for each of the 6 categories of Resources: Food,
# Luxuries, Gold (and Trade), Wood, Iron, Stone."  Salt has no category: it has no value.
CATEGORIES = ("food", "luxury", "wood", "iron", "stone", "gold")
CATEGORY_OF = {
    "grain": "food",
    "herds": "food",
    "fish": "food",
    "wine": "luxury",
    "olives": "luxury",
    "wood": "wood",
    "iron": "iron",
    "stone": "stone",
    "gold": "gold",
    "trade": "gold",
    "salt": "",
}
# Two letters for each resource on the map.
RESOURCE_CODES = {
    "grain": "Gr",
    "herds": "He",
    "wine": "Wi",
    "olives": "Ol",
    "wood": "Wo",
    "iron": "Ir",
    "stone": "St",
    "gold": "Go",
    "salt": "Sa",
    "fish": "Fi",
    "trade": "Tr",
}
# Trait bonuses at Produce: "Gain 1 extra stone resource for each level in engineering" etc.
BONUS_TRAITS = {
    "engineering": "stone",
    "agriculture": "food",
    "economics": "gold",
    "industry": "luxury",
    "shipbuilding": "wood",
    "metallurgy": "iron",
}

# The Civilization table: name and starting traits (each at level 1).
CIVILIZATIONS: dict[str, tuple[str, str]] = {
    "Minoans": ("shipbuilding", "arts"),
    "Egyptians": ("religion", "engineering"),
    "Sumerians": ("agriculture", "economics"),
    "Phoenicians": ("economics", "shipbuilding"),
    "Athenians": ("shipbuilding", "nautical"),
    "Spartans": ("military", "agriculture"),
    "Romans": ("government", "engineering"),
    "Macedonians": ("military", "economics"),
    "Babylonians": ("industry", "science"),
    "Persians": ("arts", "religion"),
    "Celts": ("arts", "agriculture"),
    "Goths": ("military", "metallurgy"),
}

SEAT_LETTERS = "ABCDEFGHIJKL"
VILLAGE, CITY = "village", "city"
UNIT_NAMES = {False: ("army", "armies"), True: ("fleet", "fleets")}  # by sea


@dataclass
class Territory:
    """One space of the map and what stands on it."""

    sea: bool
    resource: str
    roll: int  # the die rolled for the resource at setup, shown in the reports
    owner: str = sparse("")  # whose settlement stands here
    settlement: str = sparse("")  # '', VILLAGE or CITY
    monuments: int = sparse(0)
    units: dict[str, int] = sparse(default_factory=dict)  # seat -> armies (land) or fleets (sea)

    def units_of(self, seat: str) -> int:
        return self.units.get(seat, 0)

    def add_units(self, seat: str, count: int) -> None:
        left = self.units.get(seat, 0) + count
        if left > 0:
            self.units[seat] = left
        else:
            self.units.pop(seat, None)

    def enemy_units(self, seat: str) -> dict[str, int]:
        return {s: n for s, n in self.units.items() if s != seat and n}

    def held_by_enemy(self, seat: str) -> bool:
        """'You cannot move though enemy held spaces': another seat's units or settlement."""
        return bool(self.enemy_units(seat)) or bool(self.owner and self.owner != seat)


def reading_key(label: str) -> tuple[int, str]:
    """Reading order of territory labels: by row, then by column ('B2' before 'A10')."""
    return int(label[1:]), label[0]


@dataclass
class Board:
    """The generated map: a grid of cells, each naming its territory, and the territories.
    Labels are the grid coordinates (column letter, row number) of a territory's name on the
    map, so a player finds 'F7' by the rulers."""

    rows: list[str]  # rows of cells: each row the labels of its cells' territories, spaced
    territories: dict[str, Territory]

    def __post_init__(self) -> None:
        # Stored JSON has its keys sorted; play goes in reading order (row, then column).
        ordered = sorted(self.territories, key=reading_key)
        self.territories = {label: self.territories[label] for label in ordered}

    @property
    def grid(self) -> tuple[tuple[str, ...], ...]:
        """The cells, row by row: the label of the territory each belongs to."""
        return _grid(tuple(self.rows))

    @property
    def width(self) -> int:
        return len(self.grid[0])

    @property
    def height(self) -> int:
        return len(self.rows)


@lru_cache(maxsize=64)  # one entry a map in play; rows are few strings, quick to hash
def _grid(rows: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(row.split()) for row in rows)


@dataclass
class Standing:
    """Standing orders: what a player decides in advance for the moments mid-turn."""

    feed: list[str] = field(default_factory=lambda: ["cities", "armies", "fleets"])


@dataclass
class Seat:
    name: str
    letter: str
    civilization: str = ""
    alive: bool = True
    vp: int = 0
    levels: dict[str, int] = field(default_factory=dict)  # trait -> level (missing: 0)
    points: dict[str, int] = field(default_factory=dict)  # trait -> research points
    standing: Standing = field(default_factory=Standing)

    def level(self, trait: str) -> int:
        return self.levels.get(trait, 0)


@dataclass
class GameState(Serialisable):
    json_tag: ClassVar[dict[str, str]] = {"ruleset": "classical"}

    seats: list[Seat]  # in order of play
    options: dict[str, Any]
    board: Board
    setup: bool = True  # the setup turn (civilizations, first cities) is pending
    round: int = 1
    active: int = 0  # sequential mode: index of the seat whose turn is pending
    step: int = 1  # the number of the pending turn as the service counts turns
    winners: list[str] = field(default_factory=list)
    end_reason: str = ""

    def seat(self, name: str) -> Seat:
        return seat_named(self.seats, name)

    def space(self, label: str) -> Territory:
        return self.board.territories[label]

    def settlements(self, seat: str, kind: str = "") -> list[str]:
        """Labels of the seat's settlements (of one kind if given), in label order."""
        return [
            label
            for label, t in self.board.territories.items()
            if t.owner == seat and (t.settlement == kind if kind else t.settlement)
        ]

    def cities(self, seat: str) -> list[str]:
        return self.settlements(seat, CITY)

    def unit_spaces(self, seat: str) -> list[str]:
        return [label for label, t in self.board.territories.items() if t.units.get(seat)]

    def monuments(self, seat: str) -> int:
        """Monuments the seat controls: those in its settlements."""
        return sum(t.monuments for t in self.board.territories.values() if t.owner == seat)

    def all_cities(self) -> list[str]:
        return [label for label, t in self.board.territories.items() if t.settlement == CITY]
