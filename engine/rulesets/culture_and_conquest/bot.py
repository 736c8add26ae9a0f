"""A bot that writes order text a player could have written: it feeds its people, keeps a
modest Army, builds cities and Wonders, swaps advances with its neighbours, helps one ally and
attacks a much weaker culture now and then. On a map it also spreads out into free land, guards
its cities and takes undefended land next to its Armies. Its text goes through the same parser
as a player's."""

from __future__ import annotations

from engine.dice import Dice
from engine.rulesets.culture_and_conquest.geography import adjacent_own, city_site, way
from engine.rulesets.culture_and_conquest.legality import (
    MOVE_LIMIT,
    WONDER_COST,
    cost,
    free_cities,
    refuse_city,
    refuse_deliver,
    refuse_receive,
    refuse_wonder,
)
from engine.rulesets.culture_and_conquest.model import (
    CATEGORIES,
    WONDERS,
    GameState,
    Item,
    Land,
    Offer,
    Seat,
)

TRIBUTE = ["city", "gold", "population"]
SURRENDER_BELOW = 2
VALUE = {"gold": 1, "food": 0.3, "labor": 0.5, "population": 3, "city": 40, "advance": 12}
VALUE |= {"leader": 15, "promise": 0}


def bot_orders(state: GameState, seat: str, seed: int) -> str:
    dice = Dice(seed, state.step, seat, "bot")
    holder = state.seat(seat)
    lines = _standing(state, holder)
    lines += _distribution(holder)
    if state.land is None:
        lines += _war(state, holder, dice)
    else:
        lines += _map_war(state, state.land, holder, dice)
        lines += _moves(state, state.land, holder, dice)
    lines += _trade(state, holder, dice)
    lines += _build(state, holder)
    return "\n".join(lines) + "\n"


def _standing(state: GameState, holder: Seat) -> list[str]:
    lines = []
    if holder.standing.tribute != TRIBUTE:
        lines.append("TRIBUTE " + ", ".join(t.upper() for t in TRIBUTE))
    # on a map only the Armies of one territory fight: a bot there never gives in
    below = SURRENDER_BELOW if state.land is None else 0
    if holder.standing.surrender_below != below:
        lines.append(f"SURRENDER IF ARMY BELOW {below}" if below else "SURRENDER NEVER")
    ally = _ally(state, holder)
    wanted = 1 if ally and holder.army >= 4 else 0
    current = {s.seat: s.armies for s in holder.standing.supports}
    for name in current:
        if name != ally:
            lines.append(f"SUPPORT {name} NONE")
    if ally and current.get(ally, 0) != wanted:
        lines.append(f"SUPPORT {ally} {wanted} ARMIES" if wanted else f"SUPPORT {ally} NONE")
    return lines


def _ally(state: GameState, holder: Seat) -> str:
    """The next living seat in turn order."""
    alive = [s.name for s in state.seats if s.alive]
    if len(alive) < 3:
        return ""
    return alive[(alive.index(holder.name) + 1) % len(alive)]


def _targets(holder: Seat) -> dict[str, int]:
    total = holder.population
    crop = 4 if holder.has("Irrigation") else 3
    target = dict.fromkeys(CATEGORIES, 0)
    stored = holder.food // 2 if holder.has("Pottery") else 0
    target["agriculture"] = min(total, -(-max(0, total + 3 - stored) // crop))
    rest = total - target["agriculture"]
    target["scholars"] = min(rest, len(holder.cities))
    rest -= target["scholars"]
    # an Army costs 1 gold to raise and 1 gold a turn: raise only what can be paid
    affordable = min(holder.gold, holder.army + max(0, (holder.gold - holder.army) // 2))
    target["army"] = min(rest, 2 + total // 8, affordable)
    rest -= target["army"]
    short = _gold_needed(holder) > holder.gold
    target["trade"] = rest * 2 // 3 if short else rest // 3
    target["labor"] = rest - target["trade"]
    return target


def _gold_needed(holder: Seat) -> int:
    """Gold for the work under construction, or for a Wonder if nothing is."""
    if not holder.projects:
        return WONDER_COST[1]
    return sum(cost(p.kind, p.name)[1] for p in holder.projects) + holder.army


def _distribution(holder: Seat) -> list[str]:
    target = _targets(holder)
    change = {c: max(-MOVE_LIMIT, min(MOVE_LIMIT, target[c] - holder.pops[c])) for c in CATEGORIES}
    change["army"] = min(change["army"], holder.gold)
    give = {c: -change[c] for c in CATEGORIES if change[c] < 0}
    take = {c: change[c] for c in CATEGORIES if change[c] > 0}
    lines = []
    # The values are read afresh each time round: the loop lowers them as it moves.
    for taker in take:  # noqa: PLC0206
        for giver in give:  # noqa: PLC0206
            count = min(take[taker], give[giver])
            if count:
                lines.append(f"MOVE {count} {giver.upper()} TO {taker.upper()}")
                take[taker] -= count
                give[giver] -= count
    return lines


def _war(state: GameState, holder: Seat, dice: Dice) -> list[str]:
    """Attack the weakest culture when the Army is more than twice its own, on a 1 in 3."""
    others = [s for s in state.seats if s.alive and s.name != holder.name]
    if not others or holder.army < 4:
        return []
    weakest = min(others, key=lambda s: (s.army, s.name))
    if holder.army < 2 * weakest.army + 3 or dice.d(3) != 1:
        return []
    return [f"ATTACK {weakest.name} GIVE UP IF LOSSES {max(1, holder.army // 2)}"]


def _map_war(state: GameState, land: Land, holder: Seat, dice: Dice) -> list[str]:
    """Attack the enemy Army next to its own that its Armies there outnumber most, when they
    are more than twice as many, on a 1 in 3."""
    best, odds = "", 0
    if not _targets(holder)["army"]:  # its distribution would disband the Army
        return []
    for name, spot in land.territories.items():
        if not spot.owner or spot.owner == holder.name or not spot.army:
            continue
        mine = sum(land.territories[n].army for n in adjacent_own(land, holder.name, name))
        if mine >= 2 * spot.army + 1 and mine - spot.army > odds:
            best, odds = name, mine - spot.army
    if not best or dice.d(3) != 1:
        return []
    mine = sum(land.territories[n].army for n in adjacent_own(land, holder.name, best))
    return [f"ATTACK {best} GIVE UP IF LOSSES {max(1, mine // 2)}"]


def _moves(state: GameState, land: Land, holder: Seat, dice: Dice) -> list[str]:
    """Guard an unguarded city, take one undefended enemy territory (on a 1 in 2), and send
    farmers from the most crowded territory into free land (by sea with Navigation)."""
    lines = []
    owned = land.owned(holder.name)
    spare = {n: land.territories[n].army - 1 for n in owned if land.territories[n].army > 1}
    for name in owned:
        spot = land.territories[name]
        helper = next((n for n in land.land_neighbours(name) if spare.get(n, 0) > 0), "")
        if spot.city and not spot.army and helper:
            lines.append(f"MOVE 1 ARMY {helper} TO {name}")
            spare[helper] -= 1
    prey = [
        (n, m)
        for m in owned
        if spare.get(m, 0) > 0
        for n in land.land_neighbours(m)
        if land.territories[n].owner not in ("", holder.name) and not land.territories[n].army
    ]
    if prey and dice.d(2) == 1:
        lines.append(f"MOVE 1 ARMY {prey[0][1]} TO {prey[0][0]}")
    crowded = max(owned, key=lambda n: land.territories[n].pops["agriculture"], default="")
    if crowded and land.territories[crowded].pops["agriculture"] >= 5:
        free = _free_land(land, holder, crowded)
        if free:
            lines.append(f"MOVE 2 AGRICULTURE {crowded} TO {free}")
    return lines


def _free_land(land: Land, holder: Seat, origin: str) -> str:
    """Unclaimed land next to `origin`, else within reach by sea."""
    near = [n for n in land.land_neighbours(origin) if not land.territories[n].owner]
    if near:
        return near[0]
    sails = holder.has("Navigation")
    far = [n for n, t in land.territories.items() if not t.owner and way(land, origin, n, sails)]
    return far[0] if far else ""


def _value(items: list[Item], receiver: Seat) -> float:
    total = 0.0
    for item in items:
        worth = VALUE[item.kind] * (item.count or 1)
        if item.kind == "advance" and receiver.has(item.name):
            worth = 0
        total += worth
    return total


def _trade(state: GameState, holder: Seat, dice: Dice) -> list[str]:
    lines = []
    for offer in state.offers:
        if offer.to == holder.name and _worth_accepting(state, holder, offer):
            lines.append(f"ACCEPT {offer.seat} {offer.id}")
    if any(o.seat == holder.name for o in state.offers):
        return lines
    others = [s for s in state.seats if s.alive and s.name != holder.name]
    if not others:
        return lines
    partner = others[(state.step + dice.d(len(others))) % len(others)]
    mine = [a for a in holder.advances if not partner.has(a)]
    theirs = [a for a in partner.advances if not holder.has(a)]
    if mine and theirs:
        lines.append(f"OFFER {partner.name} ADVANCE {mine[0]} FOR ADVANCE {theirs[0]}")
    elif theirs and holder.gold >= 30:
        lines.append(f"OFFER {partner.name} 12 GOLD FOR ADVANCE {theirs[0]}")
    return lines


def _worth_accepting(state: GameState, holder: Seat, offer: Offer) -> bool:
    giver = state.seat(offer.seat)
    if refuse_deliver(state, holder.name, offer.get) or refuse_receive(
        state, holder.name, offer.give
    ):
        return False
    if any(i.kind in ("city", "leader", "population", "labor", "food") for i in offer.get):
        return False
    return _value(offer.give, holder) >= _value(offer.get, giver) and _value(offer.give, holder) > 0


def _build(state: GameState, holder: Seat) -> list[str]:
    room = state.land is None or bool(city_site(state, holder.name))
    for project in holder.projects:
        if project.kind == "city" and refuse_city(state, holder.name, project.name) is None:
            return [f"BUILD CITY {project.name}"] if room else []
        if refuse_wonder(state, holder.name, project.name, project.city) is None:
            return [f"BUILD WONDER {project.name} IN {project.city}"]
    if free_cities(holder):
        for wonder in WONDERS:
            if refuse_wonder(state, holder.name, wonder, "") is None:
                return [f"BUILD WONDER {wonder}"]
    return ["BUILD CITY"] if room else []
