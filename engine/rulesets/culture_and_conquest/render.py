"""Text for a player's mail: the tableau of the cultures (the game has no map), holdings,
public standings and the order template. Every line stays within 72 columns.

What the whole table sees is public: populations by category, cities and Wonders, work under
construction, leaders, advances. Gold, food, traded labor, standing orders and trade offers are
private to their seat (and an offer to the seat it is made to).
"""

from __future__ import annotations

from engine.rulesets.culture_and_conquest.geography import SEA_REACH, city_site
from engine.rulesets.culture_and_conquest.legality import MOVE_LIMIT, cost, free_cities
from engine.rulesets.culture_and_conquest.mapview import describe, map_lines
from engine.rulesets.culture_and_conquest.model import (
    CATEGORIES,
    CATEGORY_TITLES,
    WONDERS,
    GameState,
    Project,
    Seat,
)
from engine.rulesets.culture_and_conquest.scoring import ADVANCES_TO_WIN, WONDERS_TO_WIN

WIDTH = 72


def wrap(text: str, indent: str = "    ", width: int = WIDTH) -> str:
    lines, line = [], ""
    for word in text.split(" "):
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = indent + word
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    return "\n".join(lines)


def _pops(seat: Seat) -> str:
    return ", ".join(f"{CATEGORY_TITLES[c]} {seat.pops[c]}" for c in CATEGORIES)


def _cities(seat: Seat) -> str:
    return ", ".join(f"{c.name} [{c.wonder}]" if c.wonder else c.name for c in seat.cities)


def _project(project: Project) -> str:
    labor = cost(project.kind, project.name)[0]
    if project.kind == "city":
        return f"city of {project.name} {project.labor}/{labor}"
    return f"{project.name} in {project.city} {project.labor}/{labor}"


def _when(state: GameState) -> str:
    """Which position the tableau shows. The report of a turn is written once the turn is
    played, when the clock already names the next turn: a bare "round 2, turn 2" under the
    report of turn 1 read as the turn just played."""
    if state.winners:
        return f"the final position, after turn {state.step - 1}"
    return f"the position for turn {state.step} (round {state.round})"


def render_map(state: GameState, seat: str) -> str:
    """The tableau: a block of public holdings for every culture, in turn order; in the map
    version after the map of the territories."""
    title = f"Culture & Conquest - {_when(state)}"
    rule = "=" * WIDTH
    lines = [title, rule]
    if state.land is not None:
        lines += [*map_lines(state, seat), rule]
    for holder in state.seats:
        lines += _block(holder, seat)
        lines.append("-" * WIDTH)
    lines[-1] = rule
    lines.append(
        wrap(
            f"To win: {WONDERS_TO_WIN}+ Wonders built (held or not) and {ADVANCES_TO_WIN}+ "
            "Advances. A Wonder stands in [brackets] after its city. * marks you.",
            "",
        )
    )
    return "\n".join(lines)


def _block(holder: Seat, reader: str) -> list[str]:
    you = " *" if holder.name == reader else ""
    out = "" if holder.alive else "  (out of the game)"
    head = f"{holder.letter} {holder.name}{you} - {holder.culture}{out}"
    score = f"Wonders {len(holder.wonders_built)}  Advances {len(holder.advances)}"
    lines = [head.ljust(WIDTH - len(score) - 1) + " " + score]
    rows = [
        f"Population {holder.population}: {_pops(holder)}",
        f"Cities {len(holder.cities)}: {_cities(holder) or 'none'}",
    ]
    if holder.projects:
        rows.append("Building: " + ", ".join(_project(p) for p in holder.projects))
    if holder.leaders:
        rows.append("Leaders: " + ", ".join(f"{x.name} ({x.kind})" for x in holder.leaders))
    rows.append("Advances: " + (", ".join(holder.advances) or "none"))
    lost = [w for w in holder.wonders_built if w not in holder.wonders()]
    if lost:
        rows.append("Wonders built and since lost: " + ", ".join(lost))
    lines += [wrap("  " + row) for row in rows]
    return lines


def holdings(state: GameState, seat: str) -> str:
    holder = state.seat(seat)
    lines = [
        f"{seat} (seat {holder.letter}), the {holder.culture} culture: {holder.gold} gold, "
        f"{holder.food} food"
        + (f", {holder.labor_credit:+d} labor traded" if holder.labor_credit else "")
        + ".",
        wrap(f"Populations {holder.population}: {_pops(holder)}."),
        wrap(f"Cities: {_cities(holder) or 'none'} (scholars at most {len(holder.cities)})."),
    ]
    for project in holder.projects:
        gold = cost(project.kind, project.name)[1]
        lines.append(wrap(f"Building the {_project(project)} labor, then {gold} gold."))
    if holder.leaders:
        lines.append(wrap("Leaders: " + ", ".join(f"{x.name} ({x.kind})" for x in holder.leaders)))
    lines.append(wrap(f"Advances ({len(holder.advances)}): {', '.join(holder.advances)}."))
    lines.append(
        f"Wonders built: {', '.join(holder.wonders_built) or 'none'} "
        f"({len(holder.wonders_built)} of {WONDERS_TO_WIN})."
    )
    if state.land is not None:
        owned = state.land.owned(seat)
        lines.append(f"Territories ({len(owned)}; ~ coastal):" + ("" if owned else " none"))
        lines += [wrap("  " + describe(state, name), "      ") for name in owned]
    lines += _standing_lines(holder)
    for offer in state.offers:
        if seat in (offer.seat, offer.to):
            who = f"to {offer.to}" if offer.seat == seat else f"from {offer.seat}"
            lines.append(wrap(f"Open offer {offer.id} {who}: {offer.describe()}."))
    return "\n".join(lines)


def _standing_lines(holder: Seat) -> list[str]:
    standing = holder.standing
    surrender = (
        f"surrender if Army below {standing.surrender_below}"
        if standing.surrender_below
        else "never surrender"
    )
    lines = [f"Standing: {surrender}; tribute {', '.join(standing.tribute)}."]
    for support in standing.supports:
        general = " and a General" if support.general else ""
        lines.append(f"Standing: send {support.armies} Armies{general} to {support.seat}'s wars.")
    return lines


def public_summary(state: GameState) -> str:
    land = state.land
    # Names shown whole, the column as wide as the longest (at least 10): two names that
    # share their first 10 letters stay two.
    width = max([10, *(len(seat.name) for seat in state.seats)])
    lines = [f"{'Seat':<{width + 2}} Culture       Pop  Army  Cities  Wonders  Advances"]
    if land is not None:
        lines[0] += "  Land"
    for holder in state.seats:
        status = "" if holder.alive else "  (out)"
        held = f"  {len(land.owned(holder.name)):>4}" if land is not None else ""
        lines.append(
            f"{holder.letter} {holder.name:<{width}} {holder.culture:<12} {holder.population:>4}"
            f"  {holder.army:>4}  {len(holder.cities):>6}  {len(holder.wonders_built):>7}"
            f"  {len(holder.advances):>8}{held}{status}"
        )
    return "\n".join(lines)


def order_template(state: GameState, seat: str) -> str:
    holder = state.seat(seat)
    others = [s.name for s in state.seats if s.name != seat and s.alive]
    lines = [
        f"# Distribution: MOVE <n> <from> TO <to>; each category +/-{MOVE_LIMIT} at most;",
        "#   an Army costs 1 gold to raise; scholars at most 1 per city.",
        f"#   Now: {_pops(holder)}.",
    ]
    if state.land is not None:
        lines += _map_template(state, seat)
    else:
        lines += [
            "# War: ATTACK <seat> [GIVE UP IF LOSSES <n>]   (one opponent a turn)",
            f"#   seats: {', '.join(others)}",
        ]
    lines += [
        "# Standing orders (kept until changed):",
        f"SURRENDER IF ARMY BELOW {holder.standing.surrender_below}",
        "TRIBUTE " + ", ".join(t.upper() for t in holder.standing.tribute),
    ]
    for support in holder.standing.supports:
        general = " GENERAL" if support.general else ""
        lines.append(f"SUPPORT {support.seat} {support.armies} ARMIES{general}")
    lines.append("#   SUPPORT <seat> <n> ARMIES [GENERAL]; SUPPORT <seat> NONE")
    lines.append("# Trade: OFFER <seat> <what> FOR <what>; ACCEPT <seat> <id>;")
    lines.append("#   WITHDRAW <id>")
    for offer in state.offers:
        if offer.to == seat:
            lines.append(wrap(f"# ACCEPT {offer.seat} {offer.id}   # {offer.describe()}", "#   "))
    if state.land is not None and city_site(state, seat):
        lines.append("# Build: BUILD CITY [<name>] [IN <territory>] [<points>]")
    else:
        lines.append("# Build: BUILD CITY [<name>] [<points>]")
    lines.append("#        BUILD WONDER <wonder> [IN <city>] [<points>]")
    for project in holder.projects:
        lines.append(f"#   under way: {_project(project)}")
    able = [w for w in WONDERS if holder.has(WONDERS[w]) and w not in holder.wonders_built]
    if able and free_cities(holder):
        lines.append(wrap("#   Wonders you know how to build: " + ", ".join(able), "#   "))
    return "\n".join(lines)


def _map_template(state: GameState, seat: str) -> list[str]:
    land = state.land
    assert land is not None
    lines = [
        "#   Map: ... TO <to> IN <territory> changes category there.",
        "# War: ATTACK <territory> [GIVE UP IF LOSSES <n>]  (next to your Army)",
        "# Move (after war): MOVE <n> <category> <from> TO <to>: one space",
        f"#   (by sea up to {SEA_REACH} with Navigation, coast to coast);"
        if state.seat(seat).has("Navigation")
        else "#   (by sea only with Navigation);",
        "#   an Army takes an opponent's territory that has no Army.",
        "#   MOVE LEADER <name> TO <to>. Your territories and their neighbours:",
    ]
    for name in land.owned(seat):
        near = []
        for other in land.land_neighbours(name):
            owner = land.territories[other].owner
            near.append(other if owner in ("", seat) else f"{other}({state.seat(owner).letter})")
        lines.append(wrap(f"#   {name} -> {' '.join(near) or 'no land'}", "#     "))
    return lines


ORDER_HELP = """\
Culture & Conquest orders (one a line; '#' starts a comment):
  MOVE <n> <from> TO <to>     populations between Army, Agriculture,
                              Trade, Labor, Scholars (an Army: 1 gold)
  ATTACK <seat> [GIVE UP IF LOSSES <n>]    one war a turn
  SUPPORT <seat> <n> ARMIES [GENERAL]      standing: your allies' wars
  SUPPORT <seat> GENERAL                   standing: a General alone
  SURRENDER IF ARMY BELOW <n> | NEVER      standing: when you give in
  TRIBUTE GOLD|CITY|POPULATION, ...        standing: what you take
  OFFER <seat> <what>, ... FOR <what>, ... a trade; things are
        <n> GOLD|FOOD, <n> LABOR POINTS, <n> POPULATION [category],
        <n> <category>, CITY <name>, ADVANCE <name>, LEADER <name>,
        PROMISE "<text>", NOTHING
  ACCEPT <seat> <offer id> | ACCEPT <seat> <what> FOR <what>
  WITHDRAW <offer id>
  BUILD CITY [<name>] [<points>]
  BUILD WONDER <wonder> [IN <city>] [<points>]
Map version (option map):
  MOVE <n> <from> TO <to> IN <territory>   change category there
  ATTACK <territory> [GIVE UP IF LOSSES <n>]  from your land next to it
  MOVE <n> <category> <from> TO <to>       Move Phase: one space, or by
                              sea with Navigation; an Army takes land
                              of an opponent that has no Army
  MOVE LEADER <name> TO <territory>
  BUILD CITY [<name>] [IN <territory>] [<points>]
The whole reference: send HELP ORDERS; one order: HELP <order>."""
