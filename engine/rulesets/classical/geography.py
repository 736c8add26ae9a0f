"""The generated map: irregular territories on a grid of cells, land and sea by a coastline,
resources rolled on the Land and Sea tables, and the ways across it.

How a map is made, all from one dice stream:
1. Territory seeds: blocks of 2x2 cells scattered over the grid (a seed always stays its
   territory's, so the name and holdings drawn on the map always have room).
2. Growth: every territory takes free cells next to it, some faster than others, until the grid
   is full; shapes and sizes come out irregular.
3. Coastline: a smooth random height over the grid, lower toward the edge; the lowest
   territories become sea. That gives a coast, islands and inland seas.
4. Resources: 1D8 on the Land table for every land territory, 1D6 on the Sea table at sea.
A map is kept only if it has room for every seat's first city three or more spaces from every
other and every start can reach every other; otherwise the next attempt is drawn.
"""

from __future__ import annotations

import math
from collections import deque
from functools import lru_cache

from engine.dice import Dice
from engine.rulesets.classical.model import (
    LAND_TABLE,
    SEA_TABLE,
    Board,
    Territory,
    reading_key,
)

COLUMNS = 16  # cells across: 16 cells of 3 characters and their borders fill 65 columns
CELLS_PER_TERRITORY = 8
SIZES = {"small": 7, "normal": 9, "large": 12}  # territories a seat
CITY_SPACING = 3  # "Players may not place within 2 spaces of another City."
ATTEMPTS = 60


def column_letter(col: int) -> str:
    return chr(ord("A") + col)


def cell_label(col: int, row: int) -> str:
    return f"{column_letter(col)}{row + 1}"


def generate(seats: int, size: str, land_share: int, dice: Dice) -> Board:
    """A map for `seats` seats: SIZES[size] territories a seat (one more a seat after every
    ten maps without room for the first cities), about `land_share` percent of them land."""
    count = SIZES[size] * seats
    for attempt in range(ATTEMPTS):
        if attempt and attempt % 10 == 0:
            count += seats  # crowded: a territory more a seat
        height = max(8, math.ceil(count * CELLS_PER_TERRITORY / COLUMNS))
        board = _attempt(count, height, land_share, dice)
        if playable_for(board, seats):
            return board
    raise RuntimeError("no playable map found")  # not reached for 2..12 seats (tested)


def _attempt(count: int, height: int, land_share: int, dice: Dice) -> Board:
    owner = _grow(_seeds(count, height, dice), height, dice)
    labels = sorted(set(owner.values()), key=reading_key)
    sea = _coastline(owner, labels, height, land_share, dice)
    rows = [" ".join(owner[(c, r)] for c in range(COLUMNS)) for r in range(height)]
    territories = {}
    for label in labels:
        table = SEA_TABLE if label in sea else LAND_TABLE
        roll = dice.d(len(table))
        territories[label] = Territory(sea=label in sea, resource=table[roll - 1], roll=roll)
    return Board(rows, territories)


def playable_for(board: Board, seats: int) -> bool:
    """Room for every seat's first city, CITY_SPACING apart, and all of them in reach."""
    sites = spread_sites(board, seats)
    return len(sites) == seats and all(reachable(board, sites[0], s) for s in sites)


def _seeds(count: int, height: int, dice: Dice) -> dict[str, list[tuple[int, int]]]:
    """Up to `count` 2x2 blocks at random spots: first with a free cell between any two, then,
    if the grid is too full for that, side by side."""
    spots = [(c, r) for r in range(height - 1) for c in range(COLUMNS - 1)]
    dice.shuffle(spots)
    seeds: dict[str, list[tuple[int, int]]] = {}
    used: set[tuple[int, int]] = set()
    for gap in (1, 0):
        for col, row in spots:
            if len(seeds) == count:
                return seeds
            block = [(col, row), (col + 1, row), (col, row + 1), (col + 1, row + 1)]
            around = {
                (c + dc, r + dr) for c, r in block for dc in (-gap, 0, gap) for dr in (-gap, 0, gap)
            }
            if around & used:
                continue
            used.update(block)
            seeds[cell_label(col, row)] = block
    return seeds


def _grow(
    seeds: dict[str, list[tuple[int, int]]], height: int, dice: Dice
) -> dict[tuple[int, int], str]:
    """Fill the grid: in each step a territory, chosen with its own weight (1 to 3), takes a
    free cell next to it."""
    owner = {cell: label for label, block in seeds.items() for cell in block}
    weights = {label: dice.d(3) for label in seeds}
    frontier = {label: _free_next(owner, block, height) for label, block in seeds.items()}
    while len(owner) < COLUMNS * height:
        growing = [label for label in seeds if frontier[label]]
        if not growing:
            break
        pool = [label for label in growing for _ in range(weights[label])]
        label = dice.choice(pool)
        cell = dice.choice(sorted(frontier[label]))
        owner[cell] = label
        for other in growing:
            frontier[other].discard(cell)
        frontier[label] |= _free_next(owner, [cell], height)
    return owner


def _free_next(
    owner: dict[tuple[int, int], str], cells: list[tuple[int, int]], height: int
) -> set[tuple[int, int]]:
    found = set()
    for col, row in cells:
        for c, r in ((col + 1, row), (col - 1, row), (col, row + 1), (col, row - 1)):
            if 0 <= c < COLUMNS and 0 <= r < height and (c, r) not in owner:
                found.add((c, r))
    return found


def _coastline(
    owner: dict[tuple[int, int], str], labels: list[str], height: int, land_share: int, dice: Dice
) -> set[str]:
    """The lowest territories by a smooth random height (bumps on a coarse lattice, falling
    toward the edges) are sea."""
    step = 3
    lattice = {
        (i, j): dice.d(100) / 100
        for i in range(COLUMNS // step + 2)
        for j in range(height // step + 2)
    }
    cells: dict[str, list[float]] = {label: [] for label in labels}
    for (col, row), label in owner.items():
        cells[label].append(_height(lattice, col, row, step, height))
    mean = {label: sum(values) / len(values) for label, values in cells.items()}
    land = max(1, round(len(labels) * land_share / 100))
    ranked = sorted(labels, key=lambda label: (-mean[label], reading_key(label)))
    return set(ranked[land:])


def _height(
    lattice: dict[tuple[int, int], float], col: int, row: int, step: int, height: int
) -> float:
    x, y = col / step, row / step
    i, j = int(x), int(y)
    fx, fy = x - i, y - j
    top = lattice[(i, j)] * (1 - fx) + lattice[(i + 1, j)] * fx
    bottom = lattice[(i, j + 1)] * (1 - fx) + lattice[(i + 1, j + 1)] * fx
    noise = top * (1 - fy) + bottom * fy
    edge = min(col + 0.5, COLUMNS - col - 0.5, (row + 0.5) * 1.5, (height - row - 0.5) * 1.5)
    return noise + min(edge, 4) / 12


# -- the ways across a map ------------------------------------------------------------------


def neighbours(board: Board, label: str) -> tuple[str, ...]:
    """The territories sharing a border with `label`, in label order."""
    return _adjacency(tuple(board.rows))[label]


@lru_cache(maxsize=64)  # one entry a map in play; the grid is hashed, not searched
def _adjacency(lines: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    rows = [line.split() for line in lines]
    found: dict[str, set[str]] = {}
    for r, row in enumerate(rows):
        for c, label in enumerate(row):
            found.setdefault(label, set())
            for other in (
                row[c + 1] if c + 1 < len(row) else label,
                rows[r + 1][c] if r + 1 < len(rows) else label,
            ):
                if other != label:
                    found[label].add(other)
                    found.setdefault(other, set()).add(label)
    return {label: tuple(sorted(near, key=reading_key)) for label, near in found.items()}


def distances(board: Board, origin: str, within: int | None = None) -> dict[str, int]:
    """Spaces between `origin` and every territory, over land and sea alike; with `within`,
    only the territories that many spaces away or nearer (a city's spacing is checked at
    every first-city order, and the whole map need not be walked for it)."""
    adjacency = _adjacency(tuple(board.rows))
    seen = {origin: 0}
    queue = deque([origin])
    while queue:
        here = queue.popleft()
        if within is not None and seen[here] >= within:
            continue
        for near in adjacency[here]:
            if near not in seen:
                seen[near] = seen[here] + 1
                queue.append(near)
    return seen


def reachable(board: Board, origin: str, target: str) -> bool:
    """Whether a seat at `origin` can reach `target`: by land, or by sea in fleets built next to
    a coast it can settle. Every land space touching a sea it can reach is reachable."""
    return target in distances(board, origin)


def spread_sites(board: Board, count: int, taken: tuple[str, ...] = ()) -> list[str]:
    """Up to `count` land territories for first cities, each CITY_SPACING or more spaces from
    the others and from `taken`: each next the one farthest from those chosen, among land
    territories with two or more land neighbours (ties in label order)."""
    good = [
        label
        for label, t in board.territories.items()
        if not t.sea and sum(not board.territories[n].sea for n in neighbours(board, label)) >= 2
    ]
    chosen = list(taken)
    near: dict[str, int] = {label: 99 for label in good}
    for site in chosen:
        far = distances(board, site)
        near = {label: min(d, far.get(label, 99)) for label, d in near.items()}
    picked: list[str] = []
    while len(picked) < count:
        free = {label: d for label, d in near.items() if d >= CITY_SPACING}
        if not free:
            break
        best = max(free.values())
        site = next(label for label, d in free.items() if d == best)
        picked.append(site)
        far = distances(board, site)
        near = {label: min(d, far.get(label, 99)) for label, d in near.items()}
    return picked
