"""Referee corrections: a path names one thing in the state, and the value is checked before
anything changes. A refused edit raises EditError with the reason."""

from __future__ import annotations

from engine.edit_values import whole_number, yes_or_no
from engine.ruleset import EditError
from engine.rulesets.medieval_micromanager.cards import COMMODITIES, KINDS, TOKENS
from engine.rulesets.medieval_micromanager.model import Building, GameState, Seat
from engine.words import normal

EDIT_PATHS = """\
seat.<seat>.units = <n>              seat.ann.units = 6
seat.<seat>.<commodity> = <n>        seat.ann.lumber = 4  (grain lumber
                                       ore stone tools swords shields)
seat.<seat>.alive = yes|no           seat.bob.alive = no
seat.<seat>.buildings = +<kind>      seat.ann.buildings = +house  (a new
                                       card, built, with no token)
seat.<seat>.buildings = -<building>  seat.ann.buildings = -farm2
building.<seat>.<building>.damage = <n>
                                     building.ann.farm1.damage = 0
building.<seat>.<building>.depletion = <n>
                                     building.ann.farm1.depletion = 2"""


def edit(game: GameState, path: str, value: str) -> None:
    """Apply one edit to `game` in place (the caller passes a copy)."""
    parts = path.strip().split(".")
    value = value.strip()
    if parts[0].lower() == "seat" and len(parts) == 3:
        _edit_seat(_seat(game, parts[1]), parts[2].lower(), value)
    elif parts[0].lower() == "building" and len(parts) == 4:
        _edit_building(_building(_seat(game, parts[1]), parts[2]), parts[3].lower(), value)
    else:
        raise EditError("an edit path is seat.<seat>.<field> or building.<seat>.<building>.<field>")


def _seat(game: GameState, name: str) -> Seat:
    for seat in game.seats:
        if normal(seat.name) == normal(name):
            return seat
    raise EditError(f"no seat {name!r}; seats: {', '.join(s.name for s in game.seats)}")


def _building(seat: Seat, label: str) -> Building:
    found = seat.building(normal(label))
    if found is None:
        held = ", ".join(b.label for b in seat.buildings) or "none"
        raise EditError(f"{seat.name} has no building {label!r}; buildings: {held}")
    return found


def _edit_seat(seat: Seat, field: str, value: str) -> None:
    if field == "units":
        seat.units = whole_number(value, 0, 10_000)
    elif field in COMMODITIES:
        seat.stock[field] = whole_number(value, 0, 10_000)
    elif field == "alive":
        seat.alive = yes_or_no(value)
    elif field == "buildings":
        _edit_cards(seat, value)
    else:
        raise EditError(
            f"no seat field {field!r}: units, alive, buildings or a commodity "
            f"({', '.join(COMMODITIES)})"
        )


def _edit_cards(seat: Seat, value: str) -> None:
    sign, name = value[:1], normal(value[1:])
    if sign == "+" and name in KINDS:
        label = seat.next_label(name)
        seat.numbered[name] = seat.numbered.get(name, 0) + 1
        seat.buildings.append(Building(label, name))
    elif sign == "-":
        seat.buildings.remove(_building(seat, name))
    else:
        raise EditError(f"write +<kind> (one of: {' '.join(KINDS)}) or -<building>")


def _edit_building(building: Building, field: str, value: str) -> None:
    if field not in ("damage", "depletion"):
        raise EditError(f"no building field {field!r}: damage or depletion")
    other = building.depletion if field == "damage" else building.damage
    setattr(building, field, whole_number(value, 0, TOKENS - other))
