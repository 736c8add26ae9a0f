"""Hex geometry shared by every hex-map ruleset: names, neighbours, distances, reading order.

A hex is named by column letter and row number ("C4"), as a player reads it off the text map.
Rows are laid out "odd-r": every second row (2, 4, ...) is shifted half a hex to the right,
which is how the text maps draw them. Map generation and terrain belong to each ruleset.
"""

from __future__ import annotations

import re
from functools import lru_cache

from engine.dice import Dice

HEX_NAME = re.compile(r"^([A-Za-z])(\d{1,2})$")

# Neighbour offsets (dcol, drow) for rows with even and odd 0-based index.
_EVEN = ((1, 0), (0, -1), (-1, -1), (-1, 0), (-1, 1), (0, 1))
_ODD = ((1, 0), (1, -1), (0, -1), (-1, 0), (0, 1), (1, 1))


def hex_name(col: int, row: int) -> str:
    return f"{chr(ord('A') + col)}{row + 1}"


@lru_cache(maxsize=4096)  # hex names are few and looked up constantly
def parse_hex_name(name: str) -> tuple[int, int] | None:
    """(col, row) of a name like 'c4', or None if it is not of that form."""
    match = HEX_NAME.match(name.strip().strip(",;:."))  # "D4," as in "LABOR D4, 1"
    if not match:
        return None
    return ord(match.group(1).upper()) - ord("A"), int(match.group(2)) - 1


def looks_like_hex(word: str) -> bool:
    return HEX_NAME.match(word.strip().strip(",;:.")) is not None


def hex_place(name: str) -> tuple[int, int]:
    """(col, row) of a name the caller knows is a hex name; ValueError if it is not."""
    place = parse_hex_name(name)
    if place is None:
        raise ValueError(f"not a hex name: {name!r}")
    return place


@lru_cache(maxsize=8192)  # names are few and looked up constantly
def neighbours(width: int, height: int, name: str) -> tuple[str, ...]:
    """The hexes next to `name` that lie on a width x height map, east first, anticlockwise."""
    col, row = hex_place(name)
    offsets = _ODD if row % 2 else _EVEN
    found = []
    for dcol, drow in offsets:
        c, r = col + dcol, row + drow
        if 0 <= c < width and 0 <= r < height:
            found.append(hex_name(c, r))
    return tuple(found)


def distance(a: str, b: str) -> int:
    """Steps between two hexes."""
    ax, az = _cube(*hex_place(a))
    bx, bz = _cube(*hex_place(b))
    dx, dz = ax - bx, az - bz
    return max(abs(dx), abs(dz), abs(dx + dz))


def _cube(col: int, row: int) -> tuple[int, int]:
    return col - (row - (row & 1)) // 2, row


def reading_key(name: str) -> tuple[int, int]:
    """Reading order: row by row, then column."""
    col, row = hex_place(name)
    return row, col


def spread_out(candidates: list[str], count: int, apart: int, dice: Dice) -> list[str]:
    """`count` hexes of `candidates` spread over the map: the first drawn at random, each
    next one the candidate farthest from those chosen (drawn among ties); [] when they cannot
    all be `apart` hexes from each other."""
    if len(candidates) < count:
        return []
    chosen = [dice.choice(candidates)]
    while len(chosen) < count:
        spacing = {n: min(distance(n, c) for c in chosen) for n in candidates if n not in chosen}
        best = max(spacing.values())
        if best < apart:
            return []
        chosen.append(dice.choice(sorted(n for n, d in spacing.items() if d == best)))
    return chosen
