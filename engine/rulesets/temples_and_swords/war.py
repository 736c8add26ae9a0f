"""Phase 4, war: movement, then last turn's warbands, then the attacks declared."""

from __future__ import annotations

from collections import Counter

from engine.rulesets.temples_and_swords.combat import Battle, Side, fight
from engine.rulesets.temples_and_swords.legality import refuse_move_kind, refuse_path
from engine.rulesets.temples_and_swords.model import UNIT_TYPES, GameState, Units
from engine.rulesets.temples_and_swords.orders import Attack, Move
from engine.rulesets.temples_and_swords.seat_turn import SeatTurn, lose_population
from engine.words import plural


def war(turn: SeatTurn) -> None:
    arrived: Counter[tuple[str, str]] = Counter()
    for move in turn.of(Move):
        _move(turn, move, arrived)
    if turn.seat.warband:
        _warband(turn)
    for number, order in enumerate(turn.of(Attack)):
        _attack(turn, order, number)


def _move(turn: SeatTurn, order: Move, arrived: Counter[tuple[str, str]]) -> None:
    """Each unit moves once a turn: units that arrived this turn stay where they are."""
    state, name, rec = turn.state, turn.name, turn.rec
    path = list(order.path)
    refusal = refuse_path(state, name, path)
    if refusal:
        rec.skipped(name, order, refusal.message)
        return
    source, target = path[0], path[-1]
    present = state.units(source, name)
    kinds = [order.kind] if order.kind else [k for k in UNIT_TYPES if present.get(k)]
    if order.count and not order.kind:
        # A count without a type: the first type with units free to move (the parser asks
        # for a type when the hex held more than one).
        kinds = [k for k in kinds if present.get(k) > arrived[(source, k)]][:1] or kinds[:1]
    wanted = moved = 0
    notes: list[str] = []
    for kind in kinds:
        free = present.get(kind) - arrived[(source, kind)]
        want = order.count or max(free, 0)
        wanted += want
        count = min(want, max(free, 0))
        slow = refuse_move_kind(state, path, kind)
        if slow:
            notes.append(slow.message)
            continue
        if count:
            state.units_for_change(source, name).add(kind, -count)
            state.units_for_change(target, name).add(kind, count)
            arrived[(target, kind)] += count
            moved += count
    if not moved:
        rec.skipped(name, order, "; ".join(notes) or f"no unit of yours free to move in {source}")
        return
    turn.event("move", f"Move: {plural(moved, 'unit')} {'-'.join(path)}.")
    if moved < wanted:
        rec.partly(
            name, order, f"{moved} of {wanted} moved" + (": " + "; ".join(notes) if notes else "")
        )
    else:
        rec.done(name, order)


def _side(turn: SeatTurn, seat: str, units: Units, attacking: bool, use: str, walls: bool) -> Side:
    holder = turn.state.seat(seat)
    doctrine = turn.state.options["military_doctrine"] if holder.has("Military Doctrine") else ""
    return Side(units, use, list(holder.standing.losses), attacking, walls, doctrine)


def _defender(state: GameState, order: Attack, seat: str) -> str:
    here = state.peek(order.hex)
    enemies = state.enemies_in(order.hex, seat)
    owner = here.owner if here.owner and here.owner != seat else ""
    if order.target and (order.target in enemies or order.target == owner):
        return order.target
    # By default the army standing there: the owner's if it has one, else the other seat's;
    # with no army at all, the owner (whose hex then falls without a battle).
    if owner in enemies or not enemies:
        return owner
    return enemies[0]


def _attack(turn: SeatTurn, order: Attack, number: int) -> None:
    state, name, rec = turn.state, turn.name, turn.rec
    if not state.units(order.hex, name).military():
        rec.skipped(name, order, f"no army of yours in {order.hex}")
        return
    enemy = _defender(state, order, name)
    if not enemy:
        rec.skipped(name, order, f"nothing of an enemy's left in {order.hex}")
        return
    here = state.peek(order.hex)
    walls = here.has("walls") and here.owner == enemy
    attacker = _side(turn, name, state.units_for_change(order.hex, name), True, order.use, False)
    defender = _side(
        turn,
        enemy,
        state.units_for_change(order.hex, enemy),
        False,
        state.seat(enemy).standing.defend_use,
        walls,
    )
    length = _battle_length(turn, number)
    battle = fight(attacker, defender, turn.dice(f"attack:{number}"), order.until, sum(length))
    most = f" (at most 1D6 {length} = {plural(length[0], 'round')})" if length else ""
    text = (
        f"Battle in {order.hex}: {name} attacks {enemy}{most}. Dice (attacker/defender): "
        f"{battle.dice_text() or 'none: no defending army'}. Losses: {name} {attacker.lost}, "
        f"{enemy} {defender.lost}."
    )
    turn.event("battle", text, (*length, *battle.all_dice()), public=True, also=(enemy,))
    _after_battle(turn, order, battle, attacker.lost)


def _battle_length(turn: SeatTurn, number: int) -> list[int]:
    """Option battle_length: 'd6' limits a battle to 1D6 rounds, as a Culture and Conquest war
    lasts at most 1D6 segments ([] for no limit: the text's step 4, 'attacker')."""
    if turn.state.options["battle_length"] != "d6":
        return []
    return turn.dice(f"attack length:{number}").roll(1)


def _after_battle(turn: SeatTurn, order: Attack, battle: Battle, lost: int) -> None:
    state, name, rec = turn.state, turn.name, turn.rec
    if battle.defender_won:
        rec.done(name, order, "the attack failed: your army was destroyed")
        return
    if battle.out_of_rounds:
        rounds = plural(len(battle.rounds), "round")
        rec.partly(name, order, f"the battle ended after {rounds} with both armies in the hex")
        return
    if not battle.attacker_won:
        rec.partly(name, order, f"you broke off after losing {plural(lost, 'unit')}")
        return
    _free_slaves(state, order.hex, name)
    if state.enemies_in(order.hex, name):
        rec.done(name, order, "won; another enemy army is still in the hex")
        return
    note = _spoils(turn, order)
    rec.done(name, order, note)


def _free_slaves(state: GameState, hex_name: str, winner: str) -> None:
    """Slaves left with no army of their owner in a hex an enemy wins go free (a completion:
    the text does not say)."""
    for seat, units in state.armies.get(hex_name, {}).items():
        if seat != winner and not units.military():
            units.slave = 0


def _spoils(turn: SeatTurn, order: Attack) -> str:
    """Step 5: 2 gold a population; control if the survivors are at least half the
    population; slaves up to half the population (rounded up) and the survivors."""
    state, name = turn.state, turn.name
    here = state.peek(order.hex)
    loser = here.owner
    if not loser or loser == name:
        return "won"
    gold = 2 * here.pop
    turn.seat.gold += gold
    survivors = state.units(order.hex, name).military()
    if not order.capture:  # the victor "may" take control: ATTACK ... CAPTURE NO
        text = f"{name} takes {gold} GP in {order.hex} and leaves it to {loser}."
        turn.event("plunder", text, public=True, also=(loser,))
        return f"won {gold} GP; you did not take the hex (CAPTURE NO)"
    if 2 * survivors < here.pop:
        text = (
            f"{name} takes {gold} GP in {order.hex} but with {plural(survivors, 'unit')} "
            f"cannot hold {here.pop} population."
        )
        turn.event("plunder", text, public=True, also=(loser,))
        return f"won {gold} GP; too few units to take control"
    here = state.hex(order.hex)
    most = min((here.pop + 1) // 2, survivors)
    slaves = most if order.slaves < 0 else min(order.slaves, most)
    here.owner, here.laborers = name, 0
    lose_population(state, order.hex, slaves)
    here.owner = name  # the hex stays taken even if enslaving emptied it
    state.units_for_change(order.hex, name).add("slave", slaves)
    cities = " and its city" if here.has("city") else ""
    turn.event(
        "capture",
        f"{name} captures {order.hex}{cities} from {loser}: {gold} GP, "
        f"{plural(slaves, 'slave')} taken.",
        public=True,
        also=(loser,),
    )
    return f"captured {order.hex}: {gold} GP, {plural(slaves, 'slave')}"


def _warband(turn: SeatTurn) -> None:
    """Warbands (disaster 6): the soldiers attack a random border hex after the seat moved.
    If they win, the hex's population and projects are destroyed and the seat loses 1d6 GP."""
    state, seat = turn.state, turn.seat
    strength, seat.warband = seat.warband, 0
    dice = turn.dice("warband")
    border = _border_hexes(state, turn.name) or state.owned(turn.name)
    if not border:
        turn.event("warband_none", f"Warbands of {strength} find nothing of yours to attack.")
        return
    target = dice.choice(border)
    here = state.hex(target)
    raiders = Side(Units(soldier=strength), "none", ["soldier"], True)
    defender = _side(
        turn,
        turn.name,
        state.units_for_change(target, turn.name),
        False,
        seat.standing.defend_use,
        here.has("walls"),
    )
    battle = fight(raiders, defender, dice)
    text = (
        f"Warbands: {plural(strength, 'soldier')} {'attacks' if strength == 1 else 'attack'} "
        f"{turn.name}'s {target}. "
        f"Dice (warband/you): {battle.dice_text() or 'none'}."
    )
    rolled: tuple[int, ...] = ()
    if battle.attacker_won:
        rolled = (dice.d(6),)
        gold = min(rolled[0], seat.gold)
        seat.gold -= gold
        here.projects, here.progress, here.laborers = [], {}, 0
        lose_population(state, target, here.pop)
        state.units_for_change(target, turn.name).slave = 0
        had = f" (all {turn.name} had)" if gold < rolled[0] else ""
        text += (
            f" The warband wins: {target} is laid waste and {turn.name} loses 1D6 "
            f"{list(rolled)} = {gold} GP{had}."
        )
    else:
        text += f" The warband is destroyed; {turn.name} lost {plural(defender.lost, 'unit')}."
    turn.event("warband", text, (*battle.all_dice(), *rolled), public=True)


def _border_hexes(state: GameState, seat: str) -> list[str]:
    """Own hexes on the map's edge or next to a hex that is not the seat's."""
    return [
        n
        for n in state.owned(seat)
        if state.terrain.on_edge(n)
        or any(state.peek(m).owner != seat for m in state.terrain.neighbours(n))
    ]
