"""The text map: territories drawn with their borders on a grid, within 72 columns.

Every cell of the grid is three characters and its borders; cells of one territory run together,
so a territory shows as one irregular shape. Sea is filled with '~', and the borders between
two seas are dotted, so that the coast stands out. In every territory, at its name's cell:

    F7 Wi      its name (column letter and row number on the rulers) and resource
    A*2        the settlement: owner's letter, v village or * city, monuments in it
    a3         units: owner's letter in lower case and how many (armies on land, fleets
               at sea)

Below the map, the legend and the list of territories with their neighbours.
"""

from __future__ import annotations

import textwrap

from engine.rulesets.classical.geography import column_letter, neighbours
from engine.rulesets.classical.model import (
    CITY,
    RESOURCE_CODES,
    Board,
    GameState,
    Territory,
)

WIDTH = 72
CELL = 4  # three characters and a border
TEXT = CELL * 2 - 1  # the width a seed block of 2x2 cells leaves for each line of text


def map_lines(state: GameState, reader: str) -> list[str]:
    board = state.board
    canvas = _canvas(board)
    for label in board.territories:
        _write(canvas, board, label, _texts(state, label))
    ruler = "   " + "".join(f"  {column_letter(c)} " for c in range(board.width)).rstrip()
    lines = [ruler]
    for row, chars in enumerate(canvas):
        number = f"{row // 2 + 1:>2}" if row % 2 else "  "
        tail = f" {row // 2 + 1}" if row % 2 else ""
        lines.append(f"{number} {''.join(chars)}{tail}".rstrip())
    lines.append(ruler)
    return lines


# The borders and the sea drawn, by the board's rows and its seas: they depend on the board
# alone, and a turn's reports draw one map a seat (its cells were a seventh of the time a
# daemon spent resolving turns and writing their reports).
_CANVASES: dict[tuple[tuple[str, ...], tuple[str, ...]], tuple[str, ...]] = {}
CANVASES_KEPT = 64  # boards: a game's map is generated, so each game has its own


def _canvas(board: Board) -> list[list[str]]:
    seas = tuple(sorted(label for label, spot in board.territories.items() if spot.sea))
    key = (tuple(board.rows), seas)
    drawn = _CANVASES.get(key)
    if drawn is None:
        height, width = 2 * board.height + 1, CELL * board.width + 1
        drawn = tuple(
            "".join(_char(board, row, col) for col in range(width)) for row in range(height)
        )
        if len(_CANVASES) >= CANVASES_KEPT:
            _CANVASES.clear()
        _CANVASES[key] = drawn
    return [list(line) for line in drawn]


def _cell(board: Board, col: int, row: int) -> str:
    """The territory of a cell; '' off the map."""
    if 0 <= col < board.width and 0 <= row < board.height:
        return board.grid[row][col]
    return ""


def _fill(board: Board, label: str) -> str:
    return "~" if board.territories[label].sea else " "


def _char(board: Board, row: int, col: int) -> str:
    c, r = col // CELL, row // 2
    if row % 2 and col % CELL:  # inside a cell
        return _fill(board, _cell(board, c, r))
    if row % 2:  # between two cells side by side
        left, right = _cell(board, c - 1, r), _cell(board, c, r)
        return _fill(board, left) if left and left == right else _line(board, "|", left, right)
    if col % CELL:  # between two cells one above the other
        up, down = _cell(board, c, r - 1), _cell(board, c, r)
        return _fill(board, up) if up and up == down else _line(board, "-", up, down)
    return _corner(board, c, r)


def _line(board: Board, solid: str, *cells: str) -> str:
    """A border: solid where land meets land or sea (and at the map's edge), dotted between
    two seas, so that the coast stands out."""
    if all(cell and board.territories[cell].sea for cell in cells):
        return ":" if solid == "|" else "."
    return solid


def _corner(board: Board, c: int, r: int) -> str:
    """Where four cells meet: a border line runs between any two of them that differ (off the
    map counts as different)."""
    nw, ne = _cell(board, c - 1, r - 1), _cell(board, c, r - 1)
    sw, se = _cell(board, c - 1, r), _cell(board, c, r)
    if nw and nw == ne == sw == se:
        return _fill(board, nw)
    up, down = nw != ne or not nw, sw != se or not sw
    left, right = nw != sw or not nw, ne != se or not ne
    cells = (nw, ne, sw, se)
    if not (left or right):
        return _line(board, "|", *cells)
    if not (up or down):
        return _line(board, "-", *cells)
    return _line(board, "+", *cells)


def _texts(state: GameState, label: str) -> list[str]:
    spot = state.board.territories[label]
    lines = [f"{label} {RESOURCE_CODES[spot.resource]}"]
    settlement = settlement_token(state, spot)
    units = units_token(state, spot)
    if settlement or units:
        lines.append(settlement)
    if units:
        lines.append(units)
    return lines


def settlement_token(state: GameState, spot: Territory) -> str:
    """'AC2': the owner's letter, v village or C city, and monuments (none: nothing); with the
    reduced tokens, the owner's letter and the settlement tokens in the space (1 a village, 2 a
    city, and one more a monument)."""
    if not spot.settlement:
        return ""
    letter = state.seat(spot.owner).letter
    if state.options["tokens"] == "reduced":
        return f"{letter}{(2 if spot.settlement == CITY else 1) + spot.monuments}"
    kind = "*" if spot.settlement == CITY else "v"
    return f"{letter}{kind}{spot.monuments or ''}"


def units_token(state: GameState, spot: Territory) -> str:
    return " ".join(
        f"{state.seat(seat).letter.lower()}{count}" for seat, count in sorted(spot.units.items())
    )


def _write(canvas: list[list[str]], board: Board, label: str, texts: list[str]) -> None:
    """The texts on the lines of the territory's seed block (its name's cell)."""
    col, row = _place(label)
    for offset, text in enumerate(texts[:3]):
        line = canvas[2 * row + 1 + offset]
        start = CELL * col + 1
        for i, ch in enumerate(text[:TEXT]):
            line[start + i] = ch


def _place(label: str) -> tuple[int, int]:
    return ord(label[0]) - ord("A"), int(label[1:]) - 1


def legend(state: GameState, reader: str) -> list[str]:
    letters = "  ".join(
        f"{s.letter}={s.name}" + (" (you)" if s.name == reader else "") for s in state.seats
    )
    reduced = state.options["tokens"] == "reduced"
    settlement = (
        "settlement tokens: owner's letter and count (1 village, 2 city, +1 a monument): A4"
        if reduced
        else "settlement: owner's letter, v village or * city, then monuments: A*2"
    )
    text = (
        "A territory shows its name (column and row on the rulers) and resource: "
        "Gr grain, He herds, Wi wine, Ol olives, Wo wood, Ir iron, St stone, Go gold; "
        "sea (~, dotted borders between seas): Sa salt, Fi fish, Tr trade. Below: the "
        f"{settlement}; then units: owner's letter in lower case and count, armies on land, "
        "fleets at sea: a3."
    )
    return [*wrap(text), *wrap(f"Seats: {letters}")]


def territory_lines(state: GameState) -> list[str]:
    """Every territory: name, resource and the die that rolled it, holdings, neighbours."""
    board = state.board
    lines = [f"{'Name':<4} {'Resource, die':<13} {'Holdings':<9} Next to (~ sea)"]
    for label, spot in board.territories.items():
        die = f"d{6 if spot.sea else 8}={spot.roll}"
        resource = f"{spot.resource}{'~' if spot.sea else ''}"
        holding = " ".join(
            t for t in (settlement_token(state, spot), units_token(state, spot)) if t
        )
        near = " ".join(
            n + ("~" if board.territories[n].sea else "") for n in neighbours(board, label)
        )
        head = f"{label:<4} {resource:<7} {die:<5} {holding:<9} "
        lines += textwrap.wrap(
            head + near, WIDTH, subsequent_indent=" " * len(head), break_on_hyphens=False
        )
    return lines


def wrap(text: str, first: str = "", rest: str = "") -> list[str]:
    return textwrap.wrap(
        text, WIDTH, initial_indent=first, subsequent_indent=rest, break_on_hyphens=False
    )
