"""Whether an order may be carried out now: one check an order, used twice, when the order is
read (against the state before the turn) and when its phase comes (against the state then).

Each check returns None, or a Refusal naming the rule (a key of rules.RULES) that forbids it.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.hexgrid import distance, neighbours
from engine.rulesets.tribes.model import GameState, Seat, a_building

ROAD_REACH = 3  # hexes a land unit may move along roads (completion)
SHIP_REACH = 2  # sea hexes a ship may move (completion)
BRIBE_BASE = 5  # "If the player is tied with you in fame, the cost is 5 money per unit."
UPGRADE_AT = {"melee": "blacksmith", "beasts": "stables", "ranged": "refinery"}
UPGRADE_PAID_IN = {"melee": "ore", "beasts": "food", "ranged": "ore"}
# Materials of each building besides the work of one population unit; "wood|stone" is the
# fragment's "one stone or wood". The rest are completions.
COSTS: dict[str, tuple[str, ...]] = {
    "barracks": ("wood|stone",),
    "blacksmith": ("wood|stone",),
    "fortress": ("stone", "stone"),
    "stables": ("wood",),
    "refinery": ("stone",),
    "farm": ("wood",),
    "market": ("wood", "stone"),
    "shrine": ("stone", "ore"),
    "dock": ("wood", "wood"),
    "road": ("stone",),
    "ship": ("wood",),  # built at a dock, into a sea hex next to it
}


@dataclass(frozen=True)
class Refusal:
    message: str
    rule: str


def upgrade_cost(seat: Seat, track: str) -> int:
    """Level I costs 1, level II 2 more (completion)."""
    return seat.level(track) + 1


def bribe_price(state: GameState, briber: Seat, target: Seat) -> int:
    """Money a unit: 5 at equal fame, one less for each fame point above the target and each
    hunger chip on its card. The text's count reaches 0, a free unit; below that it stays 0
    (completion: the text's money only goes from the briber), or at option bribe_floor."""
    count = BRIBE_BASE - (briber.fame - target.fame) - target.hunger
    # A game stored before the option existed was made with a least price of 1 and keeps it.
    floor = int(state.options.get("bribe_floor", 1))
    return max(count, 0, floor)


def refuse_path(state: GameState, seat: str, path: Sequence[str], kind: str) -> Refusal | None:
    """A move along `path` (start first) by units of `kind`."""
    for here, there in itertools.pairwise(path):
        if distance(here, there) != 1:
            return Refusal(f"{here} and {there} are not next to each other", "move")
    by_sea = kind == "ship"
    wrong = [n for n in path if state.is_sea(n) != by_sea]
    if wrong:
        what = "a ship sails only on sea" if by_sea else "land units stay on land"
        return Refusal(f"{wrong[0]}: {what}", "move")
    steps = len(path) - 1
    reach = SHIP_REACH if by_sea else (ROAD_REACH if _all_road(state, path) else 1)
    if steps > reach:
        why = "along roads" if reach == ROAD_REACH else "without a road in every hex"
        return Refusal(f"{steps} hexes is too far: {reach} at most {why}", "move")
    for name in path[1:]:
        owner = state.peek(name).owner
        if owner and owner != seat:
            return Refusal(f"{name} holds {owner}'s units: ATTACK it instead", "move")
    return None


def _all_road(state: GameState, path: Sequence[str]) -> bool:
    return all(state.peek(n).has("road") for n in path)


def refuse_attack(
    state: GameState, seat: str, target: str, source: str, arriving: bool = False
) -> Refusal | None:
    """An attack from `source`; `arriving`: an earlier MOVE of the same orders ends there."""
    mine = state.units(source, seat)
    if not (mine.military() or mine.ship or arriving):
        return Refusal(f"you have no military units or ships in {source}", "attack")
    if distance(source, target) != 1:
        return Refusal(f"{target} is not next to {source}", "attack")
    if state.is_sea(source) != state.is_sea(target):
        return Refusal("land fights land and ships fight ships", "attack")
    owner = state.peek(target).owner
    if not owner or owner == seat:
        return Refusal(f"{target} holds no other tribe's units", "attack")
    return None


def refuse_bribe(state: GameState, seat: str, target: str, money: int) -> Refusal | None:
    owner = state.peek(target).owner
    if not owner or owner == seat:
        return Refusal(f"{target} holds no other tribe's units", "bribe_all")
    if not bribe_source(state, seat, target):
        kind = "ship" if state.is_sea(target) else "land unit"
        rule = "bribe_ships" if state.is_sea(target) else "bribe_phase"
        return Refusal(f"you have no {kind} next to {target}", rule)
    briber, other = state.seat(seat), state.seat(owner)
    if other.fame > briber.fame:
        return Refusal(
            f"{owner} has more fame ({other.fame}) than you ({briber.fame})", "bribe_cost"
        )
    cost = bribe_price(state, briber, other) * state.peek(target).units.total()
    if cost > money:
        return Refusal(f"bribing {target} costs {cost} money; you have {money}", "bribe_cost")
    return None


def bribe_source(state: GameState, seat: str, target: str) -> str:
    """A hex next to `target` with a unit of the seat's that may bribe it: ships bribe only
    ships, land units only land ("Ships can't bribe land, and land can't bribe ships")."""
    sea = state.is_sea(target)
    for name in sorted(state.held(seat)):
        if distance(name, target) == 1 and state.is_sea(name) == sea:
            return name
    return ""


def refuse_build(
    state: GameState, seat: str, name: str, work: str, spent: Mapping[str, int], stock: Seat
) -> Refusal | None:
    """Building `work` (a building or 'ship') in `name`, with one population unit's work."""
    rule = {"barracks": "barracks", "blacksmith": "blacksmith"}.get(work, "buildings")
    here = state.peek(name)
    if here.owner != seat or here.units.population <= spent.get(name, 0):
        return Refusal(f"you have no population in {name} with work left", rule)
    if work == "ship":
        if not here.has("dock"):
            return Refusal(f"a ship is built at a dock; {name} has none", rule)
        if not launch_hex(state, seat, name):
            return Refusal(f"no free sea hex next to {name}", rule)
    elif here.has(work):
        return Refusal(f"{name} already has {a_building(work)}", "buildings")
    elif work == "dock" and not any(state.is_sea(n) for n in _around(state, name)):
        return Refusal(f"a dock stands on the coast; {name} is not next to the sea", rule)
    missing = missing_materials(stock, work)
    if missing:
        return Refusal(f"{a_building(work)} needs {missing}", rule)
    return None


def missing_materials(stock: Seat, work: str) -> str:
    needed: dict[str, int] = {}
    for part in COSTS[work]:
        if part == "wood|stone":
            continue
        needed[part] = needed.get(part, 0) + 1
    short = [
        f"{n} {m} (you have {stock.stock(m)})" for m, n in needed.items() if stock.stock(m) < n
    ]
    if "wood|stone" in COSTS[work] and stock.wood < 1 and stock.stone < 1:
        short.append("one wood or stone (you have none)")
    return ", ".join(short)


def launch_hex(state: GameState, seat: str, dock: str) -> str:
    """The sea hex next to the dock where a new ship goes: one of the seat's own, else empty."""
    seas = [n for n in _around(state, dock) if state.is_sea(n)]
    for name in sorted(seas):
        if state.peek(name).owner == seat:
            return name
    free = sorted(n for n in seas if not state.peek(n).owner)
    return free[0] if free else ""


def _around(state: GameState, name: str) -> tuple[str, ...]:
    return neighbours(state.width, state.height, name)


def refuse_convert(
    state: GameState, seat: str, name: str, count: int, spent: Mapping[str, int], money: int
) -> Refusal | None:
    """Converting one population unit into `count` military units in a barracks hex."""
    here = state.peek(name)
    if here.owner != seat or not here.has("barracks"):
        return Refusal(f"you own no barracks in {name}", "owned")
    if here.units.population <= spent.get(name, 0):
        return Refusal(f"no population in {name} has work left", "convert")
    if money <= 0:
        return Refusal("you have no money", "sacrifice")
    due = min(3, money)
    if count != due:
        return Refusal(
            f"with {money} money you get exactly {due} military unit{'s' if due > 1 else ''}",
            "sacrifice",
        )
    return None


def refuse_upgrade(state: GameState, seat: str, track: str, stock: Seat) -> Refusal | None:
    building = UPGRADE_AT[track]
    if not state.owned_buildings(seat, building):
        return Refusal(f"the {track} upgrade needs a {building} of yours", "upgrades")
    level = stock.level(track)
    if level >= 2:
        return Refusal(f"you have both {track} upgrades already", "upgrades")
    paid_in, cost = UPGRADE_PAID_IN[track], upgrade_cost(stock, track)
    if stock.stock(paid_in) < cost:
        return Refusal(
            f"{track} upgrade {'I' * (level + 1)} costs {cost} {paid_in}; you have "
            f"{stock.stock(paid_in)}",
            "upgrades",
        )
    return None
