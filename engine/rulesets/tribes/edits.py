"""Referee corrections: a path names one thing in the state, and the value is checked before
anything changes. A refused edit raises EditError with the reason."""

from __future__ import annotations

from engine.edit_values import named_seat, whole_number, yes_or_no
from engine.hexgrid import hex_name, parse_hex_name
from engine.ruleset import EditError
from engine.rulesets.tribes.model import BUILDINGS, UNIT_KINDS, GameState

SEAT_FIELDS = (
    "money",
    "wood",
    "stone",
    "ore",
    "food",
    "fame",
    "hunger",
    "melee",
    "beasts",
    "ranged",
)
EDIT_PATHS = """\
seat.<seat>.<stock> = <n>          seat.ann.money = 12
  (money wood stone ore food fame hunger; upgrades melee beasts ranged
  0 to 2)
seat.<seat>.alive = yes|no         seat.bob.alive = no
units.<hex>.<seat>.<unit> = <n>    units.C4.ann.melee = 3
  (population melee ranged magic ship; one tribe's units a hex)
hex.<hex>.owner = <seat>           hex.C4.owner = ann  (its units change
  hands)
hex.<hex>.<building> = yes|no      hex.C4.fortress = yes"""


def edit(state: GameState, path: str, value: str) -> None:
    """Apply one edit to `state` in place (the caller passes a copy)."""
    parts = path.strip().split(".")
    kind = parts[0].lower()
    if kind == "seat" and len(parts) == 3:
        _edit_seat(state, parts[1], parts[2].lower(), value.strip())
    elif kind == "hex" and len(parts) == 3:
        _edit_hex(state, _hex(state, parts[1]), parts[2].lower(), value.strip())
    elif kind == "units" and len(parts) == 4:
        _edit_units(state, _hex(state, parts[1]), parts[2], parts[3].lower(), value.strip())
    else:
        raise EditError(
            "an edit path is seat.<seat>.<field>, hex.<hex>.<field> or units.<hex>.<seat>.<unit>"
        )
    state.tidy()


def _edit_seat(state: GameState, name: str, field: str, value: str) -> None:
    seat = named_seat(state.seats, name)
    if field == "alive":
        seat.alive = yes_or_no(value)
    elif field in ("melee", "beasts", "ranged"):
        setattr(seat, field, whole_number(value, 0, 2))
    elif field in SEAT_FIELDS:
        setattr(seat, field, whole_number(value))
    else:
        raise EditError(f"a tribe has no {field!r} ({', '.join(SEAT_FIELDS)}, alive)")


def _hex(state: GameState, name: str) -> str:
    place = parse_hex_name(name)
    if place is None or not state.contains(name):
        raise EditError(f"{name!r} is not a hex of this map")
    return hex_name(*place)  # "c04" -> "C4"


def _edit_hex(state: GameState, name: str, field: str, value: str) -> None:
    here = state.place(name)
    if field == "owner":
        if not here.units.total():
            raise EditError(f"{name} has no units to change hands (units.{name}.<seat>.<unit>)")
        here.owner = named_seat(state.seats, value).name
    elif field in BUILDINGS:
        wanted = yes_or_no(value)
        here.buildings = [
            b for b in BUILDINGS if (b == field and wanted) or (b != field and b in here.buildings)
        ]
    else:
        raise EditError(f"a hex has no {field!r} (owner or a building)")


def _edit_units(state: GameState, name: str, seat_name: str, kind: str, value: str) -> None:
    seat = named_seat(state.seats, seat_name).name
    here = state.place(name)
    if kind not in UNIT_KINDS:
        raise EditError(f"no unit type {kind!r} ({', '.join(UNIT_KINDS)})")
    if here.owner and here.owner != seat and here.units.total():
        raise EditError(f"{name} holds {here.owner}'s units; a hex holds one tribe's units")
    if (kind == "ship") != state.is_sea(name):
        raise EditError("ships stand on sea hexes and land units on land")
    here.owner = seat
    setattr(here.units, kind, whole_number(value, 0, 99))
