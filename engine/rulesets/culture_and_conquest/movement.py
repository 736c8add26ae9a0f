"""The Move Phase of the map version, after the War Phase: "Populations can move one space per
turn. Players with Navigation can move Populations 4 territories by sea per turn. They must end
the turn in a coastal space." and "An Army can move into an opponents territory that does not
contain an Army. Take control of all tokens in that territory. Captured Leaders are destroyed."
"""

from __future__ import annotations

from engine.rulesets.culture_and_conquest.geography import transfer, way
from engine.rulesets.culture_and_conquest.model import CATEGORY_TITLES, Land
from engine.rulesets.culture_and_conquest.orders import March
from engine.rulesets.culture_and_conquest.seat_turn import SeatTurn
from engine.words import plural


def move(turn: SeatTurn) -> None:
    """Phase 7b: the MOVE orders with territories, in line order. What has moved this turn
    (populations that arrived in a territory, leaders) does not move again."""
    arrived: dict[tuple[str, str], int] = {}
    for order in turn.of(March):
        if order.leader:
            _move_leader(turn, order, arrived)
        else:
            _move_populations(turn, order, arrived)


def _move_populations(turn: SeatTurn, order: March, arrived: dict[tuple[str, str], int]) -> None:
    land, rec, name = _land(turn), turn.rec, turn.name
    origin, dest = land.territories[order.origin], land.territories[order.dest]
    title = CATEGORY_TITLES[order.category]
    if origin.owner != name:
        rec.skipped(name, order, f"{order.origin} is no longer yours")
        return
    how = way(land, order.origin, order.dest, turn.seat.has("Navigation"))
    have = origin.pops[order.category] - arrived.get((order.origin, order.category), 0)
    count = min(order.count, have)
    if not count:
        rec.skipped(name, order, f"{order.origin} has no {title} populations left to move")
        return
    if dest.owner and dest.owner != name:
        if order.category != "army":
            rec.skipped(name, order, f"only an Army can move into {dest.owner}'s {order.dest}")
            return
        if dest.army:
            rec.skipped(
                name,
                order,
                f"{order.dest} holds {plural(dest.army, 'Army', 'Armies')} of {dest.owner}: "
                f"attack it first",
            )
            return
        _capture(turn, order)
    origin.pops[order.category] -= count
    dest.pops[order.category] += count
    dest.owner = name
    key = (order.dest, order.category)
    arrived[key] = arrived.get(key, 0) + count
    if origin.empty():
        origin.owner = ""
    by = " by sea" if how == "sea" else ""
    turn.event("move", f"Move: {count} {title} from {order.origin} to {order.dest}{by}.")
    if count < order.count:
        rec.partly(name, order, f"moved {count} of {order.count}: no more {title} there")
    else:
        rec.done(name, order)


def _capture(turn: SeatTurn, order: March) -> None:
    land = _land(turn)
    spot = land.territories[order.dest]
    loser, city = spot.owner, spot.city
    destroyed = transfer(turn.state, order.dest, turn.name, captured=True)
    text = f"Move: {turn.name}'s Army takes {order.dest} from {loser}"
    parts = []
    if spot.population:
        parts.append(plural(spot.population, "population"))
    if city:
        wonder = turn.seat.city(city)
        parts.append(
            f"the city of {city}"
            + (f" with the {wonder.wonder}" if wonder and wonder.wonder else "")
        )
    if parts:
        text += " with " + " and ".join(parts)
    if destroyed:
        verb = "is" if len(destroyed) == 1 else "are"
        text += f"; the captured {', '.join(destroyed)} {verb} destroyed"
    turn.event("capture", text + ".", public=True, also=(loser,))


def _move_leader(turn: SeatTurn, order: March, arrived: dict[tuple[str, str], int]) -> None:
    land, rec, name = _land(turn), turn.rec, turn.name
    if not any(x.name == order.leader for x in turn.seat.leaders):
        rec.skipped(name, order, f"{order.leader} is no longer your leader")
        return
    if (order.leader, "") in arrived:
        rec.skipped(name, order, f"{order.leader} has moved this turn")
        return
    origin_name = land.where_leader(order.leader)
    dest = land.territories[order.dest]
    if not origin_name or not way(land, origin_name, order.dest, turn.seat.has("Navigation")):
        rec.skipped(name, order, f"{order.dest} is out of reach from {origin_name}")
        return
    if dest.owner and dest.owner != name:
        rec.skipped(name, order, f"a leader cannot take {dest.owner}'s territory {order.dest}")
        return
    origin = land.territories[origin_name]
    origin.leaders.remove(order.leader)
    dest.leaders.append(order.leader)
    dest.owner = name
    arrived[(order.leader, "")] = 1
    if origin.empty():
        origin.owner = ""
    turn.event("move", f"Move: {order.leader} from {origin_name} to {order.dest}.")
    rec.done(name, order)


def _land(turn: SeatTurn) -> Land:
    land = turn.state.land
    assert land is not None
    return land
