"""Phase 1 (movement) and phase 2 (battle). Both are completions: the fragment's tables and
combined attack (combat.py) are used exactly as written inside them."""

from __future__ import annotations

from engine.rulesets.tribes.combat import Side, Strike, fight, line_up
from engine.rulesets.tribes.legality import refuse_attack, refuse_path
from engine.rulesets.tribes.model import UNIT_KINDS, GameState, Units
from engine.rulesets.tribes.orders import Attack, Move
from engine.rulesets.tribes.seat_turn import SeatTurn
from engine.words import plural

MOVE_ORDER = ("melee", "ranged", "magic", "population", "ship")  # a count without a type


def movement(turn: SeatTurn) -> None:
    for order in turn.of(Move):
        _move(turn, order)


def _move(turn: SeatTurn, order: Move) -> None:
    state, seat = turn.state, turn.name
    start, end = order.path[0], order.path[-1]
    present = state.units(start, seat)
    moving = _chosen(present, order.count, order.kind)
    if not moving.total():
        turn.refuse(order, f"you have no such units in {start} now", "move")
        return
    by_sea = moving.ship > 0
    if by_sea and moving.total() != moving.ship:
        turn.refuse(order, "ships and land units do not move together", "move")
        return
    refusal = refuse_path(state, seat, order.path, "ship" if by_sea else "melee")
    if refusal:
        turn.refuse(order, refusal.message, refusal.rule)
        return
    transfer(state, seat, start, end, moving)
    note = f"{moving.described()} to {end}"
    if order.count and moving.total() < order.count:
        turn.rec.partly(seat, order, f"only {note}")
    else:
        turn.rec.done(seat, order, note)
    turn.event("move", f"Move: {moving.described()} from {start} to {end}.")


def _chosen(present: Units, count: int, kind: str) -> Units:
    """The units an order moves: `count` of `kind` (0: all), without a kind fighters first."""
    chosen = Units()
    left = count or present.total()
    for each in (kind,) if kind else MOVE_ORDER:
        take = min(left, present.get(each))
        chosen.add(each, take)
        left -= take
    return chosen


def transfer(state: GameState, seat: str, start: str, end: str, moving: Units) -> None:
    """Move units between two hexes of the seat (or into an empty hex)."""
    source, target = state.place(start), state.place(end)
    for kind in UNIT_KINDS:
        source.units.add(kind, -moving.get(kind))
        target.units.add(kind, moving.get(kind))
    target.owner = seat
    if not source.units.total():
        source.owner = ""


def battle(turn: SeatTurn) -> None:
    for order in turn.of(Attack):
        _attack(turn, order)


def _attack(turn: SeatTurn, order: Attack) -> None:
    state, seat = turn.state, turn.name
    refusal = refuse_attack(state, seat, order.target, order.source)
    if refusal:
        turn.refuse(order, refusal.message, refusal.rule)
        return
    defender_name = state.peek(order.target).owner
    source, target = state.place(order.source), state.place(order.target)
    fighters = Units(melee=source.units.melee, ranged=source.units.ranged, magic=source.units.magic)
    if state.is_sea(order.source):
        fighters = Units(ship=source.units.ship)
    for kind in UNIT_KINDS:
        source.units.add(kind, -fighters.get(kind))
    attacker = line_up(state, turn.seat, fighters, source.has("fortress"))
    defender = line_up(state, state.seat(defender_name), target.units, target.has("fortress"))
    dice = turn.dice(f"battle:{order.target}")
    for strike in fight(attacker, defender, order.group, order.until, dice):
        _report_strike(turn, order, defender_name, strike)
    result = _settle(turn, order, attacker, defender)
    turn.event(
        "battle",
        f"Battle: {seat} attacks {order.target} from {order.source}: {result}.",
        public=True,
        also=(defender_name,),
    )
    turn.rec.done(seat, order, result)


def _report_strike(turn: SeatTurn, order: Attack, defender: str, strike: Strike) -> None:
    verb = "attacks" if strike.seat == turn.name else "defends"
    turn.event(
        "battle_round",
        f"Battle for {order.target}, round {strike.round}: {strike.seat} {verb} in "
        f"{plural(strike.groups, 'group')}, rolling {' '.join(map(str, strike.dice))}: "
        f"{strike.killed} killed.",
        strike.dice,
        public=True,
        also=(defender,),
    )


def _settle(turn: SeatTurn, order: Attack, attacker: Side, defender: Side) -> str:
    """The survivors take the hex or go home; fame is won and lost. Returns the result."""
    state, seat = turn.state, turn.name
    source, target = state.place(order.source), state.place(order.target)
    holder = state.seat(defender.seat.name)
    target.units = defender.left()
    won = not defender.fighters and bool(attacker.fighters)
    if won:
        target.owner, target.units = seat, attacker.left()
        turn.seat.fame += 1
        holder.fame = max(0, holder.fame - 1)
    else:
        back = attacker.left()
        for kind in UNIT_KINDS:
            source.units.add(kind, back.get(kind))
        if not attacker.fighters:
            holder.fame += 1  # the defender beat off the attack to the last attacker
    if not target.units.total() and not won:
        target.owner = ""
    if not source.units.total():
        source.owner = ""
    return _result_text(order.target, holder.name, won, attacker.lost, defender.lost)


def _result_text(target: str, defender: str, won: bool, lost: int, killed: int) -> str:
    if won:
        return f"{target} taken from {defender} ({lost} lost, {killed} killed; fame +1)"
    return f"{target} held by {defender} ({lost} lost, {killed} killed)"
