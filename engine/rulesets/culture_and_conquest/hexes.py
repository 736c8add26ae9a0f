"""Hex geometry for the map version: names, neighbours and distances on a grid of hexes.

A space is named by column letter and row number ("C4"), as a player reads it off the text map.
Rows are laid out "odd-r": every second row (2, 4, ...) is shifted half a hex to the right.
"""

from __future__ import annotations

import re
from functools import lru_cache

HEX_NAME = re.compile(r"^([A-Za-z])(\d{1,2})$")

# Neighbour offsets (dcol, drow) for rows with even and odd 0-based index.
_EVEN = ((1, 0), (0, -1), (-1, -1), (-1, 0), (-1, 1), (0, 1))
_ODD = ((1, 0), (1, -1), (0, -1), (-1, 0), (0, 1), (1, 1))


def hex_name(col: int, row: int) -> str:
    return f"{chr(ord('A') + col)}{row + 1}"


def parse_hex_name(name: str) -> tuple[int, int] | None:
    """(col, row) of a name like 'c4', or None if it is not of that form."""
    match = HEX_NAME.match(name.strip())
    if not match:
        return None
    return ord(match.group(1).upper()) - ord("A"), int(match.group(2)) - 1


def looks_like_hex(word: str) -> bool:
    return HEX_NAME.match(word.strip()) is not None


@lru_cache(maxsize=8192)  # names are few and looked up constantly
def neighbours(width: int, height: int, name: str) -> tuple[str, ...]:
    col, row = _place(name)
    offsets = _ODD if row % 2 else _EVEN
    found = []
    for dcol, drow in offsets:
        c, r = col + dcol, row + drow
        if 0 <= c < width and 0 <= r < height:
            found.append(hex_name(c, r))
    return tuple(found)


def _place(name: str) -> tuple[int, int]:
    place = parse_hex_name(name)
    if place is None:
        raise ValueError(f"not a hex name: {name!r}")
    return place


def distance(a: str, b: str) -> int:
    """Steps between two hexes."""
    ax, az = _cube(*_place(a))
    bx, bz = _cube(*_place(b))
    dx, dz = ax - bx, az - bz
    return max(abs(dx), abs(dz), abs(dx + dz))


def _cube(col: int, row: int) -> tuple[int, int]:
    return col - (row - (row & 1)) // 2, row


def reading_key(name: str) -> tuple[int, int]:
    """Reading order: row by row, then column."""
    col, row = _place(name)
    return row, col
