"""Text for a player's mail: the map, holdings, public standings and the order template, each
line at most 72 columns."""

from __future__ import annotations

from engine.rulesets.classical import legality
from engine.rulesets.classical.geography import neighbours, spread_sites
from engine.rulesets.classical.mapview import legend, map_lines, territory_lines, wrap
from engine.rulesets.classical.model import (
    CITY,
    CIVILIZATIONS,
    TRAIT_TITLES,
    TRAITS,
    VILLAGE,
    GameState,
)
from engine.rulesets.classical.setup import taken
from engine.words import plural


def render_map(state: GameState, seat: str) -> str:
    return "\n".join(
        [*map_lines(state, seat), "", *legend(state, seat), "", *territory_lines(state)]
    )


def holdings(state: GameState, seat: str) -> str:
    holder = state.seat(seat)
    civ = f"the {holder.civilization}" if holder.civilization else "no civilization yet"
    lines = [
        f"{seat} (seat {holder.letter}), {civ}: {holder.vp} VP of "
        f"{state.options['victory_points']}.",
    ]
    traits = [
        f"{TRAIT_TITLES[t]} {holder.level(t)}"
        + (f" ({holder.points[t]} RP)" if holder.points.get(t) else "")
        for t in TRAITS
        if holder.level(t) or holder.points.get(t)
    ]
    lines += wrap("Traits: " + (", ".join(traits) or "none") + ".", "", "  ")
    for kind, title in ((CITY, "Cities"), (VILLAGE, "Villages")):
        places = [_place(state, n) for n in state.settlements(seat, kind)]
        lines += wrap(f"{title}: " + (", ".join(places) or "none") + ".", "", "  ")
    units = [f"{state.space(n).units_of(seat)} in {n}" for n in state.unit_spaces(seat)]
    armies = [
        u for u, n in zip(units, state.unit_spaces(seat), strict=True) if not state.space(n).sea
    ]
    fleets = [u for u, n in zip(units, state.unit_spaces(seat), strict=True) if state.space(n).sea]
    lines += wrap("Armies: " + (", ".join(armies) or "none") + ".", "", "  ")
    lines += wrap("Fleets: " + (", ".join(fleets) or "none") + ".", "", "  ")
    allowed = plural(legality.unit_allowance(state, seat), "unit")
    monuments = plural(legality.monument_allowance(state, seat), "monument")
    when = "each turn" if state.options["unit_limit"] == "per turn" else "now"
    lines.append(f"You may recruit {allowed} ({when}) and build {monuments}.")
    lines += wrap("Feeding order when food runs short: " + ", ".join(holder.standing.feed) + ".")
    return "\n".join(lines)


def _place(state: GameState, label: str) -> str:
    spot = state.space(label)
    monuments = f", {plural(spot.monuments, 'monument')}" if spot.monuments else ""
    return f"{label} ({spot.resource}{monuments})"


def public_summary(state: GameState) -> str:
    lines = ["Seat          Civilization  VP  Vill City Monu Army Flt  Levels"]
    for holder in state.seats:
        name = holder.name
        armies = sum(
            state.space(n).units_of(name) for n in state.unit_spaces(name) if not state.space(n).sea
        )
        fleets = sum(
            state.space(n).units_of(name) for n in state.unit_spaces(name) if state.space(n).sea
        )
        status = "" if holder.alive else " (out)"
        lines.append(
            f"{holder.letter} {name[:11]:<11} {holder.civilization[:12]:<12} {holder.vp:>3}  "
            f"{len(state.settlements(name, VILLAGE)):>4} {len(state.cities(name)):>4} "
            f"{state.monuments(name):>4} {armies:>4} {fleets:>3}  "
            f"{sum(holder.levels.values()):>6}{status}"
        )
    return "\n".join(lines)


def order_template(state: GameState, seat: str) -> str:
    if state.setup:
        return _setup_template(state, seat)
    holder = state.seat(seat)
    lines = [f"FEED {' '.join(c.upper() for c in holder.standing.feed)}"]
    cities = state.cities(seat)
    lines.append(
        f"# Build: MONUMENT <city> [n]  (up to {legality.monument_allowance(state, seat)})"
    )
    lines += wrap("#   your cities: " + (" ".join(cities) or "none"), "", "#   ")
    villages = state.settlements(seat, VILLAGE)
    lines.append("# Upgrade: UPGRADE <village>  (2 luxuries and 1 stone)")
    if villages:
        lines += wrap("#   your villages: " + " ".join(villages), "", "#   ")
    open_land = [
        n for n in state.board.territories if legality.refuse_settle(state, seat, n) is None
    ]
    lines.append("# Settle: SETTLE <land>  (the first free; more: food or luxury")
    lines.append("#   and wood or stone each)")
    if open_land:
        lines += wrap("#   open to you now: " + " ".join(open_land), "", "#   ")
    lines.append("# Move: MOVE <from> <to> [n]  (armies 2 spaces, fleets 4)")
    for label in state.unit_spaces(seat):
        spot = state.space(label)
        count = spot.units_of(seat)
        units = plural(count, "fleet") if spot.sea else plural(count, "army", "armies")
        lines.append(f"#   {units} in {label}")
    lines.append(f"# Recruit: RECRUIT <space> [n]  (up to {legality.unit_allowance(state, seat)})")
    lines.append("#   armies in your cities (1 iron), fleets in sea next to them (1 wood)")
    seas = sorted(
        {n for c in cities for n in neighbours(state.board, c) if state.space(n).sea},
        key=list(state.board.territories).index,
    )
    if seas:
        lines += wrap("#   sea next to your cities: " + " ".join(seas), "", "#   ")
    lines.append("# Research: RESEARCH <paid rolls>|MAX [PAY <kinds>]  (1, 2, 3...)")
    return "\n".join(lines)


def _setup_template(state: GameState, seat: str) -> str:
    holder = state.seat(seat)
    lines = ["# Setup turn: pick a civilization and place your first city."]
    if holder.civilization:
        lines.append(f"# Your civilization is the {holder.civilization} (dealt at random).")
    else:
        free = [c for c in CIVILIZATIONS if c not in taken(state)]
        lines += wrap("# CIVILIZATION <name>, <name>...  free: " + ", ".join(free), "", "#   ")
        lines.append("CIVILIZATION ")
    sites = spread_sites(state.board, len(state.seats))
    lines += wrap(
        "# CITY <land>, not within 2 spaces of another city; well apart: " + " ".join(sites),
        "",
        "#   ",
    )
    lines.append("CITY ")
    return "\n".join(lines)


ORDER_HELP = """\
Classical orders (one a line; '#' starts a comment):
  CIVILIZATION <name>, ...   setup turn: the civilizations you want
  CITY <land>                setup turn: where your first city stands
  FEED CITIES ARMIES FLEETS  standing: what is fed first when short
  MONUMENT <city> [n]        build: 2 food, 1 stone, +1 a monument there
  UPGRADE <village>          a village becomes a city: 2 luxury, 1 stone
  SETTLE <land>              a village; first free, more cost 2
  MOVE <from> <to> [n]       armies 2 spaces, fleets 4
  RECRUIT <space> [n]        armies in a city (iron), fleets in sea
                             next to one (wood)
  RESEARCH <n>|MAX [PAY <kinds>]   paid research rolls: 1, 2, 3...
Territories are named as on the map (F7). Full reference:
docs/orders/classical.md"""
