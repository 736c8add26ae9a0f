"""Text for a player's mail: the hex map, the tribe card, public standings, the order template
and the order help. Every line stays within 72 columns.

A hex is two lines of five characters (engine.hextext):

    wA3/2      ground (. land, w wood, s stone, o ore, g game, ~ sea), the tribe there
    BKR        ('*' for the reader), its population / military; on sea, ships ("~A2s").
               The second line: the buildings, one letter each.
"""

from __future__ import annotations

import textwrap

from engine import mapdata
from engine.hextext import WIDTH, hex_sections
from engine.rulesets.tribes.legality import bribe_price
from engine.rulesets.tribes.model import BUILDINGS, SEA, GameState, Seat
from engine.rulesets.tribes.upkeep import SUPPORT, eaters

BUILDING_LETTERS = {
    "barracks": "B",
    "blacksmith": "K",
    "fortress": "F",
    "stables": "S",
    "refinery": "Y",
    "farm": "A",
    "market": "M",
    "shrine": "H",
    "dock": "D",
    "road": "R",
}
assert set(BUILDING_LETTERS) == set(BUILDINGS)


def render_map(state: GameState, seat: str) -> str:
    """The map with a legend; seat '' is the view of no seat."""
    text = hex_sections(
        state.width, state.height, lambda n: _top(state, seat, n), lambda n: _bottom(state, n)
    )
    return text + "\n\n" + _legend(state, seat)


def _count(number: int) -> str:
    return str(number) if number < 10 else "+"


def _top(state: GameState, seat: str, name: str) -> str:
    here = state.peek(name)
    ground = state.ground(name)
    if not here.owner:
        return "~~~~" if ground == SEA else ground
    mark = "*" if here.owner == seat else state.seat(here.owner).letter
    if ground == SEA:
        return f"~{mark}{_count(here.units.ship)}s"
    return f"{ground}{mark}{_count(here.units.population)}/{_count(here.units.military())}"


def _bottom(state: GameState, name: str) -> str:
    letters = "".join(BUILDING_LETTERS[b] for b in state.peek(name).buildings)
    return letters if len(letters) <= 5 else letters[:4] + "+"


def _legend(state: GameState, seat: str) -> str:
    seats = "  ".join(
        f"{s.letter}={s.name}" + (" (you)" if s.name == seat else "") for s in by_letter(state)
    )
    return "\n".join(
        [
            "Legend: ground . land, w wood, s stone, o ore, g game, ~ sea; then",
            "the tribe there (* you) and its population/military (+ for 10 or",
            "more); ~A2s: 2 ships of A. Second line, buildings: B barracks,",
            "K blacksmith, F fortress, S stables, Y refinery, A farm, M market,",
            "H shrine, D dock, R road.",
            wrap(f"Tribes: {seats}"),
        ]
    )


def by_letter(state: GameState) -> list[Seat]:
    """The tribes in the order of their letters (the order of play moves every round)."""
    return mapdata.by_letter(state.seats)


def wrap(text: str, first: str = "", rest: str = "  ") -> str:
    return textwrap.fill(
        text, WIDTH, initial_indent=first, subsequent_indent=rest, break_on_hyphens=False
    )


def holdings(state: GameState, seat: str) -> str:
    """The tribe card and the hexes the tribe holds."""
    card = state.seat(seat)
    military = sum(state.places[n].units.military() for n in state.held(seat))
    room = SUPPORT * state.owned_buildings(seat, "barracks")
    levels = ", ".join(f"{t} {'I' * card.level(t) or '-'}" for t in ("melee", "beasts", "ranged"))
    lines = [
        f"{seat} (tribe {card.letter}): fame {card.fame} of {state.options['fame_to_win']}, "
        f"hunger chips {card.hunger}.",
        f"Money {card.money}, wood {card.wood}, stone {card.stone}, ore {card.ore}, "
        f"food {card.food} ({eaters(state, seat)} eat a turn).",
        f"Military {military} of {room} supported. Upgrades: {levels}.",
        "Hexes:",
    ]
    for name in state.held(seat):
        here = state.places[name]
        text = f"{name}: {here.units.described()}"
        if here.buildings:
            text += "; " + ", ".join(here.buildings)
        lines.append(wrap(text, "  ", "      "))
    return "\n".join(lines)


def public_summary(state: GameState) -> str:
    # Names shown whole, the column as wide as the longest (at least 10): two names that
    # share their first 10 letters stay two.
    width = max([10, *(len(seat.name) for seat in by_letter(state))])
    lines = [f"{'Tribe':<{width + 2}} Fame  Hunger  Hexes  Pop  Military  Ships  Buildings"]
    for card in by_letter(state):
        units = [state.places[n].units for n in state.held(card.name)]
        built = sum(len(state.places[n].buildings) for n in state.held(card.name))
        out = "" if card.alive else "  (out)"
        lines.append(
            f"{card.letter} {card.name:<{width}} {card.fame:>4}  {card.hunger:>6}"
            f"  {len(units):>5}  {sum(u.population for u in units):>3}"
            f"  {sum(u.military() for u in units):>8}  {sum(u.ship for u in units):>5}"
            f"  {built:>9}{out}"
        )
    return "\n".join(lines)


def order_template(state: GameState, seat: str) -> str:
    """Hints to fill in, with what the tribe holds where."""
    card = state.seat(seat)
    lines = ["# Phase 1: MOVE <from> <to> [<to>...] [n] [type]"]
    for name in state.held(seat):
        lines.append(f"#   {name}: {state.places[name].units.described()}")
    lines.append("# Phase 2: ATTACK <hex> FROM <hex> [COMBINE n|ALL] [UNTIL n]")
    lines.append("# Phase 3: BRIBE <hex>")
    lines.append(wrap(_bribe_prices(state, seat), "#   ", "#   "))
    lines.append("#   BUILD <hex> <building> [WOOD|STONE]   BUILD <dock hex> SHIP")
    lines.append(f"#   CONVERT <hex> <n> <type>... [TO <road hexes>] ({card.money} money)")
    lines.append("#   UPGRADE MELEE|BEASTS|RANGED")
    lines.append("# Phase 4: GROW <hex>  (where new population goes)")
    return "\n".join(lines)


def _bribe_prices(state: GameState, seat: str) -> str:
    card = state.seat(seat)
    prices = []
    for other in state.seats:
        if other.name == seat or not other.alive:
            continue
        more_fame = other.fame > card.fame
        price = "none (more fame)" if more_fame else str(bribe_price(state, card, other))
        prices.append(f"{other.name} {price}")
    return "money a unit: " + ", ".join(prices)


ORDER_HELP = """\
Tribes orders (one a line; '#' starts a comment):
 1 MOVE <from> <to>... [n] [type]  one hex; up to 3 along roads;
                                   ships 2 sea hexes
 2 ATTACK <hex> FROM <hex> [COMBINE n|ALL] [UNTIL n]
                                   the military (or ships) of a hex
                                   attack the next hex
 3 BRIBE <hex>                     buy every unit in a hex next to yours
   BUILD <hex> <building> [WOOD|STONE]   one work and the materials
   BUILD <dock hex> SHIP           one wood and one work
   CONVERT <hex> <n> <type>... [TO <hex>...]   a population unit and 3
                                   money become 3 melee/ranged/magic
   UPGRADE MELEE|BEASTS|RANGED     at a blacksmith, stables, refinery
 4 GROW <hex>                      where new population goes
Buildings: barracks blacksmith fortress stables refinery farm market
shrine dock road.
The whole reference: send HELP ORDERS; one order: HELP <order>."""
