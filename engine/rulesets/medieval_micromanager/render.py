"""Text for a player's mail: the tableau of every seat's buildings (the game has no map),
holdings, public standings and the order template. Every line stays within 72 columns.

Everything on the table is public, as at a table: buildings with their tokens and workers,
units, commodities. Only the standing DEFEND order is private to its seat.
"""

from __future__ import annotations

from engine.rulesets.medieval_micromanager.cards import (
    CARDS,
    COMMODITIES,
    OTHER_COMMODITIES,
    TOKENS,
    UNIT_PRICE,
)
from engine.rulesets.medieval_micromanager.model import Building, GameState, Seat
from engine.words import plural

WIDTH = 72


def render_map(game: GameState, seat: str) -> str:
    """The tableau: a block for every seat, `seat`'s own first (marked with *), then the
    others in seat order."""
    goal = f"goal: {plural(game.options['cathedrals'], 'Cathedral')}"
    title = f"Medieval Micromanager - round {game.round}"
    lines = [title.ljust(WIDTH - len(goal)) + goal, "=" * WIDTH]
    for holder in sorted(game.seats, key=lambda s: s.name != seat):
        lines += _block(holder, seat)
        lines.append("-" * WIDTH)
    lines[-1] = "=" * WIDTH
    lines += [
        "Tokens: D damage, d depletion, . free. Work: units on it since their",
        "last turn / places (5 less 1 a depletion token). Home: units on no",
        "building, who defend. * marks you.",
    ]
    return "\n".join(lines)


def _block(holder: Seat, reader: str) -> list[str]:
    you = " *" if holder.name == reader else ""
    out = "  (out of the game)" if not holder.alive else ""
    head = f"{holder.name}{you}{out}"
    home = holder.units - holder.working()
    score = (
        f"units {holder.units}/{holder.housing()} housed, {home} home  "
        f"Cathedrals {holder.cathedrals()}"
    )
    lines = [head.ljust(WIDTH - len(score)) + score]
    lines.append(f"  {'building':<14}{'tokens':<8}{'work':<6}does")
    lines += [_building_line(b) for b in holder.buildings] or ["  (no building)"]
    lines.append("  " + _stock(holder))
    return lines


def _building_line(building: Building) -> str:
    bar = "D" * building.damage + "d" * building.depletion
    bar = (bar + "." * TOKENS)[: max(TOKENS, len(bar))]
    work = f"{building.workers}/{building.places}"
    return f"  {building.label:<14}{bar:<8}{work:<6}{_does(building)}"


def _does(building: Building) -> str:
    card = CARDS[building.kind]
    return f"{card.action_text()}; a token: {card.cost_text()}"


def _stock(holder: Seat) -> str:
    others = " ".join(f"{c} {holder.stock[c]}" for c in OTHER_COMMODITIES)
    return (
        f"grain {holder.stock['grain']}/{holder.grain_room()} | "
        f"{others} = {holder.others()}/{holder.other_room()}"
    )


def holdings(game: GameState, seat: str) -> str:
    holder = game.seat(seat)
    stock = ", ".join(f"{holder.stock[c]} {c}" for c in COMMODITIES)
    school = "tools double work (a school stands)" if holder.has_school() else "no school"
    lines = [
        f"{seat}: {plural(holder.units, 'unit')} ({holder.units - holder.working()} at home), "
        f"houses for {holder.housing()}; "
        f"Cathedrals {holder.cathedrals()} of {game.options['cathedrals']}.",
        wrap(f"Stock: {stock}."),
        f"Storage: {holder.grain_room()} grain, {holder.other_room()} others; {school}.",
        f"Standing: {_defence(holder)}.",
        wrap(f"Standing: {_spare(holder)}."),
    ]
    return "\n".join(lines)


def _spare(holder: Seat) -> str:
    if not holder.spare:
        return "SPARE none (razing damage by the default rule)"
    return "SPARE " + " ".join(holder.spare) + " (razing damage on these last)"


def _defence(holder: Seat) -> str:
    units = (
        "all units at home"
        if holder.defend < 0
        else plural(holder.defend, "unit at home", "units at home")
    )
    shields = "a shield each" if holder.shields < 0 else plural(holder.shields, "shield")
    return f"DEFEND with {units} and {shields}"


def public_summary(game: GameState) -> str:
    lines = ["Seat         Units  Housed  Buildings  Cathedrals  Swords  Shields"]
    for holder in game.seats:
        status = "  (out)" if not holder.alive else ""
        lines.append(
            f"{holder.name[:12]:<12} {holder.units:>5}  {holder.housing():>6}  "
            f"{len(holder.buildings):>9}  {holder.cathedrals():>10}  "
            f"{holder.stock['swords']:>6}  {holder.stock['shields']:>7}{status}"
        )
    return "\n".join(lines)


def order_template(game: GameState, seat: str) -> str:
    holder = game.seat(seat)
    working = [b for b in holder.buildings if b.places and not b.damage and CARDS[b.kind].makes]
    damaged = [b for b in holder.buildings if b.damage]
    others = [s.name for s in game.seats if s.name != seat and s.alive]
    lines = [
        f"# Round {game.round}: one action for each of your {plural(holder.units, 'unit')}.",
        f"# BREAK GROUND <kind>    one a turn; comes in with {TOKENS} damage tokens",
        wrap(f"#   a damage token removed costs: {cost_groups()}", "#   "),
        "# BUILD <n> <building>|NEW    remove damage tokens, paying the cost",
    ]
    lines += [
        wrap("#   damaged: " + ", ".join(f"{b.label} {b.damage}" for b in damaged), "#   ")
    ] * bool(damaged)
    lines.append("# WORK <n> <building>     produce where undamaged")
    lines += [wrap("#   " + ", ".join(f"{b.label} {b.places}" for b in working), "#   ")] * bool(
        working
    )
    if holder.of_kind("school"):
        lines.append("#   a tool doubles a unit's work once the school stands; end a BUILD")
        lines.append("#   or WORK line with TOOLS <n> to use at most n (TOOLS 0: none)")
    lines.append(f"# BUY <n>                 new units, {UNIT_PRICE} grain each, at a house")
    if holder.of_kind("academy"):
        lines.append("# ATTACK <seat> WITH <n> [SWORDS <n>] [RAZE|LOOT]   from academies")
        lines.append(wrap("#   seats: " + " ".join(others), "#   "))
    else:
        lines.append("# ATTACK needs an academy: units attack from there")
    lines.append("# Units you give no action stay home and defend against attacks.")
    lines.append(f"# Standing: {_defence(holder)}; change with")
    lines.append("#   DEFEND ALL|<n> [SHIELDS ALL|<n>]")
    lines.append(wrap(f"# Standing: {_spare(holder)}; change with", "#   "))
    lines.append("#   SPARE <building> ... | SPARE NONE")
    return "\n".join(lines)


def cost_groups() -> str:
    """The cards by what removing one damage token costs: 'nothing: farm woodcutter; ...'."""
    groups: dict[str, list[str]] = {}
    for card in CARDS.values():
        groups.setdefault(card.cost_text(), []).append(card.kind)
    return "; ".join(f"{cost}: {' '.join(kinds)}" for cost, kinds in groups.items())


def _card_table() -> str:
    rows = [f"  {'card':<13}{'a token':<12}one action"]
    rows += [f"  {c.kind:<13}{c.cost_text():<12}{c.action_text()}" for c in CARDS.values()]
    return "\n".join(rows)


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


ORDER_HELP = (
    """\
Medieval Micromanager orders (one a line; '#' starts a comment):
  BREAK GROUND <kind>        a new building card with 5 damage tokens
                             (one a turn; it is lost if none is removed)
  BUILD <n> <building>|NEW   n units remove damage tokens (1 each, 2
                             with a tool once a school stands), paying
                             the card's cost for every token
  WORK <n> <building>        n units produce at an undamaged building
                             (twice as much with a tool)
  ... TOOLS <t>              at the end of a BUILD or WORK line: at
                             most t of its units use a tool (TOOLS 0:
                             none); without it, every unit that can
  BUY <n>                    n units buy a new unit each (5 grain) at
                             an undamaged house
  ATTACK <seat> WITH <n> [SWORDS <n>] [RAZE|LOOT]
                             n units attack from your academies
  DEFEND ALL|<n> [SHIELDS ALL|<n>]   standing: your defence (units
                             given no action stay home and defend)
  SPARE <building> ... | NONE  standing: razing damage on these last
The cards: what removing one of a card's damage tokens costs (a new
card has 5), and what one unit's action there makes:
"""
    + _card_table()
    + """
The whole reference: send HELP ORDERS; one order: HELP <order>."""
)
