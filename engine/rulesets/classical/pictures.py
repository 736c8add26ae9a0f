"""The map and the standings as data (engine.mapdata): territories as the shapes their cells
make on the grid, as the text map draws them."""

from __future__ import annotations

from engine.mapdata import SQUARE, MapView, Place, Standings, Troops, by_letter
from engine.rulesets.classical.model import CITY, RESOURCE_CODES, UNIT_NAMES, GameState

MARKS = (("village", "v"), ("city", "C"), ("monument", "M"))


def map_view(state: GameState, seat: str) -> MapView:
    board = state.board
    cells: dict[str, list[tuple[int, int]]] = {label: [] for label in board.territories}
    for row, labels in enumerate(board.grid):
        for col, label in enumerate(labels):
            if label:
                cells[label].append((col, row))
    return MapView(
        grid=SQUARE,
        width=board.width,
        height=board.height,
        places=tuple(_place(state, label, cells[label]) for label in board.territories),
        terrains=("land", "sea"),
        seats=tuple((s.name, s.letter) for s in by_letter(state.seats)),
        reader=seat,
        marks=MARKS,
    )


def _place(state: GameState, label: str, cells: list[tuple[int, int]]) -> Place:
    spot = state.space(label)
    home = (ord(label[0]) - ord("A"), int(label[1:]) - 1)  # the label's own cell goes first
    ordered = sorted(cells, key=lambda cell: (cell != home, cell[1], cell[0]))
    marks = ["city" if spot.settlement == CITY else "village"] if spot.settlement else []
    marks += ["monument"] * spot.monuments
    kind = UNIT_NAMES[spot.sea][0]
    return Place(
        label=label,
        cells=tuple(ordered),
        terrain="sea" if spot.sea else "land",
        owner=spot.owner,
        marks=tuple(marks),
        troops=tuple(Troops(s, n, kind) for s, n in sorted(spot.units.items()) if n),
        note=RESOURCE_CODES[spot.resource],
    )


def standings(state: GameState) -> Standings:
    return {
        holder.name: {
            "VP": holder.vp,
            "cities": len(state.cities(holder.name)),
            "levels": sum(holder.levels.values()),
        }
        for holder in by_letter(state.seats)
    }
