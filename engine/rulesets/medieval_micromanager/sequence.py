"""The steps of a seat's turn other than activities and attacks: taking units off the
buildings, removing destroyed buildings, breaking ground, eliminating surplus commodities,
the depletion check and eliminating surplus units."""

from __future__ import annotations

from engine.rulesets.medieval_micromanager.cards import (
    CARDS,
    GRAIN,
    OTHER_COMMODITIES,
    TOKENS,
    Group,
    counted,
)
from engine.rulesets.medieval_micromanager.model import Building
from engine.rulesets.medieval_micromanager.orders import BreakGround
from engine.rulesets.medieval_micromanager.seat_turn import SeatTurn, lose_units
from engine.words import plural


def remove_units(turn: SeatTurn) -> None:
    """ "On the first turn, no units will have been placed on buildings, and so this phase can
    be skipped. On all subsequent turns, units will be on the building in which they worked
    last turn, and at the start of the turn must be removed" """
    seat = turn.seat
    seat.bought = seat.tools_used = 0
    for building in seat.buildings:
        building.workers = 0
        building.produced = False


def remove_destroyed(turn: SeatTurn) -> None:
    """ "A player must remove all buildings with five damage or depletion tokens on them." """
    seat = turn.seat
    for building in [b for b in seat.buildings if b.destroyed]:
        seat.buildings.remove(building)
        turn.event(
            "removed",
            f"{building.label} is removed with {_tokens(building)}.",
            public=True,
        )


def _tokens(building: Building) -> str:
    parts = [plural(building.damage, "damage token")] if building.damage else []
    if building.depletion:
        parts.append(plural(building.depletion, "depletion token"))
    return " and ".join(parts)


def break_ground(turn: SeatTurn) -> None:
    """ "Each turn, the player may break ground on a new building. ... He does this by putting
    a new building card into his play area, and placing five damage tokens on the card." """
    seat = turn.seat
    for order in turn.of(BreakGround):
        label = seat.next_label(order.kind)
        seat.numbered[order.kind] = seat.numbered.get(order.kind, 0) + 1
        seat.buildings.append(Building(label, order.kind, damage=TOKENS))
        turn.event(
            f"ground:{order.kind}",
            f"Ground broken on {label}, with {TOKENS} damage tokens.",
            public=True,
        )
        turn.rec.done(turn.name, order, f"{label} is in play with {TOKENS} damage tokens")


def surplus_commodities(turn: SeatTurn) -> None:
    """ "the player must remove commodities he cannot store. He can store 10 Grain per Granary,
    and 10 other commodities per Warehouse." Completion: other commodities go one at a time
    from the one held most (ties: the first in the list lumber, ore, stone, tools, swords,
    shields)."""
    seat = turn.seat
    lost: dict[str, int] = {}
    over = seat.stock[GRAIN] - seat.grain_room()
    if over > 0:
        seat.stock[GRAIN] -= over
        lost[GRAIN] = over
    for _ in range(max(0, seat.others() - seat.other_room())):
        most = max(OTHER_COMMODITIES, key=lambda c: (seat.stock[c], -OTHER_COMMODITIES.index(c)))
        seat.stock[most] -= 1
        lost[most] = lost.get(most, 0) + 1
    if lost:
        spoilt = ", ".join(counted(n, what) for what, n in lost.items())
        turn.event(
            "spoilt",
            f"Not stored, lost: {spoilt} (room for {seat.grain_room()} grain and "
            f"{seat.other_room()} others).",
        )


def depletion(turn: SeatTurn) -> None:
    """ "For each raw material building that produced commodities this turn, roll one six sided
    die. If a 1 shows up, that building gets a depletion token." """
    for building in turn.seat.buildings:
        if not (building.produced and CARDS[building.kind].group is Group.RAW):
            continue
        roll = turn.dice(f"depletion {building.label}").d(6)
        if roll == 1:
            building.depletion += 1
            turn.event(
                "depleted",
                f"{building.label} gets a depletion token ({building.depletion} now).",
                [roll],
            )
        else:
            turn.event("not_depleted", f"{building.label} is not depleted.", [roll])


def surplus_units(turn: SeatTurn) -> None:
    """ "A House must exists for every 5 units. If a House is damaged, this is reduced by 1 per
    damage token for that house. Units in excess of the housing capacity are eliminated." """
    seat = turn.seat
    over = seat.units - seat.housing()
    if over > 0:
        lose_units(seat, over)
        turn.event(
            "unhoused",
            f"{plural(over, 'unit')} without a house eliminated (houses for {seat.housing()}).",
            public=True,
        )
