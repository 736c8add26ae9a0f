"""Referee corrections: a path names one thing in the state, and the value is checked before
anything changes. A refused edit raises EditError with the reason."""

from __future__ import annotations

from engine.edit_values import named_seat, whole_number, yes_or_no
from engine.ruleset import EditError
from engine.rulesets.culture_and_conquest.geography import transfer
from engine.rulesets.culture_and_conquest.legality import NAME_LENGTH
from engine.rulesets.culture_and_conquest.model import (
    ADVANCES,
    CATEGORIES,
    LEADER_NAMES,
    WONDERS,
    City,
    GameState,
    Leader,
    Seat,
)
from engine.words import normal

EDIT_PATHS = """\
seat.<seat>.gold = <n>                  seat.ann.gold = 12
seat.<seat>.food = <n>                  seat.ann.food = 30
seat.<seat>.<category> = <n>            seat.ann.army = 3   (army,
                                          agriculture, trade, labor,
                                          scholars)
seat.<seat>.advances = +<adv>|-<adv>    seat.ann.advances = +Pottery
seat.<seat>.leaders = +<name>|-<name>   seat.ann.leaders = +Caesar
seat.<seat>.cities = +<name>|-<name>    seat.ann.cities = +Thebes
seat.<seat>.wonders_built = +<w>|-<w>   seat.ann.wonders_built = +Sphinx
seat.<seat>.alive = yes|no              seat.bob.alive = no
city.<city>.owner = <seat>              city.Thebes.owner = bob
city.<city>.wonder = <wonder>|none      city.Thebes.wonder = Oracle
Map version:
territory.<T>.owner = <seat>            territory.C4.owner = bob  (with
                                          every token in it)
territory.<T>.<category> = <n> [seat]   territory.C4.army = 2  (its
                                          holder's total follows; an
                                          empty territory needs the
                                          seat: territory.C4.army =
                                          2 bob)"""


def edit(state: GameState, path: str, value: str) -> None:
    """Apply one edit to `state` in place (the caller passes a copy)."""
    parts = path.strip().split(".")
    kind = parts[0].lower()
    if kind == "seat":
        _edit_seat(state, parts[1:], value.strip())
    elif kind == "city":
        _edit_city(state, parts[1:], value.strip())
    elif kind == "territory":
        _edit_territory(state, parts[1:], value.strip())
    else:
        raise EditError(f"an edit path starts with seat., city. or territory., not {parts[0]!r}")


def _sign(value: str, what: str, known: list[str] | tuple[str, ...] = ()) -> tuple[str, str]:
    sign, name = value[:1], value[1:].strip()
    if not sign or sign not in "+-" or not name:
        raise EditError(f"write +<{what}> or -<{what}>")
    if known:
        matches = [k for k in known if normal(k) == normal(name)]
        if not matches:
            raise EditError(f"no {what} {name!r}; one of: {', '.join(known)}")
        name = matches[0]
    return sign, name


def _edit_seat(state: GameState, parts: list[str], value: str) -> None:
    if len(parts) != 2:
        raise EditError("seat edits look like seat.<seat>.<field>")
    seat = named_seat(state.seats, parts[0])
    field = parts[1].lower()
    if field in ("gold", "food"):
        setattr(seat, field, whole_number(value))
    elif field in CATEGORIES:
        seat.pops[field] = whole_number(value, 0, 10_000)
    elif field == "alive":
        seat.alive = yes_or_no(value)
    elif field == "advances":
        _toggle(seat.advances, *_sign(value, "advance", ADVANCES))
    elif field == "wonders_built":
        _toggle(seat.wonders_built, *_sign(value, "wonder", tuple(WONDERS)))
    elif field == "leaders":
        _edit_leaders(state, seat, value)
    elif field == "cities":
        _edit_cities(state, seat, value)
    else:
        raise EditError(
            f"a seat has no {field!r} to edit (gold, food, {', '.join(CATEGORIES)}, advances, "
            "leaders, cities, wonders_built, alive)"
        )


def _toggle(names: list[str], sign: str, name: str) -> None:
    if sign == "+" and name in names:
        raise EditError(f"the seat already has {name}")
    if sign == "-" and name not in names:
        raise EditError(f"the seat does not have {name}")
    if sign == "+":
        names.append(name)
    else:
        names.remove(name)


def _edit_leaders(state: GameState, seat: Seat, value: str) -> None:
    known = {name: kind for kind, names in LEADER_NAMES.items() for name in names}
    sign, name = _sign(value, "leader", tuple(known))
    if sign == "-":
        leader = next((x for x in seat.leaders if x.name == name), None)
        if leader is None:
            raise EditError(f"{seat.name} has no leader {name}")
        seat.leaders.remove(leader)
        return
    if any(x.name == name for s in state.seats for x in s.leaders):
        raise EditError(f"{name} already leads a culture")
    seat.leaders.append(Leader(name, known[name]))


def _edit_cities(state: GameState, seat: Seat, value: str) -> None:
    sign, name = _sign(value, "city")
    if sign == "-":
        city = seat.city(name)
        if city is None:
            raise EditError(f"{seat.name} has no city {name}")
        seat.cities.remove(city)
        return
    if len(name) > NAME_LENGTH or name.lower() in state.names_in_use():
        raise EditError(f"{name!r} is taken or too long")
    seat.cities.append(City(name))


def _edit_city(state: GameState, parts: list[str], value: str) -> None:
    if len(parts) != 2:
        raise EditError("city edits look like city.<city>.<owner|wonder>")
    owner = state.city_owner(parts[0])
    if not owner:
        raise EditError(f"no city {parts[0]!r}")
    holder = state.seat(owner)
    city = holder.city(parts[0])
    assert city is not None
    field = parts[1].lower()
    if field == "owner":
        new = named_seat(state.seats, value)
        holder.cities.remove(city)
        new.cities.append(city)
    elif field == "wonder":
        if value.lower() == "none":
            city.wonder = ""
            return
        matches = [w for w in WONDERS if normal(w) == normal(value)]
        if not matches:
            raise EditError(f"no Wonder {value!r}; one of: {', '.join(WONDERS)}")
        if any(c.wonder == matches[0] for _, c in state.all_cities()):
            raise EditError(f"the {matches[0]} already stands in another city")
        city.wonder = matches[0]
    else:
        raise EditError(f"a city has no {field!r} (owner, wonder)")


def _edit_territory(state: GameState, parts: list[str], value: str) -> None:
    land = state.land
    if land is None:
        raise EditError("the game has no map (option map)")
    if len(parts) != 2:
        raise EditError("territory edits look like territory.<T>.<owner|category>")
    name = parts[0].upper()
    spot = land.territories.get(name)
    if spot is None:
        raise EditError(f"no land territory {parts[0]!r} on the map")
    field = parts[1].lower()
    if field == "owner":
        if spot.empty():  # the map drops the owner of an empty territory: say so, not undo it
            raise EditError(
                f"{name} is empty, and an empty territory is nobody's; put populations in it: "
                f"territory.{name}.<category> = <n> <seat>"
            )
        transfer(state, name, named_seat(state.seats, value).name, captured=False)
    elif field in CATEGORIES:
        number, _, seat = value.partition(" ")
        if seat.strip() and spot.empty():  # "<n> <seat>": an empty territory's new owner
            spot.owner = named_seat(state.seats, seat.strip()).name
        elif seat.strip():
            transfer(state, name, named_seat(state.seats, seat.strip()).name, captured=False)
        if not spot.owner:
            raise EditError(f"{name} is nobody's: write territory.{name}.{field} = <n> <seat>")
        count = whole_number(number, 0, 10_000)
        state.seat(spot.owner).pops[field] += count - spot.pops[field]
        spot.pops[field] = count
    else:
        raise EditError(f"a territory has no {field!r} (owner, {', '.join(CATEGORIES)})")
