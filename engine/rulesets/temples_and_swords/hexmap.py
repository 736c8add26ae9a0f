"""The hex map: its terrain, and generating a map for 2 to 8 seats.

The geometry (names like "C4", neighbours, distances) is shared and lives in engine.hexgrid.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import ClassVar

from engine.dice import Dice
from engine.hexgrid import hex_name, hex_place, neighbours, parse_hex_name, spread_out

GRASS = "g"
DESERT = "d"


@dataclass(frozen=True)
class HexMap:
    """The terrain: one string per row of 'g' (grassland) and 'd' (desert). It never changes.
    Stored as the list of rows."""

    json_inline: ClassVar[bool] = True
    rows: tuple[str, ...]

    @property
    def width(self) -> int:
        return len(self.rows[0])

    @property
    def height(self) -> int:
        return len(self.rows)

    def contains(self, name: str) -> bool:
        place = parse_hex_name(name)
        return place is not None and 0 <= place[0] < self.width and 0 <= place[1] < self.height

    def terrain(self, name: str) -> str:
        col, row = hex_place(name)
        return self.rows[row][col]

    def names(self) -> Iterator[str]:
        for row in range(self.height):
            for col in range(self.width):
                yield hex_name(col, row)

    def neighbours(self, name: str) -> tuple[str, ...]:
        return neighbours(self.width, self.height, name)

    def on_edge(self, name: str) -> bool:
        return len(self.neighbours(name)) < 6


def map_size(seats: int) -> tuple[int, int]:
    """About 20 hexes a seat, a little wider than high, with an even number of hexes so that
    grassland and desert can be equal in number."""
    total = 20 * seats
    height = max(5, round(math.sqrt(total / 1.3)))
    width = math.ceil(total / height)
    if (width * height) % 2:
        width += 1
    return width, height


def generate_map(seats: int, dice: Dice) -> tuple[HexMap, list[str]]:
    """A map with exactly as many grassland as desert hexes and one starting grassland hex a
    seat, every two starts at least three hexes apart (rule: Setup)."""
    width, height = map_size(seats)
    for _attempt in range(200):
        terrain = _grow_grassland(width, height, dice)
        starts = _place_starts(terrain, seats, dice)
        if starts:
            return terrain, starts
    raise RuntimeError("could not place starting hexes")  # not reached for 2..8 seats


def _grow_grassland(width: int, height: int, dice: Dice) -> HexMap:
    """Grassland grows as a few clumps from random seeds until it covers half the map."""
    blank = HexMap(tuple(DESERT * width for _ in range(height)))
    names = list(blank.names())
    target = len(names) // 2
    grass: set[str] = set()
    frontier: list[str] = []
    while len(grass) < target:
        if not frontier or dice.d(6) == 1:
            frontier.append(dice.choice([n for n in names if n not in grass]))
        spot = frontier[dice.randrange(len(frontier))]
        if spot not in grass:
            grass.add(spot)
            frontier.extend(n for n in blank.neighbours(spot) if n not in grass)
        frontier = [n for n in frontier if n not in grass]
    rows = []
    for row in range(height):
        rows.append("".join(GRASS if hex_name(c, row) in grass else DESERT for c in range(width)))
    return HexMap(tuple(rows))


def _place_starts(terrain: HexMap, seats: int, dice: Dice) -> list[str]:
    """Spread the starts out: each next start is the grassland hex farthest from those chosen,
    among hexes with at least two grassland neighbours (so no seat starts boxed in by desert)."""
    good = [
        n
        for n in terrain.names()
        if terrain.terrain(n) == GRASS
        and sum(terrain.terrain(m) == GRASS for m in terrain.neighbours(n)) >= 2
    ]
    return spread_out(good, seats, 3, dice)
