"""The text map of the map version, within 72 columns. A space is two lines of five characters
and a space:

    B12C       the holder's letter ('*' for the reader's, '.' for nobody's), its populations,
    a3L        C for a city (W: with a Wonder); then a3 for 3 Armies and L for leaders in it.
    ~~~~~      sea

Below the map, every held territory with its tokens, culture by culture.
"""

from __future__ import annotations

import textwrap

from engine.hextext import CELL, WIDTH, hex_sections
from engine.rulesets.culture_and_conquest.model import CATEGORIES, GameState, Land, Territory
from engine.words import plural

SHORT = {"army": "Ar", "agriculture": "Ag", "trade": "Tr", "labor": "La", "scholars": "Sc"}


def map_lines(state: GameState, reader: str) -> list[str]:
    """The map in sections of as many columns as fit, the legend and the territories."""
    land = state.land
    assert land is not None
    sections = hex_sections(
        land.width,
        land.height,
        lambda name: _top(state, land, reader, name),
        lambda name: _bottom(land, name),
    )
    return [*sections.split("\n"), "", *_legend(state, reader), "", *territory_lines(state, reader)]


def _top(state: GameState, land: Land, reader: str, name: str) -> str:
    spot = land.territories.get(name)
    if spot is None:
        return "~" * (CELL - 1) + " "
    if not spot.owner:
        return ".".ljust(CELL)
    mark = "*" if spot.owner == reader else state.seat(spot.owner).letter
    pop = str(spot.population) if spot.population else ""
    return f"{mark}{pop}{_city_mark(state, spot)}".ljust(CELL)


def _city_mark(state: GameState, spot: Territory) -> str:
    if not spot.city:
        return ""
    city = state.seat(spot.owner).city(spot.city)
    return "W" if city is not None and city.wonder else "C"


def _bottom(land: Land, name: str) -> str:
    spot = land.territories.get(name)
    if spot is None:
        return "~" * (CELL - 1) + " "
    army = f"a{spot.army}" if spot.army else ""
    return (army + ("L" if spot.leaders else "")).ljust(CELL)


def _legend(state: GameState, reader: str) -> list[str]:
    seats = "  ".join(
        f"{s.letter}={s.name}" + (" (you)" if s.name == reader else "") for s in state.seats
    )
    return [
        "A space is named by its column and row (C4); ~~~~~ is sea. On land:",
        "the holder (* you, . nobody) and its populations, C a city (W with a",
        "Wonder); below, a3 for 3 Armies and L for leaders. ~ after a name",
        "below marks a coastal territory.",
        *_wrap(f"Seats: {seats}", "", "  "),
    ]


def territory_lines(state: GameState, reader: str) -> list[str]:
    """Every held territory with its tokens, culture by culture in turn order."""
    land = state.land
    assert land is not None
    lines = []
    for holder in state.seats:
        owned = land.owned(holder.name)
        if not owned:
            continue
        you = " *" if holder.name == reader else ""
        lines.append(
            f"{holder.letter} {holder.name}{you}: {plural(len(owned), 'territory', 'territories')}"
        )
        lines += [line for name in owned for line in _wrap(describe(state, name), "  ", "      ")]
    return lines


def describe(state: GameState, name: str) -> str:
    """'C4~ Giza [Pyramids]: Ar3 Ag5 La2; Caesar' - a territory (~: coastal) and its
    tokens."""
    land = state.land
    assert land is not None
    spot = land.territories[name]
    text = f"{name}{'~' if land.coastal(name) else ''}"
    if spot.city:
        city = state.seat(spot.owner).city(spot.city)
        text += f" {spot.city}" + (f" [{city.wonder}]" if city is not None and city.wonder else "")
    pops = " ".join(f"{SHORT[c]}{spot.pops[c]}" for c in CATEGORIES if spot.pops[c])
    text += ": " + (pops or "no populations")
    if spot.leaders:
        text += "; " + ", ".join(spot.leaders)
    return text


def _wrap(text: str, first: str, rest: str) -> list[str]:
    return textwrap.wrap(
        text, WIDTH, initial_indent=first, subsequent_indent=rest, break_on_hyphens=False
    )
