"""Step 7, Resolve Attack(s): the units set at the academy attack, one attack a player, in the
order the attacker wrote them.

Only the defender's units that are not on a building defend: units stay on the building they
worked on until their seat's next turn begins (step 1), so a seat that leaves units at home
is guarded. By email the defender's decisions are standing orders (DEFEND: how many of the
units at home and how many shields; by default all of them and a shield each), and where
razing damage goes is the defender's default rule below. Every die of an attack is rolled
from the attacker's streams, so the attacker's orders never move another seat's dice.
"""

from __future__ import annotations

from engine.rulesets.medieval_micromanager.cards import COMMODITIES, KINDS, TOKENS, counted
from engine.rulesets.medieval_micromanager.model import Building, Seat
from engine.rulesets.medieval_micromanager.orders import Attack
from engine.rulesets.medieval_micromanager.rules import LOOT_OPTION
from engine.rulesets.medieval_micromanager.seat_turn import SeatTurn, lose_at_home, lose_on
from engine.words import plural

SWORD_HITS, HITS = 3, 4  # "he only misses on a 1 or a 2"; "a roll of 4,5, or 6"
SHIELD_SAVES, SAVES = 4, 5  # "A shield improves this to also include 4s"; "a roll of 5 or 6"
# Completion: the defender's default for razing damage (his standing SPARE order aside): a
# building already damaged first (but none pushed to five tokens while another could take
# it), then by this order: what a seat can best do without first, houses and cathedrals last.
SPARE_LAST = (
    "academy",
    "swordsmith",
    "armourer",
    "smithy",
    "school",
    "quarry",
    "mine",
    "warehouse",
    "granary",
    "woodcutter",
    "farm",
    "house",
    "cathedral",
)
assert set(SPARE_LAST) == set(KINDS)


def resolve_attacks(turn: SeatTurn, attacks: list[tuple[Attack, int]]) -> None:
    for order, units in attacks:
        defender = turn.state.seat(order.target)
        if not defender.alive:
            turn.rec.skipped(turn.name, order, f"{defender.name} is out of the game")
            continue
        note = _fight(turn, order, units, defender)
        if units < order.count:
            turn.rec.partly(
                turn.name, order, f"with {units} of {plural(order.count, 'unit')}: {note}"
            )
        else:
            turn.rec.done(turn.name, order, note)


def _fight(turn: SeatTurn, order: Attack, units: int, defender: Seat) -> str:
    attacker = turn.seat
    swords = min(order.swords, attacker.stock["swords"], units)
    attacker.stock["swords"] -= swords
    home = defender.at_home()
    guards = home if defender.defend < 0 else min(defender.defend, home)
    wanted = guards if defender.shields < 0 else min(defender.shields, guards)
    shields = min(wanted, defender.stock["shields"])
    defender.stock["shields"] -= shields
    dice = turn.dice(f"attack {defender.name}")
    hits = dice.roll(units)
    saves = turn.dice(f"defence {defender.name}").roll(guards)
    attack = sum(r >= (SWORD_HITS if i < swords else HITS) for i, r in enumerate(hits))
    defence = sum(r >= (SHIELD_SAVES if i < shields else SAVES) for i, r in enumerate(saves))
    head = (
        f"{attacker.name} attacks {defender.name}: {units} attackers "
        f"({plural(swords, 'sword')}) score {attack}, {guards} defenders "
        f"({plural(shields, 'shield')}) score {defence}"
    )
    if attack > defence:
        outcome, tail = _success(turn, order, defender, attack - defence, guards)
    elif defence > attack:
        # "one attacker is eliminated": the attack's own units, on the academies.
        lost = lose_on(attacker, attacker.of_kind("academy"), min(defence - attack, units))
        outcome, tail = "routed", f"routed: {plural(lost, 'attacker')} eliminated"
    else:
        outcome, tail = "tie", "a tie: no damage to either side"
    turn.event(
        f"attack:{outcome}",
        f"{head}; {tail}.",
        hits + saves,
        public=True,
        also=(defender.name,),
    )
    return f"scored {attack} against {defence}: {tail}"


def _success(
    turn: SeatTurn, order: Attack, defender: Seat, excess: int, guards: int
) -> tuple[str, str]:
    """ "For each point of excess, one defender is eliminated. If all defenders are eliminated,
    and there is still an excess, then the attacker decides whether to loot or raze." """
    killed = lose_at_home(defender, min(excess, guards))
    parts = [f"{plural(killed, 'defender')} eliminated"]
    rest = excess - guards
    outcome = "killed"
    if rest > 0 and order.raze:
        outcome = "razed"
        parts.append("razed: " + _raze(defender, rest))
    elif rest > 0:
        outcome = "looted"
        parts.append(_loot(turn, defender))
    return outcome, ", ".join(parts)


def _loot(turn: SeatTurn, defender: Seat) -> str:
    """ "he gets to choose one commodity at random from the defending player's commodities",
    as the game's option `loot` reads it: `kind` (the default), one kind of commodity, each
    kind the defender holds as likely as any other, and all the defender has of it; `piece`,
    one piece, each piece the defender holds as likely as any other."""
    kinds = [what for what in COMMODITIES if defender.stock[what]]
    if not kinds:
        return "nothing to loot"
    dice = turn.dice(f"loot {defender.name}")
    if turn.state.options.get(LOOT_OPTION.name, LOOT_OPTION.default) == "piece":
        pieces = sum(defender.stock[what] for what in COMMODITIES)
        taken, count = _piece(defender, dice.randrange(pieces)), 1
    else:
        taken = dice.choice(kinds)
        count = defender.stock[taken]
    defender.stock[taken] -= count
    turn.seat.stock[taken] += count
    return f"looted {counted(count, taken)}"


def _piece(defender: Seat, index: int) -> str:
    """The kind of the `index`-th of the defender's pieces, counted in the order of the
    commodities (grain first)."""
    for what in COMMODITIES:
        if index < defender.stock[what]:
            return what
        index -= defender.stock[what]
    raise AssertionError("no such piece")


def _raze(defender: Seat, tokens: int) -> str:
    """ "the defending player must apply a damage token for each additional point of excess.
    The defending player may apply it to any building he wishes." """
    hit: dict[str, int] = {}
    for _ in range(tokens):
        if not defender.buildings:
            break
        target = min(defender.buildings, key=lambda b: _spared(b, defender.spare))
        target.damage += 1
        hit[target.label] = hit.get(target.label, 0) + 1
    if not hit:
        return "no building to damage"
    return ", ".join(f"{plural(n, 'damage token')} on {label}" for label, n in hit.items())


def _spared(building: Building, spare: list[str]) -> tuple[bool, int, bool, int, str]:
    """The defender's order of preference for a damage token, lowest first: none taken to
    five tokens while another can take it; the buildings he SPAREs last (the first named
    last of all); a building already damaged; then by kind."""
    named = len(spare) - spare.index(building.label) if building.label in spare else 0
    return (
        building.tokens + 1 >= TOKENS,
        named,
        not building.damage,
        SPARE_LAST.index(building.kind),
        building.label,
    )
