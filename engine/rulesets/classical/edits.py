"""Referee corrections: a path names one thing in the state, and the value is checked before
anything changes. A refused edit raises EditError with the reason."""

from __future__ import annotations

from engine.edit_values import named_seat, whole_number, yes_or_no
from engine.ruleset import EditError
from engine.rulesets.classical.model import CITY, CIVILIZATIONS, TRAITS, VILLAGE, GameState
from engine.words import normal

EDIT_PATHS = """\
seat.<seat>.vp = <n>                    seat.ann.vp = 40
seat.<seat>.<trait> = <level>           seat.ann.religion = 2
seat.<seat>.civilization = <name>       seat.ann.civilization = Romans
seat.<seat>.alive = yes|no              seat.bob.alive = no
space.<label>.settlement = village|city|none, owned by <seat>:
                                        space.F7.settlement = city ann
space.<label>.monuments = <n>           space.F7.monuments = 2
space.<label>.units.<seat> = <n>        space.F7.units.ann = 3"""


def edit(state: GameState, path: str, value: str) -> None:
    """Apply one edit to `state` in place (the caller passes a copy)."""
    parts = path.strip().split(".")
    kind = parts[0].lower()
    if kind == "seat" and len(parts) == 3:
        _edit_seat(state, parts[1], parts[2].lower(), value.strip())
    elif kind == "space" and len(parts) in (3, 4):
        _edit_space(state, parts[1].upper(), parts[2:], value.strip())
    else:
        raise EditError("an edit path is seat.<seat>.<field> or space.<label>.<field>")


def _edit_seat(state: GameState, name: str, field: str, value: str) -> None:
    seat = named_seat(state.seats, name)
    if field == "vp":
        seat.vp = whole_number(value)
    elif field == "alive":
        seat.alive = yes_or_no(value)
    elif field == "civilization":
        match = [c for c in CIVILIZATIONS if normal(c) == normal(value)]
        if not match:
            raise EditError(f"no civilization {value!r}: {', '.join(CIVILIZATIONS)}")
        seat.civilization = match[0]
    elif field in TRAITS:
        seat.levels[field] = whole_number(value, 0, 100)
        seat.points[field] = 0
    else:
        raise EditError(f"a seat has no {field!r} (vp, alive, civilization, a trait)")


def _edit_space(state: GameState, label: str, parts: list[str], value: str) -> None:
    if label not in state.board.territories:
        raise EditError(f"{label!r} is not a territory of this map")
    spot = state.space(label)
    field = parts[0].lower()
    if field == "settlement" and len(parts) == 1:
        words = value.split()
        if words and words[0].lower() == "none":
            spot.owner, spot.settlement, spot.monuments = "", "", 0
            return
        if len(words) != 2 or words[0].lower() not in (VILLAGE, CITY):
            raise EditError("write village <seat>, city <seat> or none")
        if spot.sea:
            raise EditError(f"{label} is sea; settlements stand on land")
        spot.settlement = words[0].lower()
        spot.owner = named_seat(state.seats, words[1]).name
    elif field == "monuments" and len(parts) == 1:
        if not spot.settlement:
            raise EditError(f"{label} has no settlement to hold monuments")
        spot.monuments = whole_number(value, 0, 1000)
    elif field == "units" and len(parts) == 2:
        seat = named_seat(state.seats, parts[1]).name
        spot.add_units(seat, whole_number(value, 0, 1000) - spot.units_of(seat))
    else:
        raise EditError("a space has settlement, monuments and units.<seat>")
