"""Phase 7 in the map version: "Armies can attack Army in adjacent spaces." The attack names a
territory of another culture; the attacker's Armies in his territories next to it fight the
Armies in it, in the segments of the game without a map, with allies whose Armies stand next to
it. The tribute is taken as in the game without a map."""

from __future__ import annotations

from engine.rulesets.culture_and_conquest.combat import END_TEXT, Contingent, Side, fight
from engine.rulesets.culture_and_conquest.geography import adjacent_own, remove_from
from engine.rulesets.culture_and_conquest.model import GameState, Land, Seat
from engine.rulesets.culture_and_conquest.orders import Attack
from engine.rulesets.culture_and_conquest.seat_turn import SeatTurn
from engine.rulesets.culture_and_conquest.war import (
    fight_wars,
    pays_tribute,
    take_tribute,
    war_text,
    with_allies,
)


def war(turn: SeatTurn) -> None:
    """Phase 7 on the map: the seat's one ATTACK on a territory."""
    fight_wars(turn, _attack)


def _attack(turn: SeatTurn, order: Attack) -> None:
    state, name, rec = turn.state, turn.name, turn.rec
    land = state.land
    assert land is not None
    at = order.at
    owner = land.territories[at].owner
    if owner != order.target:
        rec.skipped(name, order, f"{at} is no longer {order.target}'s")
        return
    places = [n for n in adjacent_own(land, name, at) if land.territories[n].army]
    if not places:
        rec.skipped(name, order, f"you have no Army next to {at}")
        return
    if not land.territories[at].army:
        rec.skipped(name, order, f"there is no Army in {at} to attack: move an Army in to take it")
        return
    enemy = state.seat(owner)
    fronts = {name: places, owner: [at]}
    attacker = _side(state, turn.seat, enemy, False, at, fronts)
    defender = _side(state, enemy, turn.seat, True, at, fronts)
    result = fight(
        attacker, defender, turn.dice("war"), order.give_up, enemy.standing.surrender_below
    )
    for side in (attacker, defender):
        for contingent in side.contingents:
            holder = state.seat(contingent.seat)
            remove_from(state, holder, "army", contingent.lost, fronts[contingent.seat])
    involved = tuple(sorted({c.seat for c in attacker.contingents + defender.contingents} - {name}))
    text = war_text(name, owner, attacker, defender, result)
    text = text.replace("War: ", f"War on {at} (from {', '.join(places)}): ", 1)
    turn.event("war", text, result.all_dice(), public=True, also=involved)
    if pays_tribute(state, result):
        note = take_tribute(turn, turn.seat, enemy, involved)
        rec.done(name, order, f"won: {END_TEXT[result.end]}; {note}")
    elif result.end == "surrender":
        rec.done(name, order, "won: the defender surrenders (no tribute by the game's options)")
    else:
        rec.done(name, order, END_TEXT[result.end])


def _side(
    state: GameState,
    seat: Seat,
    enemy: Seat,
    defending: bool,
    at: str,
    fronts: dict[str, list[str]],
) -> Side:
    """The belligerent's Armies in its territories of `fronts` and its allies' Armies in their
    territories next to the territory attacked (whose places are added to `fronts`)."""
    land = state.land
    assert land is not None
    own = Contingent(seat.name, sum(land.territories[n].army for n in fronts[seat.name]))

    def beside(ally: Seat) -> int:
        places = [n for n in adjacent_own(land, ally.name, at) if land.territories[n].army]
        fronts[ally.name] = places
        return _armies(land, places)

    return with_allies(state, seat, enemy, defending, [own], beside)


def _armies(land: Land, places: list[str]) -> int:
    return sum(land.territories[n].army for n in places)
