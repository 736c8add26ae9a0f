"""A bot that writes order text for a seat, read back through the same parser as a player's.

It plays a plain plan: keep houses ahead of units and farms and woodcutters ahead of need,
raise units with spare grain, build a school, a mine and a smithy for tools, then a quarry
and Cathedrals; a seat of warlike temper (a die at the start) builds an academy and a
swordsmith and attacks the seat nearest the goal. The orders are written raw materials first,
then finished goods, building, buying and attacks, as they are carried out in that order.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.dice import Dice
from engine.rulesets.medieval_micromanager.cards import CARDS, UNIT_PRICE, Group
from engine.rulesets.medieval_micromanager.model import Building, GameState, Seat
from engine.rulesets.medieval_micromanager.orders import NEW


@dataclass
class _Plan:
    game: GameState
    seat: Seat
    dice: Dice
    warlike: bool
    free: int = 0
    stock: dict[str, int] = field(default_factory=dict)
    work: list[str] = field(default_factory=list)
    goods: list[str] = field(default_factory=list)
    build: list[str] = field(default_factory=list)
    other: list[str] = field(default_factory=list)
    placed: dict[str, int] = field(default_factory=dict)  # WORK units at raw buildings

    def lines(self) -> list[str]:
        return self.work + self.goods + self.build + self.other


def bot_orders(game: GameState, seat: str, seed: int) -> str:
    holder = game.seat(seat)
    warlike = Dice(seed, 0, seat, "bot temper").d(6) >= 4
    plan = _Plan(game, holder, Dice(seed, game.round, seat, "bot"), warlike)
    plan.free = holder.units - _guards(plan)
    plan.stock = dict(holder.stock)
    _buy(plan)
    _new_building(plan)
    _repairs(plan)
    _goods(plan)
    _attack(plan)
    _raw(plan)
    _defence(plan)
    return "\n".join(plan.lines()) + "\n"


def _tool(plan: _Plan) -> int:
    return 2 if plan.seat.has_school() and plan.seat.stock["tools"] >= plan.seat.units else 1


def _affordable(plan: _Plan, kind: str, tokens: int) -> int:
    """Tokens of a `kind` card the planned stock pays for, at most `tokens`."""
    for what, n in CARDS[kind].cost.items():
        tokens = min(tokens, plan.stock.get(what, 0) // n)
    return tokens


def _pay(plan: _Plan, kind: str, tokens: int) -> None:
    for what, n in CARDS[kind].cost.items():
        plan.stock[what] -= n * tokens


def _wanted(plan: _Plan) -> str:  # noqa: C901 - the bot's wants in order, one line each
    """The next card this seat needs, or '' for none."""
    seat = plan.seat
    has = {kind: [b for b in seat.buildings if b.kind == kind] for kind in CARDS}
    places = {kind: sum(b.places for b in has[kind]) for kind in CARDS}
    housing = sum(5 for _ in has["house"])
    if seat.units + 3 > housing:
        return "house"
    if places["farm"] * _tool(plan) * 2 < seat.units * 0.7:
        return "farm"
    if places["woodcutter"] * _tool(plan) < seat.units * 0.3:
        return "woodcutter"
    if seat.stock["grain"] + 4 > 10 * len(has["granary"]) and len(has["granary"]) < 2:
        return "granary"
    if seat.others() + 4 > 10 * len(has["warehouse"]) and len(has["warehouse"]) < 4:
        return "warehouse"
    if seat.units >= 6 and not has["school"]:
        return "school"
    if has["school"] and not places["mine"]:
        return "mine"
    if has["school"] and not has["smithy"]:
        return "smithy"
    if plan.warlike and seat.units >= 10 and not has["academy"] and _behind(plan):
        return "academy"
    if has["academy"] and not has["swordsmith"]:
        return "swordsmith"
    if seat.units >= 8 and not places["quarry"]:
        return "quarry"
    if seat.units >= 10 and not has["armourer"] and _threatened(plan):
        return "armourer"
    building = [b for b in has["cathedral"] if b.damage]
    if places["quarry"] and not building and seat.stock["stone"] >= 2:
        return "cathedral"
    return ""


def _behind(plan: _Plan) -> bool:
    """Another seat is nearer the goal."""
    mine = _progress(plan.seat)
    return any(_progress(s) > mine for s in plan.game.seats if s.alive and s is not plan.seat)


def _threatened(plan: _Plan) -> bool:
    return any(
        s.of_kind("academy") for s in plan.game.seats if s.alive and s.name != plan.seat.name
    )


def _new_building(plan: _Plan) -> None:
    kind = _wanted(plan)
    if not kind or not plan.free:
        return
    tokens = _affordable(plan, kind, min(plan.free, 5) * _tool(plan))
    if not tokens:
        return
    units = min(plan.free, -(-tokens // _tool(plan)))
    _pay(plan, kind, tokens)
    plan.free -= units
    plan.build += [f"BREAK GROUND {kind.upper()}", f"BUILD {units} {NEW}"]


def _repairs(plan: _Plan) -> None:
    damaged = sorted(
        (b for b in plan.seat.buildings if b.damage), key=lambda b: (b.kind != "house", b.damage)
    )
    for building in damaged:
        tokens = _affordable(plan, building.kind, min(building.damage, plan.free * _tool(plan)))
        units = min(plan.free, building.places, -(-tokens // _tool(plan)))
        if units <= 0:
            continue
        _pay(plan, building.kind, tokens)
        plan.free -= units
        plan.build.append(f"BUILD {units} {building.label}")


def _guards(plan: _Plan) -> int:
    """Units left at home to defend: as many as the strongest academy of another seat could
    send, up to a third of the seat's units."""
    seat = plan.seat
    threat = max(
        (
            min(_academy_places(other), other.units)
            for other in plan.game.seats
            if other.alive and other.name != seat.name
        ),
        default=0,
    )
    return min(threat, seat.units // 3)


def _academy_places(seat: Seat) -> int:
    return sum(b.places for b in seat.of_kind("academy", undamaged=True))


def _attack(plan: _Plan) -> None:
    """Attack a seat nearer the goal where the expected hits beat the expected saves by a
    margin: the seat nearest the goal among those."""
    seat = plan.seat
    units = min(_academy_places(seat), plan.free)
    if units < 2 or seat.units < 8:
        return
    swords = min(units, seat.stock["swords"])
    hits = swords * 2 / 3 + (units - swords) / 2
    weak = [
        other
        for other in plan.game.seats
        if other.alive
        and other.name != seat.name
        and _progress(other) > _progress(seat)
        and hits > _saves(other) + 1
    ]
    if not weak:
        return
    target = max(weak, key=lambda s: (s.cathedrals(), len(s.of_kind("cathedral")), -s.units))
    plan.free -= units
    # Raze a Cathedral standing; otherwise take a kind of commodity (stone, with luck). Loot
    # of one piece (the option `loot` = piece) is worth less than a token: raze then.
    piece = plan.game.options.get("loot") == "piece"
    then = "RAZE" if target.cathedrals() or piece else "LOOT"
    plan.other.append(f"ATTACK {target.name} WITH {units} SWORDS {swords} {then}")


def _progress(seat: Seat) -> tuple[int, int]:
    """How near the goal a seat is: Cathedrals standing, then Cathedral tokens removed."""
    building = sum(5 - b.damage for b in seat.of_kind("cathedral"))
    return seat.cathedrals(), building


def _saves(other: Seat) -> float:
    home = other.units - other.working()
    guards = home if other.defend < 0 else min(other.defend, home)
    wanted = guards if other.shields < 0 else min(other.shields, guards)
    shields = min(wanted, other.stock["shields"])
    return shields / 2 + (guards - shields) / 3


def _defence(plan: _Plan) -> None:
    """With more shields than a few, keep some for the next attack; once threatened, spare
    the Cathedrals from razing. Standing orders, written when they change."""
    seat = plan.seat
    spare = [b.label for b in seat.of_kind("cathedral")] if _threatened(plan) else []
    if spare and spare != seat.spare:
        plan.other.append("SPARE " + " ".join(spare))
    wanted = -1 if seat.stock["shields"] <= 3 else 3
    if wanted != seat.shields or (seat.defend != -1 and wanted == -1):
        shields = "ALL" if wanted < 0 else str(wanted)
        plan.other.append(f"DEFEND ALL SHIELDS {shields}")


def _buy(plan: _Plan) -> None:
    seat = plan.seat
    room = seat.housing() - seat.units
    houses = sum(b.places for b in seat.of_kind("house", undamaged=True))
    count = min(room, plan.stock["grain"] // UNIT_PRICE, houses, plan.free)
    if count > 0:
        plan.stock["grain"] -= count * UNIT_PRICE
        plan.free -= count
        plan.other.append(f"BUY {count}")


def _goods(plan: _Plan) -> None:
    seat = plan.seat
    wants = {
        "tools": seat.units - seat.stock["tools"] if seat.has_school() else 0,
        "swords": 6 - seat.stock["swords"],
        "shields": 4 - seat.stock["shields"],
    }
    for building in _working(plan, Group.GOODS):
        card = CARDS[building.kind]
        units = min(plan.free, building.places, wants[card.makes], plan.stock[card.uses])
        if units > 0:
            plan.stock[card.uses] -= units
            plan.free -= units
            plan.goods.append(f"WORK {units} {building.label}")


def _working(plan: _Plan, group: Group) -> list[Building]:
    return [b for b in plan.seat.buildings if CARDS[b.kind].group is group and not b.damage]


def _raw(plan: _Plan) -> None:
    """Every unit still free, to the raw material the seat holds least of for its room."""
    buildings = sorted(_working(plan, Group.RAW), key=lambda b: (b.depletion, b.label))
    while plan.free:
        open_ = [b for b in buildings if b.places > plan.placed.get(b.label, 0)]
        if not open_:
            return
        best = min(open_, key=lambda b: _short(plan, CARDS[b.kind].makes))
        plan.placed[best.label] = plan.placed.get(best.label, 0) + 1
        plan.stock[CARDS[best.kind].makes] += _tool(plan) * CARDS[best.kind].amount
        plan.free -= 1
    plan.work = [f"WORK {n} {label}" for label, n in plan.placed.items()]


def _short(plan: _Plan, what: str) -> float:
    """How well stocked the seat is of a raw material, against what it wants of it."""
    want = {"grain": 10.0, "lumber": 8.0, "ore": 3.0, "stone": 10.0}[what]
    if what == "ore" and not plan.seat.has_school():
        want = 1.0
    if what == "stone" and not plan.seat.of_kind("quarry"):
        want = 1.0
    return plan.stock[what] / want
