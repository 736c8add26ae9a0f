"""The Move and Battle phases."""

from __future__ import annotations

from engine.rulesets.classical import legality
from engine.rulesets.classical.model import UNIT_NAMES, GameState, Territory
from engine.rulesets.classical.orders import Move
from engine.rulesets.classical.seat_turn import SeatTurn
from engine.words import plural


def move(turn: SeatTurn) -> None:
    """Each MOVE in the order given; a unit moves once a turn (those that arrived in a space
    this turn stay there)."""
    state, seat = turn.state, turn.name
    for order in turn.of(Move):
        spot = state.space(order.origin)
        free = spot.units_of(seat) - turn.arrived.get(order.origin, 0)
        if free <= 0:
            turn.rec.skipped(seat, order, f"no units of yours left to move in {order.origin}")
            continue
        way = legality.path(state, seat, order.origin, order.dest)
        if way is None:
            refusal = legality.refuse_path(state, seat, order.origin, order.dest)
            turn.rec.skipped(seat, order, refusal.message if refusal else "no way")
            continue
        count = min(order.count or free, free)
        spot.add_units(seat, -count)
        state.space(order.dest).add_units(seat, count)
        turn.arrived[order.dest] = turn.arrived.get(order.dest, 0) + count
        units = _units(count, order.fleets)
        turn.event("move", f"{seat} moves {units} {' > '.join(way)}.", public=True)
        if order.count and count < order.count:
            turn.rec.partly(seat, order, f"only {count} could move")
        else:
            turn.rec.done(seat, order)


def _units(count: int, fleets: bool) -> str:
    one, many = UNIT_NAMES[fleets]
    return plural(count, one, many)


def battle(turn: SeatTurn) -> None:
    """Battle wherever the seat's units share a space with another seat's units or
    settlement; the seat whose turn it is attacks."""
    state, seat = turn.state, turn.name
    for label in state.unit_spaces(seat):
        spot = state.space(label)
        for enemy in sorted(spot.enemy_units(seat)):
            if spot.units_of(seat):
                _fight_units(turn, label, enemy)
        if spot.units_of(seat) and spot.owner and spot.owner != seat:
            _fight_settlement(turn, label)


def _bonus(state: GameState, seat: str, spot: Territory) -> int:
    """Military on land, Nautical at sea."""
    return state.seat(seat).level("nautical" if spot.sea else "military")


def _fight_units(turn: SeatTurn, label: str, enemy: str) -> None:
    """Both roll 1D8 + bonus; the lower discards a unit, the defender wins ties; until one side
    has no units left."""
    state, seat = turn.state, turn.name
    spot = state.space(label)
    dice = turn.dice(f"battle {label} {enemy}")
    ours, theirs = spot.units_of(seat), spot.units_of(enemy)
    mine, their_bonus = _bonus(state, seat, spot), _bonus(state, enemy, spot)
    rolled: list[int] = []
    while spot.units_of(seat) and spot.units_of(enemy):
        a, d = dice.d(8), dice.d(8)
        rolled += [a, d]
        loser = seat if a + mine <= d + their_bonus else enemy
        spot.add_units(loser, -1)
    winner = seat if spot.units_of(seat) else enemy
    turn.event(
        "battle",
        f"Battle in {label}: {seat} attacks with {_units(ours, spot.sea)} (+{mine}) against "
        f"{enemy}'s {_units(theirs, spot.sea)} (+{their_bonus}); dice in pairs, attacker "
        f"first. {winner} wins with {_units(spot.units_of(winner), spot.sea)} left.",
        dice=rolled,
        public=True,
        also=(enemy,),
    )


def _fight_settlement(turn: SeatTurn, label: str) -> None:
    """A settlement without defenders: with settlement_defence 'fight' it rolls 1D8 + its
    owner's Military against the invader, one unit at a time, the defender winning ties, until
    it is defeated (then captured) or the invaders are gone; with 'none' it is captured."""
    state, seat = turn.state, turn.name
    spot = state.space(label)
    owner = spot.owner
    rolled: list[int] = []
    if state.options["settlement_defence"] == "fight":
        dice = turn.dice(f"siege {label}")
        mine, theirs = _bonus(state, seat, spot), _bonus(state, owner, spot)
        while spot.units_of(seat):
            a, d = dice.d(8), dice.d(8)
            rolled += [a, d]
            if a + mine > d + theirs:
                break
            spot.add_units(seat, -1)
    what = spot.settlement
    if spot.units_of(seat):
        spot.owner = seat
        code, text = "capture", f"{seat} captures {owner}'s {what} in {label}"
        if spot.monuments:
            text += f" with {plural(spot.monuments, 'monument')}"
    else:
        code, text = "siege_held", f"{owner}'s {what} in {label} holds; {seat}'s armies are lost"
    turn.event(code, text + ".", dice=rolled, public=True, also=(owner,))
