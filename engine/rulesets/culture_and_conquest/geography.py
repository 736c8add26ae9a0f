"""The map version: generating the map, the ways across it, and keeping it in step with the
cultures.

The cultures' totals (populations by category, cities, leaders) are what every phase of the game
without a map reads and changes. After each phase the map is brought in step with them
(`settle`): populations lost come from as few territories as possible, new ones are spread out
over the culture's territories, a change of category stays in its territory, a new city stands
in a territory of its own, a new leader at home. What only the map decides - which territory
fights, moves, is captured or ceded - changes map and totals together (`transfer`, `convert`).
"""

from __future__ import annotations

import math
from collections import deque

from engine.dice import Dice
from engine.hexgrid import distance, hex_name, neighbours, reading_key
from engine.rulesets.culture_and_conquest.model import (
    CATEGORIES,
    LAND,
    SEA,
    GameState,
    Land,
    Seat,
)

LAND_PER_SEAT = 8
SEA_SHARE = 0.35
SEA_REACH = 4  # "Players with Navigation can move Populations 4 territories by sea per turn."
START_SPACING = 3


def map_size(seats: int) -> tuple[int, int]:
    """About LAND_PER_SEAT land territories a seat and a third as much sea, a little wider than
    high."""
    total = math.ceil(LAND_PER_SEAT * seats / (1 - SEA_SHARE))
    height = max(5, round(math.sqrt(total / 1.3)))
    width = max(6, math.ceil(total / height))
    return width, height


def generate(seats: int, dice: Dice) -> tuple[Land, list[str]]:
    """A map like the Mediterranean - an inner sea grown from a random spot away from the edge,
    with land around it - and one starting territory a seat, spread out as far as they go (at
    least START_SPACING apart while a map allows it, never next to each other)."""
    width, height = map_size(seats)
    for attempt in range(400):
        land = Land.blank(_carve_sea(width, height, dice))
        starts = _starts(land, seats, dice, START_SPACING if attempt < 200 else 2)
        if starts:
            return land, starts
    raise RuntimeError("could not place the starting territories")  # not reached for 2..12


def _carve_sea(width: int, height: int, dice: Dice) -> tuple[str, ...]:
    inner = [hex_name(c, r) for r in range(1, height - 1) for c in range(1, width - 1)]
    target = min(round(width * height * SEA_SHARE), len(inner) - 1)
    sea: set[str] = set()
    frontier = [dice.choice(inner)]
    while len(sea) < target and frontier:
        spot = frontier.pop(dice.randrange(len(frontier)))
        if spot in sea:
            continue
        sea.add(spot)
        frontier += [n for n in neighbours(width, height, spot) if n in inner and n not in sea]
    return tuple(
        "".join(SEA if hex_name(c, r) in sea else LAND for c in range(width)) for r in range(height)
    )


def _starts(land: Land, seats: int, dice: Dice, spacing: int) -> list[str]:
    """Each next start is a territory farthest from those chosen, among territories with at
    least two land neighbours."""
    good = [n for n in land.territories if len(land.land_neighbours(n)) >= 2]
    if len(good) < seats:
        return []
    starts = [dice.choice(good)]
    while len(starts) < seats:
        gaps = {n: min(distance(n, s) for s in starts) for n in good if n not in starts}
        best = max(gaps.values())
        if best < spacing:
            return []
        starts.append(dice.choice(sorted(n for n, d in gaps.items() if d == best)))
    return starts


def sea_steps(land: Land, origin: str, dest: str) -> int:
    """The fewest sea spaces a move by sea from `origin` to `dest` crosses (both must be coastal);
    0 when there is no way by sea."""
    if not (land.coastal(origin) and land.coastal(dest)) or origin == dest:
        return 0
    seen = {n: 1 for n in land.neighbours(origin) if n not in land.territories}
    queue = deque(seen)
    while queue:
        here = queue.popleft()
        if dest in land.neighbours(here):
            return seen[here]
        for n in land.neighbours(here):
            if n not in land.territories and n not in seen:
                seen[n] = seen[here] + 1
                queue.append(n)
    return 0


def way(land: Land, origin: str, dest: str, navigation: bool) -> str:
    """How a population can go from `origin` to `dest` in one turn: 'land' (one space), 'sea'
    (with Navigation, at most SEA_REACH sea spaces, landing in a coastal territory), or ''."""
    if dest in land.land_neighbours(origin):
        return "land"
    steps = sea_steps(land, origin, dest) if navigation else 0
    return "sea" if 0 < steps <= SEA_REACH else ""


def border(land: Land, seat: str) -> list[str]:
    """The seat's territories next to a space that is not its own (land or sea); all of them
    if none is."""
    owned = land.owned(seat)
    edge = [n for n in owned if any(_not_own(land, m, seat) for m in land.neighbours(n))]
    return edge or owned


def _not_own(land: Land, name: str, seat: str) -> bool:
    spot = land.territories.get(name)
    return spot is None or spot.owner != seat


def adjacent_own(land: Land, seat: str, target: str) -> list[str]:
    """The seat's territories next to `target`."""
    return [n for n in land.land_neighbours(target) if land.territories[n].owner == seat]


def city_site(state: GameState, seat: str, wanted: str = "") -> str:
    """Where a new city of the seat stands: `wanted` if it is the seat's and has no city, else
    its territory without a city with the most populations ('' if it has none)."""
    land = state.land
    assert land is not None
    spot = land.territories.get(wanted)
    if spot is not None and spot.owner == seat and not spot.city:
        return wanted
    free = [n for n in land.owned(seat) if not land.territories[n].city]
    return max(free, key=lambda n: land.territories[n].population, default="")


def home(land: Land, holder: Seat) -> str:
    """Where the seat's new leaders go: the territory of its first city still held, else its
    territory with the most populations ('' if it holds none)."""
    for city in holder.cities:
        spot = land.where_city(city.name)
        if spot and land.territories[spot].owner == holder.name:
            return spot
    owned = land.owned(holder.name)
    return max(owned, key=lambda n: land.territories[n].population, default="")


def convert(state: GameState, holder: Seat, source: str, target: str, count: int, at: str) -> int:
    """A change of category in place: `count` populations of `source` become `target` in
    territory `at`, or (`at` '') in the territories with the most of them, as few as possible.
    Changes map and totals; returns how many changed."""
    land = state.land
    assert land is not None
    places = [at] if at else sorted(land.owned(holder.name), key=lambda n: _most(land, n, source))
    done = 0
    for name in places:
        spot = land.territories[name]
        take = min(count - done, spot.pops[source]) if spot.owner == holder.name else 0
        spot.pops[source] -= take
        spot.pops[target] += take
        done += take
    holder.pops[source] -= done
    holder.pops[target] += done
    return done


def _most(land: Land, name: str, category: str) -> tuple[int, tuple[int, int]]:
    return -land.territories[name].pops[category], reading_key(name)


def remove_from(
    state: GameState, holder: Seat, category: str, count: int, among: list[str]
) -> None:
    """Take `count` populations of `category` from the territories `among`, from as few as
    possible (the largest first); map and totals."""
    land = state.land
    assert land is not None
    for name in sorted(among, key=lambda n: _most(land, n, category)):
        spot = land.territories[name]
        take = min(count, spot.pops[category])
        spot.pops[category] -= take
        holder.pops[category] -= take
        count -= take


def transfer(state: GameState, name: str, to: str, captured: bool) -> list[str]:
    """Territory `name` and every token in it go to seat `to`: its populations by category, its
    city (with its Wonder). Leaders in it are destroyed when it is captured ("Captured Leaders
    are destroyed"); when it is ceded (tribute, trade) they withdraw to another territory of
    their culture. Returns the names of the leaders destroyed."""
    settle(state)
    land = state.land
    assert land is not None
    spot = land.territories[name]
    new = state.seat(to)
    old = state.seat(spot.owner) if spot.owner else None
    for category in CATEGORIES:
        new.pops[category] += spot.pops[category]
        if old is not None:
            old.pops[category] -= spot.pops[category]
    destroyed: list[str] = []
    if old is not None:
        city = old.city(spot.city) if spot.city else None
        if city is not None:
            old.cities.remove(city)
            new.cities.append(city)
        if captured:
            destroyed = list(spot.leaders)
            old.leaders = [x for x in old.leaders if x.name not in destroyed]
    spot.leaders = []
    spot.owner = to
    settle(state)
    return destroyed


def settle(state: GameState) -> None:
    """Bring the map in step with the cultures' totals (see the module's docstring)."""
    land = state.land
    if land is None:
        return
    _settle_cities(state, land)
    for holder in state.seats:
        _settle_pops(land, holder)
    _settle_leaders(state, land)
    for spot in land.territories.values():
        if spot.owner and spot.empty():
            spot.owner = ""


def _settle_cities(state: GameState, land: Land) -> None:
    """A city gone from its territory's owner (lost, or handed on without its territory) leaves
    the map; a city not on the map (new, or given by a referee) is placed."""
    for spot in land.territories.values():
        if spot.city and (not spot.owner or state.seat(spot.owner).city(spot.city) is None):
            spot.city = ""
    for holder in state.seats:
        for city in holder.cities:
            if land.where_city(city.name):
                continue
            site = city_site(state, holder.name) or _nearest_free(land, holder.name)
            if site:
                land.territories[site].city = city.name
                land.territories[site].owner = holder.name


def _nearest_free(land: Land, seat: str) -> str:
    """Unclaimed land nearest to the seat's territories (for a city with nowhere else to go)."""
    owned = land.owned(seat)
    free = [n for n, t in land.territories.items() if not t.owner]
    if not free:
        return ""
    if not owned:
        return free[0]
    return min(free, key=lambda n: (min(distance(n, o) for o in owned), reading_key(n)))


def _settle_pops(land: Land, holder: Seat) -> None:
    """Losses from as few territories as possible; gains first where the same culture just lost
    populations of another category (a change of category stays in place), then spread out."""
    owned = land.owned(holder.name)
    spots = [land.territories[n] for n in owned]
    freed: dict[str, int] = {}
    for category in CATEGORIES:
        extra = sum(s.pops[category] for s in spots) - holder.pops[category]
        for name in sorted(owned, key=lambda n: _most(land, n, category)):
            if extra <= 0:
                break
            spot = land.territories[name]
            take = min(extra, spot.pops[category])
            spot.pops[category] -= take
            freed[name] = freed.get(name, 0) + take
            extra -= take
    for category in CATEGORIES:
        missing = holder.pops[category] - sum(s.pops[category] for s in spots)
        for name in list(freed):
            put = min(missing, freed[name]) if missing > 0 else 0
            land.territories[name].pops[category] += put
            freed[name] -= put
            missing -= put
        if missing > 0 and not owned:
            holder.pops[category] -= missing  # no territory to place them in: they are lost
            continue
        for _ in range(max(0, missing)):
            fewest = min(owned, key=lambda n: (land.territories[n].population, reading_key(n)))
            land.territories[fewest].pops[category] += 1


def _settle_leaders(state: GameState, land: Land) -> None:
    holders = {x.name: s.name for s in state.seats for x in s.leaders}
    for spot in land.territories.values():
        spot.leaders = [x for x in spot.leaders if holders.get(x) == spot.owner]
    for holder in state.seats:
        at = home(land, holder)
        for leader in holder.leaders:
            if at and not land.where_leader(leader.name):
                land.territories[at].leaders.append(leader.name)
