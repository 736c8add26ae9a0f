"""What is where on a map, as data: the map picture and the report's JSON are drawn from it.

A ruleset with a map describes it once, as a `MapView` of places on a grid, from the same state
its text map is rendered from; pbem/ draws the picture and writes the JSON. Nothing here knows
of colours or pixels: a place names its terrain, its holder and what stands on it in words.

Two grids: "hex" (odd-r, as engine.hexgrid names hexes: every second row is shifted half a hex
to the right) where each place is one hex, and "square" where a place covers several cells and
so has an irregular shape (Classical's territories).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar


class Lettered(Protocol):
    @property
    def letter(self) -> str: ...


L = TypeVar("L", bound=Lettered)


def by_letter(seats: Iterable[L]) -> list[L]:
    """The seats in the order of their letters, as the map's legend and the standings list
    them: a seat's colour follows its place there, so it keeps one colour on the map and on
    the chart, turn after turn, while the order of play moves (option rotate_first)."""
    return sorted(seats, key=lambda seat: seat.letter)


HEX = "hex"
SQUARE = "square"


@dataclass(frozen=True)
class Troops:
    """Units of one seat in a place."""

    seat: str
    count: int
    kind: str = "army"  # army | fleet | ships ...: a word the legend shows


@dataclass(frozen=True)
class Place:
    """One space of the map, named as the orders name it."""

    label: str  # "C4", "F7": what an order writes
    cells: tuple[tuple[int, int], ...]  # (column, row) grid cells; the label goes on the first
    terrain: str  # one of MapView.terrains
    owner: str = ""  # the holding seat's name, '' for nobody
    marks: tuple[str, ...] = ()  # what is built there, as words: city, temple, village ...
    troops: tuple[Troops, ...] = ()
    note: str = ""  # a short figure shown with the label: a population, a resource

    def to_json(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "cells": [list(cell) for cell in self.cells],
            "terrain": self.terrain,
            "owner": self.owner,
            "marks": list(self.marks),
            "troops": [{"seat": t.seat, "count": t.count, "kind": t.kind} for t in self.troops],
            "note": self.note,
        }


@dataclass(frozen=True)
class MapView:
    """The whole map as one seat sees it (reader '' for the view of no seat)."""

    grid: str  # HEX | SQUARE
    width: int
    height: int
    places: tuple[Place, ...]
    terrains: tuple[str, ...]  # every terrain word used, in the legend's order
    seats: tuple[tuple[str, str], ...]  # (name, letter) of every seat, in the legend's order
    reader: str = ""
    marks: tuple[tuple[str, str], ...] = ()  # (word, one-letter symbol) for the legend
    sea: tuple[str, ...] = ("sea",)  # the terrains that are water

    def to_json(self) -> dict[str, Any]:
        return {
            "grid": self.grid,
            "width": self.width,
            "height": self.height,
            "terrains": list(self.terrains),
            "seats": [{"name": name, "letter": letter} for name, letter in self.seats],
            "places": [place.to_json() for place in self.places],
        }


Standings = dict[str, dict[str, int]]  # seat -> measure -> value; the first measure leads
