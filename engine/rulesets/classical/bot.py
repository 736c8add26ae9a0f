"""A bot that writes order text a player could have written: it settles, builds monuments,
upgrades villages, recruits, attacks when the odds favour it and researches with what is left.
It plans with the resources its territories will produce; its text goes through the same
parser as a player's."""

from __future__ import annotations

from engine.dice import Dice
from engine.rulesets.classical import legality
from engine.rulesets.classical.economy import CITY_COST, MONUMENT_COST, VILLAGE_COST, production
from engine.rulesets.classical.geography import distances, neighbours, spread_sites
from engine.rulesets.classical.model import CATEGORY_OF, CIVILIZATIONS, VILLAGE, GameState
from engine.rulesets.classical.seat_turn import ANY, pay_from
from engine.rulesets.classical.setup import taken

# What a bot wants a new village to yield, best first.
GROWN = 4  # cities before monuments come ahead of upgrades
MARGIN = 0.5  # armies beyond the expected losses an attack wants
WANTED = {"food": 4, "stone": 4, "luxury": 3, "gold": 3, "iron": 2, "wood": 1}


def bot_orders(state: GameState, seat: str, seed: int) -> str:
    dice = Dice(seed, state.step, seat, "bot")
    if state.setup:
        return "\n".join(_setup(state, seat, dice, seed)) + "\n"
    pool, _ = production(state, seat)
    food = pool["food"] + pool["gold"] // 2  # what next turn can likely feed
    lines = _feed(state, seat)
    _upkeep(state, seat, pool)
    if len(state.cities(seat)) < GROWN:  # grow first: cities pay for monuments later
        upgrades = _upgrades(state, seat, pool)
        lines += _monuments(state, seat, pool) + upgrades
    else:
        lines += _monuments(state, seat, pool)
        lines += _upgrades(state, seat, pool)
    lines += _settle(state, seat, pool)
    front = _front_city(state, seat)
    lines += _war(state, seat, front)
    lines += _recruit(state, seat, pool, food, front)
    lines.append("RESEARCH MAX")
    return "\n".join(lines) + "\n"


def _setup(state: GameState, seat: str, dice: Dice, seed: int) -> list[str]:
    lines = []
    if not state.seat(seat).civilization:
        names = [c for c in CIVILIZATIONS if c not in taken(state)]
        dice.shuffle(names)
        lines.append("CIVILIZATION " + ", ".join(names[:3]))
    index = [s.name for s in state.seats].index(seat)
    sites = spread_sites(state.board, len(state.seats))
    # The sites picked first have the most room: every bot shuffles them the same way, so that
    # no seat always gets the best.
    Dice(seed, 0, "", "bot sites").shuffle(sites)
    if index < len(sites):
        lines.append(f"CITY {sites[index]}")
    return lines


def _feed(state: GameState, seat: str) -> list[str]:
    """Fleets on a fishing ground feed themselves: feed them before the armies."""
    wish = ["cities", "fleets", "armies"]
    if state.seat(seat).standing.feed == wish:
        return []
    return ["FEED " + " ".join(w.upper() for w in wish)]


def _mouths(state: GameState, seat: str) -> int:
    return len(state.cities(seat)) + sum(
        state.space(n).units_of(seat) for n in state.unit_spaces(seat)
    )


def _upkeep(state: GameState, seat: str, pool: dict[str, int]) -> None:
    for _ in range(_mouths(state, seat)):
        pay_from(pool, [("food",)])


def _monuments(state: GameState, seat: str, pool: dict[str, int]) -> list[str]:
    lines = []
    built = {label: 0 for label in state.cities(seat)}
    for _ in range(legality.monument_allowance(state, seat)):
        if not built:
            break
        label = min(built, key=lambda n: state.space(n).monuments + built[n])
        extra = state.space(label).monuments + built[label]
        if pay_from(pool, [*MONUMENT_COST, *[ANY] * extra]) is None:
            break
        built[label] += 1
    for label, count in built.items():
        if count:
            lines.append(f"MONUMENT {label}" + (f" {count}" if count > 1 else ""))
    return lines


def _upgrades(state: GameState, seat: str, pool: dict[str, int]) -> list[str]:
    lines = []
    for label in state.settlements(seat, VILLAGE):
        if pay_from(pool, CITY_COST) is None:
            break
        lines.append(f"UPGRADE {label}")
    return lines


def _settle(state: GameState, seat: str, pool: dict[str, int]) -> list[str]:
    lines: list[str] = []
    placed: list[str] = []
    while True:
        open_land = [
            n
            for n in state.board.territories
            if n not in placed and legality.refuse_settle(state, seat, n, placed) is None
        ]
        if not open_land:
            return lines
        if placed and pay_from(pool, VILLAGE_COST) is None:
            return lines
        best = max(open_land, key=lambda n: WANTED.get(CATEGORY_OF[state.space(n).resource], 0))
        placed.append(best)
        lines.append(f"SETTLE {best}")


def _war(state: GameState, seat: str, front: str) -> list[str]:
    """Each stack with armies to spare attacks the best enemy space it can reach where the
    odds favour it, else marches to the city nearest the enemy; fleets go fishing."""
    lines = []
    targets: set[str] = set()
    for label in state.unit_spaces(seat):
        spot = state.space(label)
        have = spot.units_of(seat)
        if spot.sea:
            goal = _fishing_ground(state, seat, label)
            if goal:
                lines.append(f"MOVE {label} {goal}")
            continue
        spare = have - (_garrison(state, seat, label, front) if spot.owner == seat else 0)
        if spare < 1:
            continue
        target = _target(state, seat, label, spare, targets)
        if target:
            targets.add(target)
            lines.append(f"MOVE {label} {target} {spare}")
        elif front and label != front and legality.path(state, seat, label, front):
            lines.append(f"MOVE {label} {front} {spare}")
    return lines


def _garrison(state: GameState, seat: str, label: str, front: str) -> int:
    """Armies a city keeps: as many as enemy armies within two spaces, and one at the front."""
    near = distances(state.board, label)
    threat = sum(
        sum(state.space(n).enemy_units(seat).values())
        for n, d in near.items()
        if d <= 2 and not state.space(n).sea
    )
    return threat + (1 if label == front else 0)


def _front_city(state: GameState, seat: str) -> str:
    """The seat's city nearest another seat's settlement ('' if it has no city)."""
    enemy = [n for n, t in state.board.territories.items() if t.owner and t.owner != seat]
    best, gap = "", 99
    for city in state.cities(seat):
        far = distances(state.board, city)
        near = min((far.get(n, 99) for n in enemy), default=99)
        if near < gap:
            best, gap = city, near
    return best


def odds(bonus: int) -> float:
    """The chance that 1D8 + bonus beats 1D8 (the defender wins ties)."""
    wins = sum(1 for a in range(1, 9) for b in range(1, 9) if a + bonus > b)
    return wins / 64


def _target(state: GameState, seat: str, origin: str, spare: int, taken: set[str]) -> str:
    """The most valuable enemy space in reach that `spare` armies should take: losses
    expected at the odds of the dice, the defenders and the settlement each fought to the end,
    with one army to spare."""
    mine = state.seat(seat).level("military")
    best, value = "", 0
    for label in distances(state.board, origin):
        spot = state.space(label)
        if label in taken or spot.sea or not spot.held_by_enemy(seat):
            continue
        if legality.path(state, seat, origin, label) is None:
            continue
        defenders = sum(spot.enemy_units(seat).values())
        owner = spot.owner or next(iter(spot.enemy_units(seat)), "")
        chance = odds(mine - state.seat(owner).level("military"))
        rounds = defenders + (1 if spot.owner and spot.owner != seat else 0)
        if chance <= 0 or spare < rounds * (1 - chance) / chance + MARGIN:
            continue
        worth = (3 if spot.settlement == "city" else 1) + 2 * spot.monuments
        if worth > value:
            best, value = label, worth
    return best


def _fishing_ground(state: GameState, seat: str, origin: str) -> str:
    if CATEGORY_OF[state.space(origin).resource] and not state.space(origin).enemy_units(seat):
        return ""
    for label in distances(state.board, origin):
        spot = state.space(label)
        fish = spot.sea and CATEGORY_OF[spot.resource] and not spot.units
        if fish and legality.path(state, seat, origin, label) is not None:
            return label
    return ""


def _recruit(state: GameState, seat: str, pool: dict[str, int], food: int, front: str) -> list[str]:
    """Armies until each city has a garrison and a strike force is building, as many as the
    food will feed; a fleet for every other coastal city, for fishing."""
    lines = []
    fed = food - _mouths(state, seat)
    allowed = legality.unit_allowance(state, seat)
    cities = state.cities(seat)
    armies = sum(
        state.space(n).units_of(seat) for n in state.unit_spaces(seat) if not state.space(n).sea
    )
    fleets = sum(
        state.space(n).units_of(seat) for n in state.unit_spaces(seat) if state.space(n).sea
    )
    for city in cities:
        if allowed <= 0:
            break
        seas = [n for n in neighbours(state.board, city) if state.space(n).sea]
        if seas and fleets < (len(cities) + 1) // 2 and pay_from(pool, [("wood",)]):
            lines.append(f"RECRUIT {seas[0]}")
            allowed, fleets, fed = allowed - 1, fleets + 1, fed - 1
    want = 3 * len(cities) + 2
    while allowed > 0 and cities and armies < want and fed > 0 and pay_from(pool, [("iron",)]):
        lines.append(f"RECRUIT {front}")
        allowed, armies, fed = allowed - 1, armies + 1, fed - 1
    return lines
