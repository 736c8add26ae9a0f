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
hex.<hex>.owner = <seat>|none      hex.C4.owner = ann
hex.<hex>.<unit> = <n>             hex.C4.melee = 3
  (population melee ranged magic ship; the hex needs an owner)
hex.<hex>.<building> = yes|no      hex.C4.fortress = yes"""


def edit(state: GameState, path: str, value: str) -> None:
    """Apply one edit to `state` in place (the caller passes a copy)."""
    parts = path.strip().split(".")
    kind = parts[0].lower()
    if kind == "seat" and len(parts) == 3:
        _edit_seat(state, parts[1], parts[2].lower(), value.strip())
    elif kind == "hex" and len(parts) == 3:
        _edit_hex(state, parts[1], parts[2].lower(), value.strip())
    else:
        raise EditError("an edit path is seat.<seat>.<field> or hex.<hex>.<field>")
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


def _edit_hex(state: GameState, name: str, field: str, value: str) -> None:
    place = parse_hex_name(name)
    if place is None or not state.contains(name):
        raise EditError(f"{name!r} is not a hex of this map")
    here = state.place(hex_name(*place))
    if field == "owner":
        here.owner = "" if value.lower() == "none" else named_seat(state.seats, value).name
    elif field in UNIT_KINDS:
        if not here.owner:
            raise EditError("give the hex an owner first (hex.<hex>.owner = <seat>)")
        if (field == "ship") != state.is_sea(hex_name(*place)):
            raise EditError("ships stand on sea hexes and land units on land")
        setattr(here.units, field, whole_number(value, 0, 99))
    elif field in BUILDINGS:
        wanted = yes_or_no(value)
        here.buildings = [
            b for b in BUILDINGS if (b == field and wanted) or (b != field and b in here.buildings)
        ]
    else:
        raise EditError(f"a hex has no {field!r} (owner, units, buildings)")
