"""Phases 7 and 8: disasters, then harvest, growth and migration."""

from __future__ import annotations

from engine.dice import Dice
from engine.hexgrid import reading_key
from engine.rulesets.temples_and_swords.hexmap import DESERT, GRASS
from engine.rulesets.temples_and_swords.legality import cap, refuse_migrate
from engine.rulesets.temples_and_swords.orders import Migrate
from engine.rulesets.temples_and_swords.seat_turn import SeatTurn, lose_population
from engine.words import plural

DISASTERS = ("Flood", "Earthquake", "Disease", "Drought", "Famine", "Warbands")
DISEASE_TURNS = 3
# Migration table: a hex of this population migrates on this roll or more.
MIGRATE_ON = {1: 6, 2: 5, 3: 4, 4: 3, 5: 2, 6: 1}


def disaster(turn: SeatTurn) -> None:
    """Phase 7: Disease still running strikes again; then 1d6, and on a 1 the disaster chart."""
    _ongoing_disease(turn)
    dice = turn.dice("disaster")
    check = dice.d(6)
    if check != 1:
        turn.event("disaster_check", f"Disaster check: rolled {check}, no disaster.", [check])
        return
    kind = dice.d(6)
    name = DISASTERS[kind - 1]
    turn.event(
        "disaster",
        f"Disaster check: rolled 1; chart roll {kind}: {name}!",
        [check, kind],
        public=True,
    )
    STRIKES[name](turn, dice)


def _ongoing_disease(turn: SeatTurn) -> None:
    dice = turn.dice("disease")
    for hex_name, here in turn.owned_hexes():
        if here.disease:
            here.disease -= 1
            _strike(turn, hex_name, dice.d(3), "Disease")


def _strike(turn: SeatTurn, hex_name: str, count: int, cause: str) -> None:
    lost = lose_population(turn.state, hex_name, count)
    turn.event(
        "population_lost",
        f"{cause}: {hex_name} loses {lost} population (rolled {count}).",
        [count],
        public=True,
    )


def _random_hexes(turn: SeatTurn, dice: Dice, terrain: str, count: int) -> list[str]:
    """Distinct random populated hexes of the seat on that terrain ('city' for city hexes)."""
    pool = [
        n
        for n, h in turn.owned_hexes()
        if (h.has("city") if terrain == "city" else turn.state.terrain.terrain(n) == terrain)
        and (h.pop or terrain == "city")
    ]
    chosen = []
    for _ in range(min(count, len(pool))):
        pick = dice.choice(pool)
        pool.remove(pick)
        chosen.append(pick)
    if not chosen:
        turn.event("disaster_nothing", "The disaster finds no hex of that kind to strike.")
    return chosen


def _flood(turn: SeatTurn, dice: Dice) -> None:
    for hex_name in _random_hexes(turn, dice, GRASS, 1):
        _strike(turn, hex_name, dice.d(6), "Flood")


def _earthquake(turn: SeatTurn, dice: Dice) -> None:
    """A city hex loses 1d3 population and every improvement in the city (the city itself
    stands: a completion, as the text says 'improvements in the city')."""
    for hex_name in _random_hexes(turn, dice, "city", 1):
        here = turn.state.hex(hex_name)
        lost = [p for p in here.projects if p != "city"]
        here.projects = ["city"]
        here.progress = {}
        _strike(turn, hex_name, dice.d(3), "Earthquake")
        if lost:
            turn.event(
                "improvements_lost",
                f"Earthquake: {hex_name} loses its {', '.join(lost)}.",
                public=True,
            )


def _disease(turn: SeatTurn, dice: Dice) -> None:
    """1d3 now and in each of the next two of this seat's turns: three turns in all."""
    for hex_name in _random_hexes(turn, dice, GRASS, 1):
        turn.state.hex(hex_name).disease = DISEASE_TURNS - 1
        _strike(turn, hex_name, dice.d(3), "Disease")


def _drought(turn: SeatTurn, dice: Dice) -> None:
    for hex_name in _random_hexes(turn, dice, GRASS, 2):
        _strike(turn, hex_name, dice.d(3), "Drought")


def _famine(turn: SeatTurn, dice: Dice) -> None:
    for hex_name in _random_hexes(turn, dice, DESERT, 2):
        _strike(turn, hex_name, dice.d(3), "Famine")


def _warbands(turn: SeatTurn, dice: Dice) -> None:
    strength = dice.d(6)
    turn.seat.warband = strength
    turn.event(
        "warband_coming",
        f"Warbands: {plural(strength, 'soldier')} will attack a border hex of "
        f"{turn.name} next turn.",
        [strength],
        public=True,
    )


STRIKES = {
    "Flood": _flood,
    "Earthquake": _earthquake,
    "Disease": _disease,
    "Drought": _drought,
    "Famine": _famine,
    "Warbands": _warbands,
}


def population_change(turn: SeatTurn) -> None:
    earned = _harvest_and_growth(turn)
    _migration(turn, earned)


def _harvest_and_growth(turn: SeatTurn) -> dict[str, bool]:
    """Harvest: 2 points a basic population on grassland, 1 on desert. A hex with at least as
    many harvest points as population grows by one, to 6 on grassland and 3 on desert.
    Returns the hexes that earned growth: True where they grew, False where they were full."""
    grew, earned = [], {}
    for hex_name, here in turn.owned_hexes():
        per_head = 2 if turn.state.terrain.terrain(hex_name) == GRASS else 1
        if not here.pop or per_head * here.basic < here.pop:
            continue
        earned[hex_name] = here.pop < cap(turn.state, hex_name)
        if earned[hex_name]:
            here.pop += 1
            grew.append(f"{hex_name} {here.pop}")
    if grew:
        turn.event("growth", f"Growth: {', '.join(grew)}.")
    else:
        turn.event("growth", "Growth: no hex grew (too few harvest points or full).")
    return earned


def _migration(turn: SeatTurn, earned: dict[str, bool]) -> None:
    """Option migration 'growth' (the text's "instead of adding a new population to the given
    hex"): the migrant is the hex's growth of this turn, so a hex that earned none sends no one,
    a full hex's growth settles next door, and each hex migrates once. Option 'move': one of
    the hex's people moves, grown or not."""
    growth_only = turn.state.options["migration"] == "growth"
    populated = sum(1 for _, h in turn.owned_hexes() if h.pop)
    rolls = 1 + (populated > 3) + (populated > 6) + (populated > 9)
    orders = list(turn.of(Migrate))
    dice = turn.dice("migration")
    done: set[str] = set()
    for _ in range(rolls):
        source = _most_populous(turn, orders, done if growth_only else set())
        if not source:
            break
        done.add(source)
        pop = turn.state.hexes[source].pop
        roll = dice.d(6)
        if roll < MIGRATE_ON[pop]:
            _no_migration(turn, f"{source} ({pop}) rolled {roll}, needs {MIGRATE_ON[pop]}", roll)
            continue
        if growth_only and source not in earned:
            _no_migration(turn, f"{source} ({pop}) rolled {roll} but did not grow this turn", roll)
            continue
        leaves = not growth_only or earned[source]
        target = _target(turn, source, orders, leaves)
        if not target:
            _no_migration(turn, f"{source} rolled {roll}, but no neighbouring hex has room", roll)
            continue
        if leaves:
            lose_population(turn.state, source, 1)
        there = turn.state.hex(target)
        there.owner = turn.name
        there.pop += 1
        turn.event(
            "migration",
            f"Migration: {source} ({pop}) rolled {roll}: one population settles in {target}.",
            [roll],
            public=True,
        )
    for order in orders:
        turn.rec.skipped(turn.name, order, "not used: no migration from that hex this turn")


def _no_migration(turn: SeatTurn, why: str, roll: int) -> None:
    turn.event("migration_none", f"Migration: {why}: no one leaves.", [roll])


def _most_populous(turn: SeatTurn, orders: list[Migrate], done: set[str]) -> str:
    """The hex with the most population (of those that have not migrated yet); among ties the
    one a MIGRATE order names, else the first in reading order."""
    hexes = [(n, h.pop) for n, h in turn.owned_hexes() if h.pop and n not in done]
    if not hexes:
        return ""
    most = max(p for _, p in hexes)
    tied = sorted((n for n, p in hexes if p == most), key=reading_key)
    for order in orders:
        if order.source in tied:
            return order.source
    return tied[0]


def _target(turn: SeatTurn, source: str, orders: list[Migrate], leaves: bool) -> str:
    """The hex a MIGRATE order names for this source (and uses it up), else the best free
    neighbour: unowned grassland, own grassland, unowned desert, own desert, fewest people.
    When the source loses the migrant (`leaves`), the default does not pick an own hex that
    would end up as crowded as the source (6 -> 5 makes 5 and 6 again: nothing but noise)."""
    state, name = turn.state, turn.name
    for order in list(orders):
        if (
            order.source in (source, "")
            and refuse_migrate(state, name, source, order.target) is None
        ):
            orders.remove(order)
            turn.rec.done(name, order, f"one population moved from {source} to {order.target}")
            return order.target
    crowd = state.hexes[source].pop
    free = [
        n
        for n in state.terrain.neighbours(source)
        if refuse_migrate(state, name, source, n) is None
        and not (leaves and state.peek(n).owner == name and state.peek(n).pop >= crowd - 1)
    ]
    if not free:
        return ""

    def preference(n: str) -> tuple[int, int, tuple[int, int]]:
        here = state.peek(n)
        rank = (0 if state.terrain.terrain(n) == GRASS else 2) + (1 if here.owner else 0)
        return rank, here.pop, reading_key(n)

    return min(free, key=preference)
