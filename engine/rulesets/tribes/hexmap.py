"""Generating the Tribes map (completion: the fragment's start is lost): land with resource
sites and sea around it, one home hex a tribe, every home given the same sites nearby.

Geometry (hex names, neighbours, distance) is shared: engine.hexgrid.
"""

from __future__ import annotations

import math

from engine.dice import Dice
from engine.hexgrid import distance, hex_name, hex_place, neighbours, spread_out
from engine.rulesets.tribes.model import LAND, SEA

SEA_SHARE = 0.25
SITE_SHARE = 0.3
# Every home gets these sites on its first ring (one hex away) and second ring (two away),
# so that no seat starts richer than another; a sea hex within two hexes for a dock.
FIRST_RING = ("g", "w", "s")
SECOND_RING = ("o", "g", "w")


def map_size(seats: int) -> tuple[int, int]:
    """About 24 hexes a seat, a little wider than high."""
    total = 24 * seats
    height = max(6, round(math.sqrt(total / 1.5)))
    return math.ceil(total / height), height


def generate_map(seats: int, dice: Dice) -> tuple[list[str], list[str]]:
    """The terrain rows and one home hex a seat, homes at least four hexes apart."""
    width, height = map_size(seats)
    for _attempt in range(100):
        grid = _sea_and_land(width, height, dice)
        homes = _homes(grid, width, height, seats, dice)
        if homes:
            _sites(grid, width, height, homes, dice)
            # The first home is drawn anywhere and the others as far from it as can be: the
            # tribes draw their homes by lot, so no seat always gets the crowded middle.
            dice.shuffle(homes)
            return [
                "".join(grid[hex_name(c, r)] for c in range(width)) for r in range(height)
            ], homes
    raise RuntimeError("could not place the homes")  # not reached for 2..8 seats


def _sea_and_land(width: int, height: int, dice: Dice) -> dict[str, str]:
    """Sea grows from the map's edge inward in a few bays until it covers SEA_SHARE."""
    names = [hex_name(c, r) for r in range(height) for c in range(width)]
    grid = dict.fromkeys(names, LAND)
    edge = [n for n in names if len(neighbours(width, height, n)) < 6]
    target = int(len(names) * SEA_SHARE)
    frontier: list[str] = []
    sea = 0
    while sea < target:
        if not frontier or dice.d(6) == 1:
            frontier.append(dice.choice(edge))
        spot = frontier.pop(dice.randrange(len(frontier)))
        if grid[spot] == SEA:
            continue
        grid[spot] = SEA
        sea += 1
        frontier.extend(n for n in neighbours(width, height, spot) if grid[n] == LAND)
    return grid


def _homes(grid: dict[str, str], width: int, height: int, seats: int, dice: Dice) -> list[str]:
    """Homes spread out: each next home is the good land hex farthest from those chosen."""
    good = [
        n
        for n, ground in grid.items()
        if ground == LAND
        and len(neighbours(width, height, n)) == 6
        and all(grid[m] == LAND for m in neighbours(width, height, n))
    ]
    return spread_out(good, seats, 4, dice)


def _sites(grid: dict[str, str], width: int, height: int, homes: list[str], dice: Dice) -> None:
    """The same sites around every home, then sites at random on the rest of the land."""
    reserved = set(homes)
    for home in homes:
        first = [n for n in neighbours(width, height, home) if n not in reserved]
        second = sorted(
            n for n in grid if distance(n, home) == 2 and n not in reserved and grid[n] == LAND
        )
        for ring, sites in ((first, FIRST_RING), (second, SECOND_RING)):
            dice.shuffle(ring)
            for name, site in zip(ring, sites, strict=False):
                grid[name] = site
                reserved.add(name)
        reserved.update(first)
        _coast(grid, width, height, home, reserved)
    for name, ground in grid.items():
        if ground == LAND and name not in reserved and dice.d(100) <= SITE_SHARE * 100:
            grid[name] = dice.choice(sorted(FIRST_RING + SECOND_RING))


def _coast(grid: dict[str, str], width: int, height: int, home: str, reserved: set[str]) -> None:
    """A sea hex two hexes from the home, for a dock: the nearest edge hex becomes sea."""
    near = [n for n in grid if distance(n, home) == 2]
    if any(grid[n] == SEA for n in near):
        return
    # The hex of the second ring that lies toward the nearest map edge.
    free = sorted(
        (n for n in near if n not in reserved), key=lambda n: (_edge_distance(n, width, height), n)
    )
    if free:
        grid[free[0]] = SEA
        reserved.add(free[0])


def _edge_distance(name: str, width: int, height: int) -> int:
    col, row = hex_place(name)
    return min(col, row, width - 1 - col, height - 1 - row)
