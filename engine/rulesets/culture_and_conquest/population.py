"""Phases 1 to 3: population increase, population distribution and gaining a leader."""

from __future__ import annotations

from engine.dice import Dice
from engine.rulesets.culture_and_conquest.geography import convert
from engine.rulesets.culture_and_conquest.legality import refuse_move
from engine.rulesets.culture_and_conquest.model import (
    CATEGORIES,
    CATEGORY_TITLES,
    LEADER_NAMES,
    LEADER_TYPES,
    GameState,
    Leader,
)
from engine.rulesets.culture_and_conquest.orders import Move
from engine.rulesets.culture_and_conquest.seat_turn import SeatTurn, trim_scholars
from engine.words import plural


def increase(turn: SeatTurn) -> None:
    """Phase 1: 1D6-2 new Agriculture populations, at least 0; Religion adds 1 to the roll."""
    seat = turn.seat
    roll = turn.dice("increase").d(6)
    bonus = 1 if seat.has("Religion") else 0
    gained = max(0, roll + bonus - 2)
    seat.pops["agriculture"] += gained
    extra = " + 1 (Religion)" if bonus else ""
    turn.event(
        "increase",
        f"Population increase: rolled {roll}{extra} - 2: {plural(gained, 'new population')} "
        f"(Agriculture); {seat.population} in all.",
        [roll],
    )


def distribution(turn: SeatTurn) -> None:
    """Phase 2: the MOVE orders in line order, each category up or down by at most 6, an Army
    raised for 1 gold; then scholars beyond 1 per city go back to Agriculture. In the map version
    populations change category where they are: in the territory the order names, else in the
    territories with the most of the category."""
    seat, rec, land = turn.seat, turn.rec, turn.state.land
    moved_in = dict.fromkeys(CATEGORIES, 0)
    moved_out = dict.fromkeys(CATEGORIES, 0)
    for order in turn.of(Move):
        wanted = order.count
        count = min(wanted, seat.pops[order.source])
        if order.target == "army":
            count = min(count, seat.gold)
        if order.target == "scholars":
            count = min(count, max(0, len(seat.cities) - seat.pops["scholars"]))
        if land is not None and order.at:
            spot = land.territories[order.at]
            count = min(count, spot.pops[order.source] if spot.owner == turn.name else 0)
        refusal = refuse_move(
            seat.pops[order.source],
            count,
            order.source,
            order.target,
            moved_in[order.target],
            moved_out[order.source],
        )
        if refusal or count == 0:
            rec.skipped(turn.name, order, refusal.message if refusal else _why_none(turn, order))
            continue
        if land is None:
            seat.pops[order.source] -= count
            seat.pops[order.target] += count
        else:
            convert(turn.state, seat, order.source, order.target, count, order.at)
        moved_out[order.source] += count
        moved_in[order.target] += count
        cost = count if order.target == "army" else 0
        seat.gold -= cost
        note = f"raised for {cost} gold" if cost else ""
        if count < wanted:
            rec.partly(turn.name, order, f"moved {count} of {wanted}: {_why_none(turn, order)}")
        else:
            rec.done(turn.name, order, note)
    extra = trim_scholars(seat)
    if extra:
        turn.event(
            "scholars_trimmed",
            f"{plural(extra, 'scholar')} beyond 1 per city returned to Agriculture.",
        )
    listing = ", ".join(f"{CATEGORY_TITLES[c]} {seat.pops[c]}" for c in CATEGORIES)
    turn.event("distribution", f"Populations: {listing}.")


def _why_none(turn: SeatTurn, order: Move) -> str:
    seat, land = turn.seat, turn.state.land
    if land is not None and order.at:
        spot = land.territories[order.at]
        if spot.owner != turn.name:
            return f"{order.at} is no longer yours"
        if spot.pops[order.source] < order.count:
            title = CATEGORY_TITLES[order.source]
            return f"{order.at} has {spot.pops[order.source]} {title} populations"
    if order.target == "army" and seat.gold < order.count:
        return f"an Army costs 1 gold to raise and you have {seat.gold}"
    if order.target == "scholars":
        return f"{seat.pops['scholars']} scholars already, 1 per city"
    return f"{CATEGORY_TITLES[order.source]} has {seat.pops[order.source]} populations"


def gain_leader(turn: SeatTurn) -> None:
    """Phase 3: on 1-2 on a d6 a random leader: type by d6 (5-6 reroll), named from the
    examples of the type that are not in play."""
    dice = turn.dice("leader")
    roll = dice.d(6)
    if roll > 2:
        turn.event("leader_none", f"Gain leader: rolled {roll}, no leader.", [roll])
        return
    rolls = [roll]
    kind_roll = dice.d(6)
    rolls.append(kind_roll)
    while kind_roll > len(LEADER_TYPES):
        kind_roll = dice.d(6)
        rolls.append(kind_roll)
    kind = LEADER_TYPES[kind_roll - 1]
    leader = Leader(_leader_name(turn.state, kind, dice), kind)
    turn.seat.leaders.append(leader)
    turn.event(
        "leader",
        f"Gain leader: rolled {roll}; type roll {', '.join(map(str, rolls[1:]))}: "
        f"{turn.name} gains the {kind} {leader.name}.",
        rolls,
        public=True,
    )


def _leader_name(state: GameState, kind: str, dice: Dice) -> str:
    """A random example name of the type that no culture's leader has; when all are in play,
    the first of them with a numeral (Caesar 2)."""
    in_play = {leader.name for seat in state.seats for leader in seat.leaders}
    free = [name for name in LEADER_NAMES[kind] if name not in in_play]
    if free:
        return dice.choice(free)
    number = 2
    while True:
        for name in LEADER_NAMES[kind]:
            if f"{name} {number}" not in in_play:
                return f"{name} {number}"
        number += 1
