"""A bot that writes order text a player could have written: it spreads its people over the
sites, builds, upgrades, recruits, bribes and attacks when the odds favour it. Its text goes
through the same parser as a player's."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.dice import Dice
from engine.hexgrid import distance, neighbours
from engine.rulesets.tribes.combat import line_up
from engine.rulesets.tribes.legality import (
    COSTS,
    ROAD_REACH,
    SHIP_REACH,
    bribe_price,
    missing_materials,
    refuse_build,
    refuse_path,
    refuse_upgrade,
)
from engine.rulesets.tribes.model import SEA, SITES, GameState, Seat
from engine.rulesets.tribes.upkeep import SUPPORT, WORKERS_A_HEX

# What the bot builds, roughly in this order; a few at random lift one out of turn.
WISHES = (
    "farm",
    "blacksmith",
    "road",
    "market",
    "shrine",
    "stables",
    "refinery",
    "dock",
    "fortress",
    "barracks",
)


@dataclass
class _Plan:
    state: GameState
    seat: str
    dice: Dice
    lines: list[str] = field(default_factory=list)
    leaving: dict[str, int] = field(default_factory=dict)  # population moving out, a hex
    busy: dict[str, int] = field(default_factory=dict)  # population given work, a hex
    money: int = 0

    def free_pop(self, name: str) -> int:
        here = self.state.units(name, self.seat)
        return here.population - self.leaving.get(name, 0) - self.busy.get(name, 0)


def bot_orders(state: GameState, seat: str, seed: int) -> str:
    plan = _Plan(state, seat, Dice(seed, state.round, seat, "bot"), money=state.seat(seat).money)
    _spread(plan)
    _war(plan)
    _bribe(plan)
    _build(plan)
    _convert(plan)
    _upgrade(plan)
    _grow(plan)
    return "\n".join(plan.lines) + "\n"


def _around(state: GameState, name: str) -> tuple[str, ...]:
    return neighbours(state.width, state.height, name)


def _spread(plan: _Plan) -> None:
    """One person a turn from each crowded hex to a free land hex next door, the sites the
    tribe lacks first; the barracks hex keeps two, to work and to be converted."""
    state, seat = plan.state, plan.seat
    taken: set[str] = set()
    held = state.held(seat)
    worked = {SITES.get(state.ground(n), "") for n in held}
    for name in held:
        keep = 2 if state.peek(name).has("barracks") else 1
        if state.units(name, seat).population <= keep:
            continue
        free = [
            n
            for n in _around(state, name)
            if not state.is_sea(n) and not state.peek(n).owner and n not in taken
        ]
        if not free:
            continue
        target = max(free, key=lambda n: (_site_value(state.ground(n), worked), n))
        taken.add(target)
        plan.leaving[name] = 1
        plan.lines.append(f"MOVE {name} {target} 1 POPULATION")


def _site_value(ground: str, worked: set[str]) -> int:
    site = SITES.get(ground, "")
    return 3 if site and site not in worked else (2 if site == "food" else (1 if site else 0))


def _enemy_hexes(state: GameState, seat: str) -> list[str]:
    return [n for n, p in state.places.items() if p.owner and p.owner != seat]


def _war(plan: _Plan) -> None:
    """Attack a neighbouring hex when clearly stronger; else march a large army toward the
    nearest enemy, a few staying home."""
    state, seat = plan.state, plan.seat
    enemies = _enemy_hexes(state, seat)
    attacked: set[str] = set()
    threatened = _threatened(plan)
    for name in state.held(seat):
        units = state.units(name, seat)
        force = units.ship if state.is_sea(name) else units.military()
        if not force:
            continue
        target = _target(plan, name, force, attacked)
        if target:
            attacked.add(target)
            plan.lines.append(f"ATTACK {target} FROM {name} COMBINE {_group(plan, target)}")
            continue
        keep = 1 if state.peek(name).has("barracks") and threatened else 0
        sea = state.is_sea(name)
        goals = [n for n in enemies if state.is_sea(n) == sea]
        if force - keep >= 2 and goals:
            path = _way_toward(plan, name, goals)
            if path:
                count = "" if sea else f" {force - keep}"
                plan.lines.append(f"MOVE {name} {' '.join(path)}{count}")


def _target(plan: _Plan, name: str, force: int, attacked: set[str]) -> str:
    state = plan.state
    best = ""
    for other in _around(state, name):
        here = state.peek(other)
        if not here.owner or here.owner == plan.seat or other in attacked:
            continue
        if state.is_sea(other) != state.is_sea(name):
            continue
        defenders = 2 * here.units.military() + here.units.population
        defenders += 2 if here.has("fortress") else 0
        if force >= defenders + 1 and (
            not best or here.units.total() > state.peek(best).units.total()
        ):
            best = other
    return best


def _group(plan: _Plan, target: str) -> int:
    """Combine more rolls against a tougher front unit."""
    state = plan.state
    here = state.peek(target)
    side = line_up(state, state.seat(here.owner), here.units, here.has("fortress"))
    front = side.front()
    guard = front.guard if front else 0
    return 1 if guard >= 0 else min(3, 1 - guard)


def _way_toward(plan: _Plan, name: str, goals: list[str]) -> list[str]:
    """The hexes of a move toward the nearest goal: along roads (land) or up to two sea hexes
    (ships) when that gets closer than a single step, else one step."""
    state = plan.state
    goal = min(goals, key=lambda n: (distance(n, name), n))
    sea = state.is_sea(name)
    kind = "ship" if sea else "melee"
    reach = SHIP_REACH if sea else (ROAD_REACH if state.peek(name).has("road") else 1)
    ways: list[list[str]] = [[name]]
    found: list[list[str]] = []
    for _ in range(reach):
        longer = []
        for way in ways:
            for n in _around(state, way[-1]):
                path = [*way, n]
                if n not in way and refuse_path(state, plan.seat, path, kind) is None:
                    longer.append(path)
        found += longer
        ways = longer
    closer = [p for p in found if distance(p[-1], goal) < distance(name, goal)]
    if not closer:
        return []
    best = min(distance(p[-1], goal) for p in closer)
    shortest = min(len(p) for p in closer if distance(p[-1], goal) == best)
    choices = sorted(p[1:] for p in closer if distance(p[-1], goal) == best and len(p) == shortest)
    return plan.dice.choice(choices)


def _bribe(plan: _Plan) -> None:
    """Buy a weak neighbour's hex when the money allows and more than one unit stands there."""
    state, seat = plan.state, plan.seat
    me = state.seat(seat)
    for name in sorted(_enemy_hexes(state, seat)):
        here = state.peek(name)
        other = state.seat(here.owner)
        if other.fame > me.fame or here.units.total() < 2:
            continue
        if not any(
            state.peek(n).owner == seat and state.is_sea(n) == state.is_sea(name)
            for n in _around(state, name)
        ):
            continue
        cost = bribe_price(state, me, other) * here.units.total()
        if cost <= plan.money - 3:
            plan.money -= cost
            plan.lines.append(f"BRIBE {name}")
            return


def _build(plan: _Plan) -> None:
    """Up to two buildings a turn, each where a free worker stands; and a ship or two."""
    state, seat = plan.state, plan.seat
    card = state.seat(seat)
    stock = {m: card.stock(m) for m in ("wood", "stone", "ore")}
    wishes = list(WISHES)
    if plan.dice.d(3) == 1:
        wishes.insert(0, wishes.pop(plan.dice.randrange(len(wishes))))
    if _threatened(plan):
        wishes.insert(0, wishes.pop(wishes.index("fortress")))
    if not state.owned_buildings(seat, "barracks"):
        wishes.insert(0, wishes.pop(wishes.index("barracks")))  # or lose every fighter
    built = 0
    for work in wishes:
        if built == 2:
            break
        if work in card.built_kinds and work not in ("farm", "road", "barracks", "fortress"):
            continue
        if work == "barracks" and not _needs_barracks(plan):
            continue
        name = _site_for(plan, work)
        if name and _afford(card, stock, work):
            _spend(stock, work)
            plan.busy[name] = plan.busy.get(name, 0) + 1
            plan.lines.append(f"BUILD {name} {work.upper()}")
            built += 1
    ships = sum(state.units(n, seat).ship for n in state.held(seat))
    for name in state.held(seat):
        if (
            state.peek(name).has("dock")
            and ships < 3
            and stock["wood"] >= 1
            and plan.free_pop(name) > 0
        ) and refuse_build(state, seat, name, "ship", plan.busy, card) is None:
            stock["wood"] -= 1
            plan.busy[name] = plan.busy.get(name, 0) + 1
            plan.lines.append(f"BUILD {name} SHIP")
            break


def _needs_barracks(plan: _Plan) -> bool:
    state, seat = plan.state, plan.seat
    military = sum(state.units(n, seat).military() for n in state.held(seat))
    return military >= SUPPORT * state.owned_buildings(seat, "barracks") - 2


def _site_for(plan: _Plan, work: str) -> str:
    """A hex of the tribe's with a free worker where `work` fits and makes most sense."""
    state, seat = plan.state, plan.seat
    card = state.seat(seat)
    fits = [
        n
        for n in state.held(seat)
        if plan.free_pop(n) > 0 and refuse_build(state, seat, n, work, plan.busy, card) is None
    ]
    if work == "farm":
        fits = [n for n in fits if SITES.get(state.ground(n), "food") == "food"]
    if work == "fortress":
        fits = [n for n in fits if state.peek(n).has("barracks")]
    if work == "road":
        fits = [
            n
            for n in fits
            if any(state.peek(m).has("road") for m in _around(state, n))
            or state.peek(n).has("barracks")
        ]
    if not fits:
        return ""
    return max(fits, key=lambda n: (state.units(n, seat).population, n))


def _afford(card: Seat, stock: dict[str, int], work: str) -> bool:
    probe = Seat(card.name, card.letter, wood=stock["wood"], stone=stock["stone"], ore=stock["ore"])
    return not missing_materials(probe, work)


def _spend(stock: dict[str, int], work: str) -> None:
    for cost in COSTS[work]:
        part = cost
        if cost == "wood|stone":
            part = "wood" if stock["wood"] >= stock["stone"] else "stone"
        stock[part] -= 1


def _convert(plan: _Plan) -> None:
    """Recruit at a barracks while there is room under the barracks' support."""
    state, seat = plan.state, plan.seat
    military = sum(state.units(n, seat).military() for n in state.held(seat))
    room = SUPPORT * state.owned_buildings(seat, "barracks") - military
    people = sum(state.units(n, seat).population for n in state.held(seat))
    if people < 5 or (military >= people and not _threatened(plan)):
        return  # the people are the tribe's wealth: recruit from a surplus, or in danger
    for name in state.held(seat):
        if plan.money <= 0 or room <= 0:
            return
        if not state.peek(name).has("barracks") or plan.free_pop(name) < 2:
            continue
        count = min(3, plan.money)
        if count < 3 and military > 2:
            return
        kinds = _recruits(plan, count)
        parts = [
            f"{kinds.count(k)} {k.upper()}" for k in ("melee", "ranged", "magic") if k in kinds
        ]
        march = _road_march(plan, name)
        plan.lines.append(f"CONVERT {name} {' '.join(parts)}" + (f" TO {march}" if march else ""))
        plan.money -= count
        plan.busy[name] = plan.busy.get(name, 0) + 1
        room -= count


def _threatened(plan: _Plan) -> bool:
    """Another tribe's military stands within two hexes of one of ours."""
    state = plan.state
    ours = state.held(plan.seat)
    return any(
        p.owner != plan.seat and p.units.military() and any(distance(n, m) <= 2 for m in ours)
        for n, p in state.places.items()
        if p.owner
    )


def _recruits(plan: _Plan, count: int) -> list[str]:
    """Ranged and melee after the upgrades, at least one melee for the front; in a full
    recruit of three one magic unit too, while the mage bonus makes it the best roll of a
    combined attack."""
    card = plan.state.seat(plan.seat)
    magic = count == 3 and int(plan.state.options["mage_bonus"]) > 0
    share = 2 if card.ranged > card.melee + card.beasts else 1
    kinds = ["magic"] * magic + ["ranged"] * min(share, count - 1 - magic)
    return kinds + ["melee"] * (count - len(kinds))


def _road_march(plan: _Plan, name: str) -> str:
    """A road hex next to the barracks, toward the nearest enemy, if the barracks has a road."""
    state = plan.state
    if not state.peek(name).has("road"):
        return ""
    enemies = _enemy_hexes(state, plan.seat)
    roads = [
        n
        for n in _around(state, name)
        if state.peek(n).has("road") and refuse_path(state, plan.seat, [name, n], "melee") is None
    ]
    if not roads or not enemies:
        return ""
    goal = min(enemies, key=lambda n: (distance(n, name), n))
    best = min(roads, key=lambda n: (distance(n, goal), n))
    return best if distance(best, goal) < distance(name, goal) else ""


def _upgrade(plan: _Plan) -> None:
    state, seat = plan.state, plan.seat
    card = state.seat(seat)
    for track in ("melee", "beasts", "ranged"):
        if refuse_upgrade(state, seat, track, card) is None:
            plan.lines.append(f"UPGRADE {track.upper()}")
            return


def _grow(plan: _Plan) -> None:
    """New people go where a hex has work left for them."""
    state, seat = plan.state, plan.seat
    room = [
        n
        for n in state.held(seat)
        if not state.is_sea(n) and state.units(n, seat).population < WORKERS_A_HEX
    ]
    if room:
        name = max(room, key=lambda n: (state.ground(n) != ".", state.ground(n) != SEA, n))
        plan.lines.append(f"GROW {name}")
