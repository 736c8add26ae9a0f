"""Drawing a hex map as text, the same way in every hex-map ruleset.

A hex is two lines of five characters and a space (the ruleset says what goes in them); every
second row is shifted half a hex to the right ("odd-r", as engine.hexgrid names hexes). A map
wider than 72 columns is cut into sections of even width, each with its column letters above
and below and its row numbers on both sides.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.hexgrid import hex_name

CELL = 6  # five characters and a space
MARGIN = 3  # row numbers on the left
WIDTH = 72

Cell = Callable[[str], str]  # hex name -> at most five characters


def hex_sections(width: int, height: int, top: Cell, bottom: Cell) -> str:
    """The map in sections of as many columns as fit in 72 characters."""
    fits = (WIDTH - 2 * MARGIN - CELL // 2) // CELL
    count = -(-width // fits)
    per_section = -(-width // count)  # sections of even size rather than a long and a short one
    sections = []
    for first in range(0, width, per_section):
        columns = range(first, min(first + per_section, width))
        sections.append(_section(height, columns, top, bottom))
    return "\n\n".join(sections)


def _section(height: int, columns: range, top: Cell, bottom: Cell) -> str:
    header = " " * MARGIN + "".join(f"{chr(ord('A') + c):<{CELL}}" for c in columns)
    lines = [header.rstrip()]
    for row in range(height):
        indent = " " * (CELL // 2) if row % 2 else ""
        upper = "".join(top(hex_name(c, row)).ljust(CELL) for c in columns)
        lower = "".join(bottom(hex_name(c, row)).ljust(CELL) for c in columns)
        pad = " " * (CELL // 2) if not indent else ""
        lines.append(f"{row + 1:>2} {indent}{upper}{pad}{row + 1:>2}")
        lines.append(f"{'':>2} {indent}{lower}".rstrip())
    lines.append(header.rstrip())
    return "\n".join(lines)
