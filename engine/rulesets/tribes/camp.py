"""Phase 3: bribes, buildings, converting population into military, and upgrades.

Bribing, the barracks and the conversion are the fragment's rules, word for word; the other
buildings and the upgrades' costs are completions (rules "buildings", "upgrades").
"""

from __future__ import annotations

from engine.rulesets.tribes.legality import (
    COSTS,
    UPGRADE_PAID_IN,
    bribe_price,
    launch_hex,
    refuse_bribe,
    refuse_build,
    refuse_convert,
    refuse_upgrade,
    upgrade_cost,
)
from engine.rulesets.tribes.model import BUILDINGS, Units, a_building
from engine.rulesets.tribes.orders import Bribe, Build, Convert, Upgrade, refuse_road_march
from engine.rulesets.tribes.seat_turn import SeatTurn
from engine.rulesets.tribes.war import transfer
from engine.words import plural


def bribes_and_buildings(turn: SeatTurn) -> None:
    for bribe in turn.of(Bribe):
        _bribe(turn, bribe)
    for build in turn.of(Build):
        _build(turn, build)
    for convert in turn.of(Convert):
        _convert(turn, convert)
    for upgrade in turn.of(Upgrade):
        _upgrade(turn, upgrade)


def _bribe(turn: SeatTurn, order: Bribe) -> None:
    """ "Once bribed the player removes all units and replaces them with units of his own
    color." Buildings in the hex then belong to the briber, whose units stand there."""
    state, seat = turn.state, turn.name
    refusal = refuse_bribe(state, seat, order.target, turn.seat.money)
    if refusal:
        turn.refuse(order, refusal.message, refusal.rule)
        return
    here = state.place(order.target)
    victim = state.seat(here.owner)
    price = bribe_price(state, turn.seat, victim)
    count = here.units.total()
    turn.seat.money -= price * count
    here.owner = seat
    # "Bribed population units may not do work that turn": their work counts as spent.
    turn.bribed[order.target] = turn.bribed.get(order.target, 0) + here.units.population
    turn.spent[order.target] = turn.spent.get(order.target, 0) + here.units.population
    victim.fame = max(0, victim.fame - 1)
    text = (
        f"Bribe: {seat} bribes {here.units.described()} of {victim.name} in {order.target} "
        f"for {count} x {price} = {count * price} money."
    )
    turn.event("bribe", text, public=True, also=(victim.name,))
    turn.rec.done(seat, order, f"{plural(count, 'unit')} for {count * price} money")


def _build(turn: SeatTurn, order: Build) -> None:
    state, seat = turn.state, turn.name
    refusal = refuse_build(state, seat, order.hex, order.work, turn.spent, turn.seat)
    if refusal:
        turn.refuse(order, refusal.message, refusal.rule)
        return
    paid = _pay(turn, order)
    turn.spent[order.hex] = turn.spent.get(order.hex, 0) + 1
    if order.work == "ship":
        sea = launch_hex(state, seat, order.hex)
        state.place(sea).owner = seat
        state.place(sea).units.ship += 1
        turn.event("build:ship", f"Build: a ship at {order.hex}'s dock, in {sea} ({paid}).")
        turn.rec.done(seat, order, f"ship in {sea}")
        return
    here = state.place(order.hex)
    here.buildings = [b for b in BUILDINGS if b in here.buildings or b == order.work]
    fame = ""
    if order.work not in turn.seat.built_kinds:
        turn.seat.built_kinds.append(order.work)
        turn.seat.fame += 1
        fame = "; the first of its kind: fame +1"
    turn.event(
        f"build:{order.work}",
        f"Build: {seat} builds {a_building(order.work)} in {order.hex} ({paid}){fame}.",
        public=bool(fame),
    )
    turn.rec.done(seat, order, f"built ({paid})")


def _pay(turn: SeatTurn, order: Build) -> str:
    """Take the materials; 'one stone or wood' as ordered, else whichever the tribe has more
    of (wood on a tie)."""
    paid = []
    for part in COSTS[order.work]:
        material = part
        if part == "wood|stone":
            wanted = order.material or ("wood" if turn.seat.wood >= turn.seat.stone else "stone")
            material = (
                wanted if turn.seat.stock(wanted) else ("stone" if wanted == "wood" else "wood")
            )
        turn.seat.pay(material, 1)
        paid.append(material)
    return ", ".join(paid) + " and one work"


def _convert(turn: SeatTurn, order: Convert) -> None:
    state, seat = turn.state, turn.name
    money = turn.seat.money
    refusal = refuse_convert(state, seat, order.hex, order.count(), turn.spent, money)
    if refusal:
        turn.refuse(order, refusal.message, refusal.rule)
        return
    path = [order.hex, *order.to]
    march = refuse_road_march(state, seat, path) if order.to else None
    here = state.place(order.hex)
    here.units.population -= 1
    turn.seat.money -= order.count()
    new = Units(melee=order.melee, ranged=order.ranged, magic=order.magic)
    for kind in ("melee", "ranged", "magic"):
        here.units.add(kind, new.get(kind))
    text = f"Convert: a population unit in {order.hex} becomes {new.described()}"
    if order.to and march is None:
        transfer(state, seat, order.hex, path[-1], new)
        text += f", which march by road to {path[-1]}"
    kinds = "+".join(k for k in ("melee", "ranged", "magic") if new.get(k))
    turn.event(f"convert:{kinds}", text + f" ({order.count()} money).")
    if march:
        turn.rec.partly(seat, order, f"converted, but they stay: {march.message}")
    else:
        turn.rec.done(seat, order, f"{new.described()} for {order.count()} money")


def _upgrade(turn: SeatTurn, order: Upgrade) -> None:
    state, seat = turn.state, turn.name
    refusal = refuse_upgrade(state, seat, order.track, turn.seat)
    if refusal:
        turn.refuse(order, refusal.message, refusal.rule)
        return
    cost, paid_in = upgrade_cost(turn.seat, order.track), UPGRADE_PAID_IN[order.track]
    turn.seat.pay(paid_in, cost)
    turn.seat.gain(order.track, 1)
    level = "I" * turn.seat.level(order.track)
    turn.event(
        f"upgrade:{order.track}",
        f"Upgrade: {seat} buys {order.track} {level} for {cost} {paid_in}.",
        public=True,
    )
    turn.rec.done(seat, order, f"{order.track} {level}")
