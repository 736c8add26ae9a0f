"""Referee corrections: a path names one thing in the state, and the value is checked before
anything changes. A refused edit raises EditError with the reason."""

from __future__ import annotations

from engine.edit_values import named_seat, whole_number, yes_or_no
from engine.hexgrid import hex_name, parse_hex_name
from engine.ruleset import EditError
from engine.rulesets.temples_and_swords.legality import cap
from engine.rulesets.temples_and_swords.model import ADVANCES, PROJECTS, UNIT_TYPES, GameState
from engine.words import article, normal

EDIT_PATHS = """\
seat.<seat>.gold = <n>               seat.alice.gold = 12
seat.<seat>.tech_points = <n>        seat.alice.tech_points = 9
seat.<seat>.advances = +<adv>|-<adv> seat.alice.advances = +Masonry
seat.<seat>.alive = yes|no           seat.bob.alive = no
hex.<hex>.owner = <seat>|none        hex.C4.owner = alice
hex.<hex>.pop = <n>                  hex.C4.pop = 5
hex.<hex>.laborers = <n>             hex.C4.laborers = 2
hex.<hex>.<project> = yes|no         hex.C4.temple = yes
army.<hex>.<seat>.<unit> = <n>       army.C4.alice.soldier = 3
army.<hex>.<seat> = <hex>            army.C4.alice = D4   (moves the
                                       whole army)"""


def edit(state: GameState, path: str, value: str) -> None:
    """Apply one edit to `state` in place (the caller passes a copy)."""
    parts = path.strip().split(".")
    kind = parts[0].lower()
    handlers = {"seat": _edit_seat, "hex": _edit_hex, "army": _edit_army}
    if kind not in handlers:
        raise EditError(f"an edit path starts with seat., hex. or army., not {parts[0]!r}")
    handlers[kind](state, parts[1:], value.strip())
    state.tidy()


def _hex_name(state: GameState, name: str) -> str:
    place = parse_hex_name(name)
    if place is None or not state.terrain.contains(name):
        raise EditError(f"{name!r} is not a hex of this map")
    return hex_name(*place)  # "d04" -> "D4"


def _edit_seat(state: GameState, parts: list[str], value: str) -> None:
    if len(parts) != 2:
        raise EditError("seat edits look like seat.<seat>.<gold|tech_points|advances|alive>")
    seat = named_seat(state.seats, parts[0])
    field = parts[1].lower()
    if field == "gold":
        seat.gold = whole_number(value)
    elif field == "tech_points":
        seat.tech_points = whole_number(value)
    elif field == "alive":
        seat.alive = yes_or_no(value)
    elif field == "advances":
        _edit_advances(seat.advances, value)
    else:
        raise EditError(f"a seat has no {field!r} to edit (gold, tech_points, advances, alive)")


def _edit_advances(advances: list[str], value: str) -> None:
    sign, name = value[:1], value[1:].strip()
    matches = [a for a in ADVANCES if normal(a) == normal(name)]
    if sign not in "+-" or not sign or not matches:
        raise EditError(f"write +<advance> or -<advance>, one of: {', '.join(ADVANCES)}")
    advance = matches[0]
    if sign == "+" and advance in advances:
        raise EditError(f"the seat already has {advance}")
    if sign == "-" and advance not in advances:
        raise EditError(f"the seat does not have {advance}")
    if sign == "+":
        advances.append(advance)
    else:
        advances.remove(advance)


def _edit_hex(state: GameState, parts: list[str], value: str) -> None:
    if len(parts) != 2:
        raise EditError("hex edits look like hex.<hex>.<owner|pop|laborers|project>")
    name = _hex_name(state, parts[0])
    here = state.hex(name)
    field = parts[1].lower()
    if field == "owner":
        here.owner = "" if value.lower() == "none" else named_seat(state.seats, value).name
        if not here.owner:
            here.pop = here.laborers = 0
    elif field == "pop":
        if not here.owner:
            raise EditError(f"{name} has no owner; set hex.{name}.owner first")
        here.pop = whole_number(value, 0, cap(state, name))
        here.laborers = min(here.laborers, here.pop)
    elif field == "laborers":
        here.laborers = whole_number(value, 0, here.pop)
    elif field in PROJECTS:
        _edit_project(state, name, field, yes_or_no(value))
    else:
        raise EditError(f"a hex has no {field!r} (owner, pop, laborers, {', '.join(PROJECTS)})")


def _edit_project(state: GameState, name: str, project: str, present: bool) -> None:
    here = state.hex(name)
    if present and not here.owner:
        raise EditError(f"{name} has no owner to hold {article(project)}")
    if present and project not in {"road", "city"} and not here.has("city"):
        raise EditError(f"{article(project)} stands in a city, and {name} has none")
    improvements = [p for p in here.projects if p not in ("city", "road")]
    if not present and project == "city" and improvements:
        raise EditError(f"remove the city's improvements in {name} first")
    projects = set(here.projects) | {project} if present else set(here.projects) - {project}
    here.projects = [p for p in PROJECTS if p in projects]


def _edit_army(state: GameState, parts: list[str], value: str) -> None:
    if len(parts) not in (2, 3):
        raise EditError("army edits look like army.<hex>.<seat>.<unit> or army.<hex>.<seat>")
    name = _hex_name(state, parts[0])
    seat = named_seat(state.seats, parts[1]).name
    if len(parts) == 2:
        target = _hex_name(state, value)
        units = state.units(name, seat)
        if not units.total():
            raise EditError(f"{seat} has no army in {name}")
        moving = state.armies[name].pop(seat)
        for kind in UNIT_TYPES:
            state.units_for_change(target, seat).add(kind, moving.get(kind))
        return
    kind = (
        parts[2]
        .lower()
        .rstrip("s")
        .replace("swordsmen", "swordsman")
        .replace("horsemen", "horseman")
    )
    if kind not in UNIT_TYPES:
        raise EditError(f"no unit type {parts[2]!r} ({', '.join(UNIT_TYPES)})")
    units = state.units_for_change(name, seat)
    units.add(kind, whole_number(value, 0, 999) - units.get(kind))
