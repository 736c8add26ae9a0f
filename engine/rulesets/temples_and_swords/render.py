"""Text for a player's mail: the hex map, holdings, public standings and the order template.

Every line stays within 72 columns. A hex is two lines of five characters and a space:

    gB3A2      terrain (g grassland, d desert), owner letter ('*' for the reader's own hexes),
    CRT        population, then the letter and number of units of the army there ('*' for the
               reader's own army); the projects below.
"""

from __future__ import annotations

import textwrap

from engine.hextext import WIDTH, hex_sections
from engine.rulesets.temples_and_swords.legality import work_cost
from engine.rulesets.temples_and_swords.model import UNIT_TYPES, GameState
from engine.rulesets.temples_and_swords.orders import unit_words
from engine.rulesets.temples_and_swords.scoring import victory_points
from engine.words import plural

PROJECT_LETTERS = {
    "city": "C",
    "road": "R",
    "temple": "T",
    "walls": "W",
    "marketplace": "M",
    "library": "L",
}


def render_map(state: GameState, seat: str) -> str:
    """The map in sections of as many columns as fit in 72 characters, with a legend."""
    terrain = state.terrain
    sections = hex_sections(
        terrain.width,
        terrain.height,
        lambda name: _cell_top(state, seat, name),
        lambda name: _cell_bottom(state, name),
    )
    return sections + "\n\n" + _legend(state, seat)


def _cell_top(state: GameState, seat: str, name: str) -> str:
    here = state.peek(name)
    owner = _letter(state, here.owner, seat) if here.owner else "."
    pop = str(here.pop) if here.owner else " "
    army = _army_mark(state, name, seat)
    return f"{state.terrain.terrain(name)}{owner}{pop}{army}"


def _letter(state: GameState, holder: str, reader: str) -> str:
    return "*" if holder == reader else state.seat(holder).letter


def _army_mark(state: GameState, name: str, reader: str) -> str:
    by_seat = {s: u for s, u in state.armies.get(name, {}).items() if u.total()}
    if not by_seat:
        return ""
    if len(by_seat) > 1:
        return "!!"
    holder, units = next(iter(by_seat.items()))
    count = units.total()
    return _letter(state, holder, reader) + (str(count) if count < 10 else "+")


def _cell_bottom(state: GameState, name: str) -> str:
    here = state.peek(name)
    return "".join(PROJECT_LETTERS[p] for p in here.projects)


def _legend(state: GameState, seat: str) -> str:
    seats = "  ".join(
        f"{s.letter}={s.name}" + (" (you)" if s.name == seat else "") for s in state.seats
    )
    return "\n".join(
        [
            "Legend: g grassland, d desert; owner (* you) and population; then an",
            "army: owner (* you) and units, slaves included (!! for armies of two",
            "or more seats). Second line: C city, R road, T temple, W walls,",
            "M marketplace, L library.",
            _wrap(f"Seats: {seats}"),
        ]
    )


def _wrap(text: str, first: str = "", rest: str = "  ") -> str:
    return textwrap.fill(
        text, WIDTH, initial_indent=first, subsequent_indent=rest, break_on_hyphens=False
    )


def holdings(state: GameState, seat: str) -> str:
    holder = state.seat(seat)
    lines = [
        f"{seat} (seat {holder.letter}): {victory_points(state, seat)} VP of "
        f"{state.options['victory_points']}, {holder.gold} GP, "
        f"{plural(holder.tech_points, 'tech point')}.",
        _wrap("Advances: " + (", ".join(holder.advances) or "none") + "."),
        "Hexes:",
    ]
    for name in state.owned(seat):
        lines.append(_wrap(_hex_line(state, seat, name), "  ", "      "))
    armies = [_army_line(state, seat, name) for name in state.army_hexes(seat)]
    lines.append("Armies:" + ("" if armies else " none"))
    lines.extend("  " + line for line in armies)
    if holder.warband:
        lines.append(f"Warbands of {plural(holder.warband, 'soldier')} will attack next turn.")
    return "\n".join(lines)


def _hex_line(state: GameState, seat: str, name: str) -> str:
    here = state.hexes[name]
    terrain = "grassland" if state.terrain.terrain(name) == "g" else "desert"
    text = f"{name} {terrain}: population {here.pop} ({plural(here.laborers, 'laborer')})"
    if here.projects:
        text += "; " + ", ".join(here.projects)
    if here.progress:
        holder = state.seat(seat)
        text += "; building " + ", ".join(
            f"{w} {p}/{work_cost(holder, w)}" for w, p in sorted(here.progress.items())
        )
    if here.disease:
        text += f"; disease for {plural(here.disease, 'more turn', 'more turns')}"
    if not here.pop:  # a flood or a quake can empty a hex that keeps its city or road
        text += "; " + _nobody_lives_here(here.has("city"), name)
    return text


def _nobody_lives_here(city: bool, name: str) -> str:
    """What a hex of yours with population 0 still does: a player cannot guess it from the 0
    (growth needs people; the projects, not the people, give the VP, gold and tech rolls)."""
    refill = (
        f"it cannot grow: only a migrant from a hex of yours next to it "
        f"(MIGRATE <from> {name}) brings people back"
    )
    if not city:
        return f"nobody lives here: it stays yours for what is built or begun here, but {refill}"
    return (
        "nobody lives here: the city stays yours and still gives its VP, its gold and its tech "
        "rolls, but no tax and no laborers (slaves may work here); "
        f"{refill}; an enemy army of any size that wins here can take it"
    )


def _army_line(state: GameState, seat: str, name: str) -> str:
    units = state.units(name, seat)
    parts = [unit_words(units.get(k), k, True) for k in UNIT_TYPES if units.get(k)]
    return f"{name}: {', '.join(parts)}"


def public_summary(state: GameState) -> str:
    # Names shown whole, the column as wide as the longest (at least 10): two names that
    # share their first 10 letters stay two.
    width = max([10, *(len(seat.name) for seat in state.seats)])
    lines = [f"{'Seat':<{width + 2}} VP  Gold  Cities  Hexes  Pop  Army  Advances"]
    for holder in state.seats:
        hexes = [state.hexes[n] for n in state.owned(holder.name)]
        army = sum(state.units(n, holder.name).military() for n in state.army_hexes(holder.name))
        status = "" if holder.alive else "  (out)"
        lines.append(
            f"{holder.letter} {holder.name:<{width}} {victory_points(state, holder.name):>2}"
            f"  {holder.gold:>4}  {sum(h.has('city') for h in hexes):>6}  {len(hexes):>5}"
            f"  {sum(h.pop for h in hexes):>3}  {army:>4}  {len(holder.advances):>8}{status}"
        )
    return "\n".join(lines)


def order_template(state: GameState, seat: str) -> str:
    """The seat's orders as they stand (laborers kept), with hints to fill in."""
    holder = state.seat(seat)
    lines = ["# Population distribution: LABOR <hex> <laborers>"]
    for name in state.owned(seat):
        lines.append(f"LABOR {name} {state.hexes[name].laborers}")
    cities = sum(state.hexes[n].has("city") for n in state.owned(seat))
    lines.append(f"# Tech: TECH <rolls> (at most {2 * cities}; 1 GP a city, then 2 GP a city)")
    lines.append("TECH 0")
    lines.append("# Standing orders, kept until you change them:")
    lines += advance_lines(holder.standing.advance_preference)
    lines.append(f"DEFEND USE {holder.standing.defend_use.upper()}")
    lines.append("LOSSES " + ", ".join(k.upper() for k in holder.standing.losses))
    lines.append("# War: MOVE <from> <to> [count] [type]")
    lines.append("#      ATTACK <hex> [USE type] [UNTIL losses] [SLAVES n]")
    for name in state.army_hexes(seat):
        lines.append(f"# army in {name}: {_army_line(state, seat, name).split(': ', 1)[1]}")
    lines.append("# Build: BUILD <hex> <project> or BUILD <hex> <n> <unit>")
    for name in state.owned(seat):
        for work in sorted(state.hexes[name].progress):
            lines.append(f"# {name} {work} under way (continues by itself)")
    lines.append("# Migration: MIGRATE [<from>] <to>")
    return "\n".join(lines)


def advance_lines(names: list[str]) -> list[str]:
    """ADVANCE lines of at most 72 columns; several lines make one preference list."""
    lines: list[str] = []
    for name in names:
        if lines and len(lines[-1]) + len(name) + 2 <= WIDTH:
            lines[-1] += f", {name}"
        else:
            lines.append(f"ADVANCE {name}")
    return lines


ORDER_HELP = """\
Temples and Swords orders (one a line; '#' starts a comment):
  LABOR <hex> <n>              hire n laborers in your hex
  TECH <n>                     buy n tech rolls (1 GP a city, then 2)
  ADVANCE <name>, ... [ONLY]   standing: which advance to take (ONLY:
                               no other; ADVANCE NONE keeps the points)
  MOVE <from> <to>... [n] [type]   move an army (roads: 2 hexes a move)
  ATTACK <hex> [SEAT s] [USE type|BEST|NONE] [UNTIL n] [SLAVES n|ALL]
         [CAPTURE NO]          (NO: take the plunder, leave the hex)
  DEFEND USE <type>|BEST|NONE  standing: advanced units in defence
  LOSSES <type>, ...           standing: which units die first
  BUILD <hex> <project> [points]   city road temple walls market library
  BUILD <hex> [n] <unit>       soldier swordsman horseman
  MIGRATE [<from>] <to>        where a migrating population goes
The whole reference: send HELP ORDERS; one order: HELP <order>."""
