"""Step 4, Perform Activities: building and repairing, producing commodities, buying units and
setting units to attack at the academy, each order carried out in the order written."""

from __future__ import annotations

from engine.rulesets.medieval_micromanager.cards import CARDS, UNIT_PRICE, Card, Group, counted
from engine.rulesets.medieval_micromanager.model import Building, Seat
from engine.rulesets.medieval_micromanager.orders import (
    ANY_TOOLS,
    Attack,
    Build,
    Buy,
    Order,
    Work,
)
from engine.rulesets.medieval_micromanager.rules import RULES
from engine.rulesets.medieval_micromanager.seat_turn import SeatTurn
from engine.words import plural


def perform(turn: SeatTurn) -> list[tuple[Attack, int]]:
    """Every action order in the order written; returns the attacks set at the academy, each
    with the units that could be placed there."""
    attacks: list[tuple[Attack, int]] = []
    for order in turn.orders:
        if isinstance(order, Build):
            _build(turn, order)
        elif isinstance(order, Work):
            _work(turn, order)
        elif isinstance(order, Buy):
            _buy(turn, order)
        elif isinstance(order, Attack):
            placed = _set_attack(turn, order)
            if placed:
                attacks.append((order, placed))
    return attacks


def _report(turn: SeatTurn, order: Order, asked: int, did: int, what: str, why: str) -> None:
    if did == asked:
        turn.rec.done(turn.name, order, what)
    elif did:
        turn.rec.partly(turn.name, order, f"{what}; {why}")
    else:
        turn.rec.skipped(turn.name, order, why)


def _units(turn: SeatTurn, asked: int, room: int, full: str) -> tuple[int, str]:
    """How many of an order's units act: those that can still act (an earlier seat's attack
    may have killed some since the order was read) and the building has room for; and why
    not all of them, if not (`full`: the building's reason)."""
    units = min(asked, turn.seat.idle())
    if units < asked and units < room:
        return (
            units,
            f"only {plural(units, 'unit')} left to act" if units else "no unit left to act",
        )
    if room < asked:
        return room, full
    return asked, ""


def _found(turn: SeatTurn, order: Order, label: str) -> Building | None:
    building = turn.seat.building(label)
    if building is None:
        turn.rec.skipped(turn.name, order, f"{label} is no longer in play")
    return building


def _build(turn: SeatTurn, order: Build) -> None:
    seat = turn.seat
    building = _found(turn, order, order.label)
    if building is None:
        return
    card = CARDS[building.kind]
    removed = did = tooled = 0
    full = f"{building.label} takes no more units this turn"
    units, why = _units(turn, order.count, building.free_places, full)
    for _ in range(units):
        if not building.damage:
            why = f"{building.label} has no damage token left"
            break
        tool = building.damage >= 2 and _tool(seat, order.tools, tooled) and _pays(seat, card, 2)
        tokens = 2 if tool else 1
        if not _pays(seat, card, tokens):
            why = f"not enough {card.cost_text()} a token"
            break
        for what, n in card.cost.items():
            seat.stock[what] -= n * tokens
        seat.tools_used += tool
        tooled += tool
        building.damage -= tokens
        building.workers += 1
        removed += tokens
        did += 1
    what = f"{plural(removed, 'damage token')} removed from {building.label}"
    if did:
        turn.event("build", f"{plural(did, 'unit')}: {what}, {building.damage} left.")
    if did and not building.damage:
        turn.event(f"complete:{building.kind}", f"{building.label} stands complete.", public=True)
    _report(turn, order, order.count, did, what, why)


def _tool(seat: Seat, limit: int, used: int) -> bool:
    """A tool for the next unit of a line: one is free (a school stands) and the line's
    TOOLS limit is not reached ("optionally tools with a school built")."""
    return bool(seat.tools_free()) and (limit == ANY_TOOLS or used < limit)


def _pays(seat: Seat, card: Card, tokens: int) -> bool:
    return all(seat.stock[what] >= n * tokens for what, n in card.cost.items())


def _work(turn: SeatTurn, order: Work) -> None:
    seat = turn.seat
    building = _found(turn, order, order.label)
    if building is None:
        return
    if building.damage:
        turn.rec.skipped(
            turn.name, order, f"{building.label} is damaged: {RULES['damaged']}".strip()
        )
        return
    card = CARDS[building.kind]
    made = did = tooled = 0
    full = f"{building.label} takes no more units this turn"
    units, why = _units(turn, order.count, building.free_places, full)
    for _ in range(units):
        tool = _tool(seat, order.tools, tooled) and _has_input(seat, card, 2)
        amount = 2 if tool else 1
        if not _has_input(seat, card, amount):
            why = f"no {card.uses} left to make {card.makes} of"
            break
        if card.uses:
            seat.stock[card.uses] -= amount
        seat.stock[card.makes] += amount * card.amount
        seat.tools_used += tool
        tooled += tool
        building.workers += 1
        made += amount * card.amount
        did += 1
    made_text = counted(made, card.makes)
    if did:
        building.produced = card.group is Group.RAW or building.produced
        turn.event("produce", f"{building.label}: {plural(did, 'unit')} made {made_text}.")
    _report(turn, order, order.count, did, f"{made_text} made", why)


def _has_input(seat: Seat, card: Card, amount: int) -> bool:
    return not card.uses or seat.stock[card.uses] >= amount


def _buy(turn: SeatTurn, order: Buy) -> None:
    seat = turn.seat
    did = 0
    room = sum(h.free_places for h in seat.of_kind("house", undamaged=True))
    units, why = _units(turn, order.count, room, "no undamaged house with room to work in")
    for _ in range(units):
        house = next(h for h in seat.of_kind("house", undamaged=True) if h.free_places)
        if seat.stock["grain"] < UNIT_PRICE:
            why = f"a unit costs {UNIT_PRICE} grain"
            break
        seat.stock["grain"] -= UNIT_PRICE
        house.workers += 1
        seat.units += 1
        seat.bought += 1
        did += 1
    if did:
        turn.event("buy", f"{plural(did, 'new unit')} bought for {did * UNIT_PRICE} grain.")
    _report(turn, order, order.count, did, f"{plural(did, 'unit')} bought", why)


def _set_attack(turn: SeatTurn, order: Attack) -> int:
    """ "setting a unit to attack an enemy, which is done at an undamaged Academy" """
    seat = turn.seat
    academies = seat.of_kind("academy", undamaged=True)
    room = sum(academy.free_places for academy in academies)
    count, why = _units(turn, order.count, room, "no undamaged academy with room")
    placed = 0
    for academy in academies:
        here = min(count - placed, academy.free_places)
        academy.workers += here
        placed += here
    if not placed:
        turn.rec.skipped(turn.name, order, why)
    return placed
