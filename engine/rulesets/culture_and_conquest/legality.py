"""Whether an order can be carried out now. The parser asks before accepting an order and the
turn asks again when the order's phase comes (an earlier seat's turn may have changed things),
so both give the same reason in the same words."""

from __future__ import annotations

from typing import NamedTuple

from engine.rulesets.culture_and_conquest.model import (
    CATEGORY_TITLES,
    CHEAP_WONDERS,
    WONDERS,
    GameState,
    Item,
    Seat,
)

MOVE_LIMIT = 6  # "A single category cannot be increased or decreased by more than 6"
CITY_COST = (50, 25)  # labor, gold
WONDER_COST = (100, 50)
NAME_LENGTH = 24


class Refusal(NamedTuple):
    message: str
    rule: str  # key of RULES


def cost(kind: str, name: str) -> tuple[int, int]:
    """Labor and gold for a city or a wonder."""
    if kind == "city" or name in CHEAP_WONDERS:
        return CITY_COST
    return WONDER_COST


def refuse_move(
    have: int, count: int, source: str, target: str, moved_in: int, moved_out: int
) -> Refusal | None:
    """Moving `count` of the `have` populations of `source` to `target`, after earlier moves
    this turn that put `moved_in` into the target and took `moved_out` out of the source."""
    if source == target:
        return Refusal(f"{CATEGORY_TITLES[source]} to itself is no move", "distribution")
    if count > have:
        return Refusal(
            f"{CATEGORY_TITLES[source]} has {have} populations, not {count}",
            "distribution",
        )
    if moved_out + count > MOVE_LIMIT:
        return Refusal(
            f"{CATEGORY_TITLES[source]} would decrease by {moved_out + count}, more than "
            f"{MOVE_LIMIT}",
            "distribution",
        )
    if moved_in + count > MOVE_LIMIT:
        return Refusal(
            f"{CATEGORY_TITLES[target]} would increase by {moved_in + count}, more than "
            f"{MOVE_LIMIT}",
            "distribution",
        )
    return None


def refuse_city(state: GameState, seat: str, name: str) -> Refusal | None:
    """A new city of this name (a name under construction by the same seat continues)."""
    holder = state.seat(seat)
    if any(p.kind == "city" and p.name.lower() == name.lower() for p in holder.projects):
        return None
    if name.lower() in state.names_in_use():
        return Refusal(f"there is already a city called {name}", "city")
    return None


def refuse_wonder(state: GameState, seat: str, wonder: str, city: str) -> Refusal | None:
    """Building `wonder` in `city` ('' for any free city of the seat)."""
    holder = state.seat(seat)
    needed = WONDERS[wonder]
    started = next((p for p in holder.projects if p.kind == "wonder" and p.name == wonder), None)
    if not holder.has(needed):
        return Refusal(f"the {wonder} needs the advance {needed}, which you do not have", "wonder")
    if wonder in holder.wonders_built or (
        state.options["unique_wonders"] and state.wonder_taken(wonder)
    ):
        return Refusal(f"the {wonder} has already been built", "wonder")
    if started and (not city or started.city.lower() == city.lower()):
        city = started.city
        own = holder.city(city)
        if own is None:
            return Refusal(f"you no longer hold {city}", "wonder")
        if own.wonder:
            return Refusal(f"{own.name} already has the {own.wonder}", "wonder")
        return None
    if city:
        own = holder.city(city)
        if own is None:
            return Refusal(f"you have no city called {city}", "wonder")
        if own.wonder:
            return Refusal(f"{own.name} already has the {own.wonder}", "wonder")
        if any(p.kind == "wonder" and p.city == own.name for p in holder.projects):
            return Refusal(f"{own.name} already has a Wonder under construction", "wonder")
        return None
    if not free_cities(holder):
        return Refusal("every city of yours has a Wonder or one under construction", "wonder")
    return None


def free_cities(holder: Seat) -> list[str]:
    """Cities with no Wonder and none under construction."""
    busy = {p.city for p in holder.projects if p.kind == "wonder"}
    return [c.name for c in holder.cities if not c.wonder and c.name not in busy]


def refuse_deliver(state: GameState, seat: str, items: list[Item] | tuple[Item, ...]) -> str:
    """Why `seat` cannot hand over `items` now ('' if it can)."""
    holder = state.seat(seat)
    # Labor points and Labor populations are different things: keyed by (kind, category).
    counts: dict[tuple[str, str], int] = {}
    for item in items:
        key = (item.kind, item.name if item.kind == "population" else "")
        counts[key] = counts.get(key, 0) + item.count
    have = {("gold", ""): holder.gold, ("food", ""): holder.food}
    have[("labor", "")] = labor_available(holder)
    have |= {("population", category): count for category, count in holder.pops.items()}
    for key, wanted in counts.items():
        if key in have and wanted > have[key]:
            kind, category = key
            what = f"{CATEGORY_TITLES[category]} populations" if category else kind
            what = "labor points" if kind == "labor" else what
            return f"{seat} has {have[key]} {what}, not {wanted}"
    for item in items:
        if item.kind == "city" and holder.city(item.name) is None:
            return f"{seat} has no city called {item.name}"
        if item.kind == "advance" and not holder.has(item.name):
            return f"{seat} does not know {item.name}"
        if item.kind == "leader" and not any(x.name == item.name for x in holder.leaders):
            return f"{seat} has no leader called {item.name}"
    return ""


def refuse_receive(state: GameState, seat: str, items: list[Item] | tuple[Item, ...]) -> str:
    """Why `seat` cannot take `items` ('' if it can): an advance it already knows."""
    holder = state.seat(seat)
    for item in items:
        if item.kind == "advance" and holder.has(item.name):
            return f"{seat} already knows {item.name}"
    return ""


def labor_available(holder: Seat) -> int:
    """Labor points the seat can trade away: its Labor specialists' points of its next build
    phase, with labor already traded in or out."""
    return max(0, holder.pops["labor"] + holder.labor_credit)
